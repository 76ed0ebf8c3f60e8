# ruff: noqa
"""The Game of Life on a NumPy board: neighbours as a sum of eight shifted slices, rules as masks.

source: Nicolas Rougier's "From Python to Numpy" (rougier/from-python-to-numpy), chapter "Code
        vectorization", the NumPy implementation (N = Z[:-2, :-2] + Z[:-2, 1:-1] + ...;
        birth and survive masks) run for many generations on a larger board
family: numeric-loop
kind: healthy
verdict: AIP907|none
rewrite: no: each generation is a dozen whole-array operations (the loop over generations is the recurrence itself)
size: a 512 x 512 board, 200 generations
scaled: no
kernel: data
"""
# %% setup
import numpy as np

Z = (np.random.default_rng(113).random((512, 512)) < 0.3).astype(np.int8)
Z[0, :] = Z[-1, :] = Z[:, 0] = Z[:, -1] = 0
# %% cell
for generation in range(200):
    N = (Z[0:-2, 0:-2] + Z[0:-2, 1:-1] + Z[0:-2, 2:] +
         Z[1:-1, 0:-2] + Z[1:-1, 2:] +
         Z[2:, 0:-2] + Z[2:, 1:-1] + Z[2:, 2:])
    birth = (N == 3) & (Z[1:-1, 1:-1] == 0)
    survive = ((N == 2) | (N == 3)) & (Z[1:-1, 1:-1] == 1)
    Z[...] = 0
    Z[1:-1, 1:-1][birth | survive] = 1
alive = int(Z.sum())
