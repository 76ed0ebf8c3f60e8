# ruff: noqa
"""Predictions for 60 batches in one list comprehension, with the model in eval mode and autograd on.

source: the issue's case ([model(b) for b in batches], 60 batches), the shape of the PyTorch
        tutorials' "inference" cells when no_grad is left out
family: no-grad
kind: slow
verdict: AIP907|AIP908
rewrite: yes: the comprehension under torch.inference_mode()
size: 60 batches of 256 x 512, a 512-1024-1024-10 MLP
scaled: no
kernel: torch
"""
# %% setup
import torch
from torch import nn

torch.manual_seed(9)
model = nn.Sequential(nn.Linear(512, 1024), nn.ReLU(), nn.Linear(1024, 1024), nn.ReLU(), nn.Linear(1024, 10)).eval()
batches = [torch.randn(256, 512) for _ in range(60)]
# %% cell
preds = [model(b).argmax(dim=1) for b in batches]  # expect: AIP502
