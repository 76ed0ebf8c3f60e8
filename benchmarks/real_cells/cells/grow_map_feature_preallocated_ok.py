# ruff: noqa
"""Polynomial features of two inputs written into a matrix allocated once (out = np.empty((m, n_terms)); out[:, col] = x1 ** (i - j) * x2 ** j), then standardised: nothing is copied as it fills.

source: Python ports of the regularised logistic-regression exercise whose mapFeature fills a
        preallocated array column by column instead of growing it with np.hstack, here on a large
        sensor set
family: growing
kind: healthy
verdict: AIP907|none
rewrite: no: each of the 91 steps is one whole-column expression written in place
size: 100,000 samples, degree 12 (91 columns)
scaled: yes: the exercise maps 118 microchip tests to degree 6 (28 columns)
kernel: data
"""
# %% setup
import numpy as np

rng = np.random.default_rng(626)
m = 100_000
x1 = rng.uniform(-1.0, 1.2, m)
x2 = rng.uniform(-0.8, 1.1, m)
degree = 12
# %% cell
n_terms = (degree + 1) * (degree + 2) // 2
out = np.empty((m, n_terms))
out[:, 0] = 1.0
col = 1
for i in range(1, degree + 1):
    for j in range(i + 1):
        out[:, col] = x1 ** (i - j) * x2 ** j
        col += 1
mu, sd = out[:, 1:].mean(axis=0), out[:, 1:].std(axis=0)
out[:, 1:] -= mu
out[:, 1:] /= sd
