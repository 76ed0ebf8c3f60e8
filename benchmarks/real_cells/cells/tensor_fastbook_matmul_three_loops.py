# ruff: noqa
"""A matrix product written as three Python loops over tensors, called on a few validation images.

source: fastai's fastbook, chapter 17 "A Neural Net from the Foundations" (def matmul(a, b): ar, ac =
        a.shape; br, bc = b.shape; c = torch.zeros(ar, bc); for i in range(ar): for j in range(bc):
        for k in range(ac): c[i, j] += a[i, k] * b[k, j]; then %time t1 = matmul(m1, m2) in the
        next cell, with m1 = x_valid[:5] and m2 = weights of 784 x 10)
family: tensor-loop
kind: slow
verdict: AIP907
rewrite: yes: m1 @ m2 (float32 sums in another order: equal within 1e-4, not bit for bit)
size: 5 x 784 images against 784 x 10 weights (39,200 scalar steps)
scaled: no
kernel: torch
"""
# %% setup
import torch

torch.manual_seed(120)
x_valid = torch.rand(10_000, 784)
weights = torch.randn(784, 10)


def matmul(a, b):
    ar, ac = a.shape
    br, bc = b.shape
    assert ac == br
    c = torch.zeros(ar, bc)
    for i in range(ar):
        for j in range(bc):
            for k in range(ac):
                c[i, j] += a[i, k] * b[k, j]
    return c


m1 = x_valid[:5]
m2 = weights
# %% cell
t1 = matmul(m1, m2)  # expect: AIP201
t1.shape
