# ruff: noqa
"""A feature matrix grown with np.vstack, one featurised record per iteration.

source: classic machine-learning notebooks that featurise records one by one (X = np.vstack([X,
        row]) after each), before np.array(list_of_rows)
family: growing
kind: slow
verdict: AIP907
rewrite: yes: np.array([featurize(r) for r in raw_rows])
size: 6,000 records x 20 features
scaled: no
kernel: data
"""
# %% setup
import numpy as np
from cell_data import rng

raw_rows = [dict(zip("abcde", map(float, v))) for v in rng(63).normal(size=(6_000, 5))]


def featurize(row):
    base = np.array([row["a"], row["b"], row["c"], row["d"], row["e"]])
    return np.concatenate([base, base ** 2, np.abs(base), np.sign(base)])
# %% cell
X = np.empty((0, 20))
for row in raw_rows:
    X = np.vstack([X, featurize(row)])  # expect: AIP203
