# ruff: noqa
"""Class prototypes of a nearest-class-mean classifier made with index_add_ and bincount over 200,000 embeddings, then every test embedding assigned to its closest prototype with torch.cdist.

source: few-shot and metric-learning notebooks (prototypical networks, nearest class mean on frozen
        features) that build the prototypes with scatter operations (protos.index_add_(0, labels,
        feats) / counts) rather than a loop over samples
family: tensor-loop
kind: healthy
verdict: AIP907|AIP908|none
rewrite: no: one scatter-add, one bincount and one distance matrix; no Python per sample
size: 200,000 train embeddings of 128 dimensions, 500 classes, 50,000 test embeddings
scaled: no
kernel: torch
"""
# %% setup
import torch

torch.manual_seed(627)
n_classes, dim = 500, 128
centres = torch.randn(n_classes, dim) * 2.0
labels = torch.randint(0, n_classes, (200_000,))
embeddings = centres[labels] + torch.randn(200_000, dim)
test_labels = torch.randint(0, n_classes, (50_000,))
test_embeddings = centres[test_labels] + torch.randn(50_000, dim)
# %% cell
protos = torch.zeros(n_classes, dim).index_add_(0, labels, embeddings)
counts = torch.bincount(labels, minlength=n_classes).clamp(min=1)
protos /= counts.unsqueeze(1)
predicted = torch.cat([torch.cdist(chunk, protos).argmin(dim=1) for chunk in test_embeddings.split(10_000)])
accuracy = (predicted == test_labels).float().mean().item()
per_class = torch.bincount(test_labels[predicted == test_labels], minlength=n_classes) / torch.bincount(test_labels, minlength=n_classes).clamp(min=1)
