# ruff: noqa
"""Averaging a tensor of per-sample losses by indexing and .item() in a Python loop.

source: training notebooks that total losses element by element (losses[i].item() in an index
        loop) before learning tensor.mean()
family: tensor-loop
kind: slow
verdict: AIP907
rewrite: yes: losses.mean().item()
size: 300,000 losses
scaled: no
kernel: torch
"""
# %% setup
import torch

torch.manual_seed(0)
losses = torch.rand(300_000)
# %% cell
total = 0.0
for i in range(len(losses)):  # expect: AIP201
    total += losses[i].item()  # expect: AIP201
mean_loss = total / len(losses)
