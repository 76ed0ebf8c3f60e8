# ruff: noqa
"""Class prototypes for a nearest-class-mean classifier summed one embedding at a time: for emb, y in zip(embeddings, labels): protos[y] += emb; counts[y] += 1.

source: few-shot and metric-learning notebooks (prototypical networks, nearest class mean on frozen
        features: prototypes = torch.zeros(n_classes, d); for feat, label in zip(features, labels):
        prototypes[label] += feat; counts[label] += 1; prototypes /= counts[:, None]), then test
        embeddings assigned to the closest prototype
family: tensor-loop
kind: slow
verdict: AIP907
rewrite: yes: protos = torch.zeros(n_classes, d).index_add_(0, labels, embeddings); counts = torch.bincount(labels, minlength=n_classes) (the same sums, up to float rounding order)
size: 30,000 train embeddings of 128 dimensions, 100 classes, 10,000 test embeddings
scaled: no
kernel: torch
"""
# %% setup
import torch

torch.manual_seed(617)
n_classes, dim = 100, 128
centres = torch.randn(n_classes, dim) * 2.0
labels = torch.randint(0, n_classes, (30_000,))
embeddings = centres[labels] + torch.randn(30_000, dim)
test_labels = torch.randint(0, n_classes, (10_000,))
test_embeddings = centres[test_labels] + torch.randn(10_000, dim)
# %% cell
protos = torch.zeros(n_classes, dim)
counts = torch.zeros(n_classes)
for emb, y in zip(embeddings, labels):  # expect: AIP201
    protos[y] += emb  # expect: AIP201
    counts[y] += 1  # expect: AIP201
protos /= counts.unsqueeze(1)
predicted = torch.cdist(test_embeddings, protos).argmin(dim=1)
accuracy = (predicted == test_labels).float().mean().item()
