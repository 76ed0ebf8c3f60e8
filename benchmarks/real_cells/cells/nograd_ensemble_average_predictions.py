# ruff: noqa
"""Test predictions of a five-fold ensemble: every fold's model in eval mode, softmax outputs averaged batch by batch, autograd on.

source: Kaggle competition notebooks that average the k models of their cross-validation folds
        at inference (for m in models: m.eval(); for xb in test_loader: probs =
        torch.stack([F.softmax(m(xb), 1) for m in models]).mean(0)), written without
        torch.no_grad()
family: no-grad
kind: slow
verdict: AIP907|AIP908
rewrite: yes: with torch.inference_mode(): around the loop (the same probabilities, no graphs recorded)
size: 12,000 test rows of 200 features in batches of 200, five 200-512-256-5 MLPs
scaled: no
kernel: torch
"""
# %% setup
import torch
import torch.nn.functional as F
from torch import nn

torch.manual_seed(418)
models = [nn.Sequential(nn.Linear(200, 512), nn.ReLU(), nn.Dropout(0.2), nn.Linear(512, 256), nn.ReLU(),
                        nn.Linear(256, 5)) for _ in range(5)]
test_batches = list(torch.randn(12_000, 200).split(200))
# %% cell
for m in models:
    m.eval()
all_probs = []
for xb in test_batches:  # expect: AIP502
    probs = torch.stack([F.softmax(m(xb), dim=1) for m in models]).mean(0)  # expect: AIP502
    all_probs.append(probs)
ensemble_probs = torch.cat(all_probs)
predicted = ensemble_probs.argmax(1)
