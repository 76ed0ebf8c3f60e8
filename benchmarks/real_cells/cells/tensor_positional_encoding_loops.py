# ruff: noqa
"""A transformer's sinusoidal positional encoding filled one element at a time in two nested loops.

source: "How to code The Transformer in Pytorch" (Samuel Lynn-Evans) and the transformer-from-
        scratch notebooks that follow it (class PositionalEncoder: pe = torch.zeros(max_seq_len,
        d_model); for pos in range(max_seq_len): for i in range(0, d_model, 2): pe[pos, i] =
        math.sin(pos / (10000 ** ((2 * i) / d_model))); pe[pos, i + 1] = math.cos(...))
family: tensor-loop
kind: slow
verdict: AIP907
rewrite: yes: the same angles as tensors: pos = torch.arange(max_seq_len)[:, None]; pe[:, 0::2] = torch.sin(pos / 10000 ** (2 * i / d_model)) with i = torch.arange(0, d_model, 2), and the cos likewise (the same values to float rounding)
size: 256 positions x 512 dimensions
scaled: yes: the article builds 80 positions by default and the Annotated Transformer 5,000; 256, a short model context, so the loops run in seconds here
kernel: torch
"""
# %% setup
import math

import torch

max_seq_len, d_model = 256, 512
# %% cell
pe = torch.zeros(max_seq_len, d_model)
for pos in range(max_seq_len):  # expect: AIP201
    for i in range(0, d_model, 2):  # expect: AIP201
        pe[pos, i] = math.sin(pos / (10000 ** ((2 * i) / d_model)))  # expect: AIP201
        pe[pos, i + 1] = math.cos(pos / (10000 ** ((2 * (i + 1)) / d_model)))  # expect: AIP201
pe = pe.unsqueeze(0)
