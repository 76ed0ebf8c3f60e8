# ruff: noqa
"""Encoder outputs kept in a list for 100 batches with autograd on: every graph stays alive.

source: transfer-learning notebooks extracting features with a frozen encoder (features.append(
        encoder(x)) then torch.cat), the memory case of AIP502's documentation
family: no-grad
kind: slow
verdict: AIP907|AIP908
rewrite: yes: torch.inference_mode() around the loop (memory first; time within noise on a CPU)
size: 100 batches of 128 x 256 through a 6-layer MLP of width 512
scaled: no
kernel: torch
"""
# %% setup
import torch
from torch import nn

torch.manual_seed(10)
layers = [nn.Linear(256, 512), nn.ReLU()] + [m for _ in range(5) for m in (nn.Linear(512, 512), nn.ReLU())]
encoder = nn.Sequential(*layers).eval()
batches = [torch.randn(128, 256) for _ in range(100)]
# %% cell
features = []
for x in batches:  # expect: AIP502
    features.append(encoder(x))  # expect: AIP502
features = torch.cat(features)
