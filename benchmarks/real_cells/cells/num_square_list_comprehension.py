# ruff: noqa
"""A list comprehension squaring a million numbers, timed against the NumPy expression.

source: the seed article, chapter 2.2 (py_list = list(range(1000000)); [x**2 for x in py_list]
        against np_array ** 2, each timed with time.time())
family: numeric-loop
kind: slow
verdict: AIP907|none
rewrite: yes: np.arange(1000000) ** 2 (the cell's own second half)
size: 1,000,000 integers
scaled: no
kernel: data
unsure: about 0.1 s in all; the slow half is the point of the demonstration
"""
# %% setup
import time

import numpy as np
# %% cell
py_list = list(range(1000000))
start = time.time()
squared_py = [x**2 for x in py_list]  # expect: AIP201
py_time = time.time() - start

np_array = np.arange(1000000)
start = time.time()
squared_np = np_array ** 2
np_time = time.time() - start
print(f"list: {py_time:.4f}s  NumPy: {np_time:.4f}s")
