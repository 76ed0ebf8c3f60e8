# ruff: noqa
"""Universal functions on four million values: reciprocal, exponent, logarithm and an aggregate.

source: Python Data Science Handbook (jakevdp/PythonDataScienceHandbook), notebook 02.03
        "Universal Functions" (the vectorised side of compute_reciprocals, np.exp, np.log)
family: numeric-loop
kind: healthy
verdict: AIP907|none
rewrite: no: already vectorised
size: 4,000,000 float64 values
scaled: no
kernel: data
"""
# %% setup
import numpy as np

big_array = np.random.default_rng(36).integers(1, 100, size=4_000_000).astype(float)
# %% cell
reciprocals = 1.0 / big_array
logs = np.log(big_array)
exps = np.exp(-big_array / 100)
summary = (reciprocals.mean(), logs.max(), exps.sum())
