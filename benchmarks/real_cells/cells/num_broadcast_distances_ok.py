# ruff: noqa
"""Pairwise squared distances by broadcasting, then argsort for the nearest neighbours.

source: Python Data Science Handbook (jakevdp/PythonDataScienceHandbook), notebook 02.08 "Sorting
        Arrays" (k-nearest neighbours with X[:, np.newaxis, :] - X[np.newaxis, :, :])
family: numeric-loop
kind: healthy
verdict: AIP907|AIP908|none
rewrite: no: already vectorised
size: 1,500 points in 2-D
scaled: no: the handbook uses 10 points; 1,500 make the sort take a measurable time
kernel: data
"""
# %% setup
import numpy as np

rng = np.random.default_rng(seed=42)
X = rng.random((1500, 2))
# %% cell
dist_sq = np.sum((X[:, np.newaxis, :] - X[np.newaxis, :, :]) ** 2, axis=-1)
nearest = np.argsort(dist_sq, axis=1)
K = 2
nearest_partition = np.argpartition(dist_sq, K + 1, axis=1)
