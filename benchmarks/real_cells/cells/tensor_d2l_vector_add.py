# ruff: noqa
"""Adding two 10,000-element tensors one coordinate at a time in a for loop.

source: Dive into Deep Learning (d2l-ai/d2l-en), chapter_linear-regression/linear-regression.md,
        "Vectorization for Speed" (n = 10000; c[i] = a[i] + b[i], timed against a + b)
family: tensor-loop
kind: slow
verdict: AIP907|none
rewrite: yes: c = a + b
size: 10,000 elements
scaled: no
kernel: torch
unsure: about 0.1 s at the book's size, close to the verdict's minimum number of samples
"""
# %% setup
import time

import torch

n = 10000
a = torch.ones(n)
b = torch.ones(n)
# %% cell
c = torch.zeros(n)
t = time.time()
for i in range(n):  # expect: AIP201
    c[i] = a[i] + b[i]  # expect: AIP201
f'{time.time() - t:.5f} sec'
