# ruff: noqa
"""A causal attention mask built with two nested loops over a tensor, one element at a time.

source: transformer-from-scratch notebooks that write the look-ahead mask by hand before showing
        torch.triu (a 512-token context)
family: tensor-loop
kind: slow
verdict: AIP907
rewrite: yes: torch.triu(torch.full((seq_len, seq_len), float("-inf")), diagonal=1)
size: 512 x 512
scaled: no
kernel: torch
"""
# %% setup
import torch

seq_len = 512
# %% cell
mask = torch.zeros(seq_len, seq_len)
for i in range(seq_len):  # expect: AIP201
    for j in range(seq_len):  # expect: AIP201
        if j > i:  # expect: AIP201
            mask[i, j] = float("-inf")  # expect: AIP201
