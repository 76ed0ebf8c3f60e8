# ruff: noqa
"""compute_reciprocals defined and called in the same cell, on a million values.

source: Python Data Science Handbook (jakevdp/PythonDataScienceHandbook), notebook 02.03, with the
        definition and the big_array call in one cell
family: numeric-loop
kind: slow
verdict: AIP907
rewrite: yes: 1.0 / values
size: 1,000,000 int64 values
scaled: no
kernel: data
"""
# %% setup
import numpy as np

rng = np.random.default_rng(seed=1701)
big_array = rng.integers(1, 100, size=1000000)
# %% cell
def compute_reciprocals(values):
    output = np.empty(len(values))
    for i in range(len(values)):  # expect: AIP201
        output[i] = 1.0 / values[i]  # expect: AIP201
    return output


result = compute_reciprocals(big_array)
