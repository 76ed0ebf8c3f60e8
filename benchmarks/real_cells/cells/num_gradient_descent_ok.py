# ruff: noqa
"""Batch gradient descent for linear regression: a loop of vectorised steps, each needing the last.

source: introductory machine-learning notebooks (gradient descent from scratch on a design matrix,
        before scikit-learn's LinearRegression)
family: numeric-loop
kind: healthy
verdict: AIP907|AIP908|none
rewrite: no: each step needs the previous weights
size: 20,000 x 10 design matrix, 400 steps
scaled: no
kernel: data
"""
# %% setup
import numpy as np
from cell_data import rng

r = rng(34)
X = r.normal(size=(20_000, 10))
true_w = r.normal(size=10)
y = X @ true_w + r.normal(0, 0.1, 20_000)
# %% cell
w = np.zeros(10)
lr = 0.05
for step in range(400):
    grad = X.T @ (X @ w - y) / len(y)
    w -= lr * grad
mse = np.mean((X @ w - y) ** 2)
