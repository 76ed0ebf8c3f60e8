# ruff: noqa
"""Python's builtin sum, min and max over a million-element ndarray.

source: Python Data Science Handbook (jakevdp/PythonDataScienceHandbook), notebook 02.04
        "Aggregations: Min, Max, and Everything in Between" (sum(big_array) against np.sum)
family: numeric-loop
kind: slow
verdict: AIP907|none
rewrite: yes: big_array.sum(), big_array.min(), big_array.max()
size: 1,000,000 float64 values
scaled: no
kernel: data
unsure: no rule names a builtin reduction over an array; AIP201 (element-wise work in the
        interpreter) is the closest code
"""
# %% setup
import numpy as np

rng = np.random.default_rng(37)
big_array = rng.random(1000000)
# %% cell
total = sum(big_array)  # expect: AIP201/sum
low, high = min(big_array), max(big_array)  # expect: AIP201/minmax
print(total, low, high)
