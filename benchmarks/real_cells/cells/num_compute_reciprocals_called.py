# ruff: noqa
"""compute_reciprocals(big_array): a function from an earlier cell looping over a million values.

source: Python Data Science Handbook (jakevdp/PythonDataScienceHandbook), notebook 02.03
        "Computation on NumPy Arrays: Universal Functions": the function is defined in one cell and
        timed on big_array (1,000,000 integers) in a later one
family: numeric-loop
kind: slow
verdict: AIP907
rewrite: yes: 1.0 / big_array
size: 1,000,000 int64 values
scaled: no
kernel: data
"""
# %% setup
import numpy as np

rng = np.random.default_rng(seed=1701)


def compute_reciprocals(values):
    output = np.empty(len(values))
    for i in range(len(values)):
        output[i] = 1.0 / values[i]
    return output


big_array = rng.integers(1, 100, size=1000000)
# %% cell
result = compute_reciprocals(big_array)  # expect: AIP201
