# ruff: noqa
"""arr = np.append(arr, x) once per reading: every append copies the whole array so far.

source: sensor and simulation notebooks that grow a NumPy array in a loop (the pattern NumPy's
        own np.append documentation warns about)
family: growing
kind: slow
verdict: AIP907
rewrite: yes: collect in a list (or compute np.asarray(readings) * 0.5)
size: 50,000 readings
scaled: no
kernel: data
"""
# %% setup
import numpy as np
from cell_data import rng

readings = [float(v) for v in rng(61).normal(20, 2, 50_000)]
# %% cell
arr = np.array([])
for x in readings:
    arr = np.append(arr, x * 0.5)  # expect: AIP203
