# ruff: noqa
"""The handbook's selection_sort on five numbers, next to np.sort on a million.

source: Python Data Science Handbook (jakevdp/PythonDataScienceHandbook), notebook 02.08 "Sorting
        Arrays" (selection_sort on np.array([2, 1, 4, 3, 5]))
family: numeric-loop
kind: healthy
verdict: none|AIP907
rewrite: no: five elements; the large sort is already NumPy's
size: 5 elements looped over; 1,000,000 sorted by NumPy
scaled: no
kernel: data
"""
# %% setup
import numpy as np

big = np.random.default_rng(35).random(1_000_000)
# %% cell
def selection_sort(x):
    for i in range(len(x)):
        swap = i + np.argmin(x[i:])
        (x[i], x[swap]) = (x[swap], x[i])
    return x


x = np.array([2, 1, 4, 3, 5])
selection_sort(x)
sorted_big = np.sort(big)
