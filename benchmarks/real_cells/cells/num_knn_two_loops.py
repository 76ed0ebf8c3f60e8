# ruff: noqa
"""Pairwise L2 distances with two nested Python loops over test and train rows.

source: Stanford CS231n assignment 1, k_nearest_neighbor.py compute_distances_two_loops (5,000
        CIFAR-10 train images against 500 test images, 3,072 values each)
family: numeric-loop
kind: slow
verdict: AIP907|AIP908
rewrite: yes: the no-loop version with broadcasting and one matrix product
size: 500 train x 100 test rows of 3,072 values
scaled: yes: a tenth of the train side, a fifth of the test side (the original takes tens of seconds)
kernel: data
"""
# %% setup
import numpy as np
from cell_data import rng

r = rng(32)
X_train = r.random((500, 3072))
X_test = r.random((100, 3072))
# %% cell
def compute_distances_two_loops(X, X_train):
    num_test, num_train = X.shape[0], X_train.shape[0]
    dists = np.zeros((num_test, num_train))
    for i in range(num_test):  # expect: AIP201
        for j in range(num_train):  # expect: AIP201
            dists[i, j] = np.sqrt(np.sum((X[i] - X_train[j]) ** 2))  # expect: AIP201
    return dists


dists = compute_distances_two_loops(X_test, X_train)
