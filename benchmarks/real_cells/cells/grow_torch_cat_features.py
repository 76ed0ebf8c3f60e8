# ruff: noqa
"""Embeddings collected with torch.cat((all_feats, feats)) after every batch, under no_grad.

source: metric-learning and transfer-learning notebooks extracting features for a whole set
        (chenyuntc/pytorch-book and the PyTorch forum's feature-extraction answers grow one tensor)
family: growing
kind: slow
verdict: AIP907|AIP908
rewrite: yes: append each batch's features to a list, torch.cat once
size: 300 batches of 64 x 128 features
scaled: no
kernel: torch
"""
# %% setup
import torch
from torch import nn

torch.manual_seed(0)
encoder = nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, 128)).eval()
batches = [torch.randn(64, 32) for _ in range(300)]
# %% cell
all_feats = torch.empty(0, 128)
with torch.no_grad():
    for x in batches:
        feats = encoder(x)
        all_feats = torch.cat((all_feats, feats), 0)  # expect: AIP203
