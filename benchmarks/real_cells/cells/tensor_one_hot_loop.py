# ruff: noqa
"""One-hot targets for 60,000 labels, one tensor element set per label.

source: from-scratch classifier notebooks (softmax regression on MNIST before
        torch.nn.functional.one_hot)
family: tensor-loop
kind: slow
verdict: AIP907
rewrite: yes: torch.nn.functional.one_hot(labels, 10).float()
size: 60,000 labels (MNIST's training set)
scaled: no
kernel: torch
"""
# %% setup
import torch

torch.manual_seed(0)
labels = torch.randint(0, 10, (60_000,))
# %% cell
one_hot = torch.zeros(len(labels), 10)
for i, label in enumerate(labels):  # expect: AIP201
    one_hot[i, label] = 1  # expect: AIP201
