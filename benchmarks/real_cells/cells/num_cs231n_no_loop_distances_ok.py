# ruff: noqa
"""All test-to-train distances of a k-NN classifier in one matrix product (the no-loop version).

source: Stanford CS231n assignment 1, knn.ipynb: compute_distances_no_loops on 500 test and
        5,000 training CIFAR-10 images flattened to 3,072 values, expanded as
        |x|^2 + |y|^2 - 2 x.y
family: numeric-loop
kind: healthy
verdict: none|AIP907|AIP908
rewrite: no: already one BLAS product
size: 500 x 3,072 test rows against 5,000 x 3,072 training rows (float64)
scaled: no
kernel: data
"""
# %% setup
import numpy as np

rng = np.random.default_rng(231)
X_train = rng.integers(0, 256, (5000, 3072)).astype(np.float64)
X_test = rng.integers(0, 256, (500, 3072)).astype(np.float64)
# %% cell
test_sq = np.sum(X_test ** 2, axis=1, keepdims=True)
train_sq = np.sum(X_train ** 2, axis=1)
dists = np.sqrt(np.maximum(test_sq + train_sq - 2 * X_test @ X_train.T, 0))
closest = np.argsort(dists, axis=1)[:, :1]
dists.shape
