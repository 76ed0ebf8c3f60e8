# ruff: noqa
"""Feature scaling "from scratch": a function whose loop bound is its parameter's length.

source: introductory machine-learning notebooks that implement z-score scaling by hand before
        showing StandardScaler (a helper from an earlier cell, called on an income column)
family: numeric-loop
kind: slow
verdict: AIP907
rewrite: yes: (x - mean) / std
size: 2,000,000 values
scaled: no
kernel: data
"""
# %% setup
import numpy as np
from cell_data import rng

incomes = rng(31).lognormal(10.5, 0.6, 2_000_000)


def standardize(x, mean, std):
    out = np.zeros_like(x)
    for i in range(len(x)):
        out[i] = (x[i] - mean) / std
    return out
# %% cell
z = standardize(incomes, incomes.mean(), incomes.std())  # expect: AIP201
