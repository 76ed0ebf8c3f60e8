# ruff: noqa
"""Five thousand random walks at once with NumPy: draws, steps, cumulative sums, first crossing of 30.

source: Python for Data Analysis (wesm/pydata-book), chapter 4 "Simulating Many Random Walks at
        Once" (draws = np.random.randint(0, 2, size=(nwalks, nsteps)); steps = np.where(draws >
        0, 1, -1); walks = steps.cumsum(1); hits30 = (np.abs(walks) >= 30).any(1); crossing
        times with argmax(1))
family: numeric-loop
kind: healthy
verdict: AIP907|none
rewrite: no: whole-array operations
size: 5,000 walks of 1,000 steps
scaled: no
kernel: data
"""
# %% setup
import numpy as np

rng = np.random.default_rng(114)
nwalks, nsteps = 5_000, 1_000
# %% cell
draws = rng.integers(0, 2, size=(nwalks, nsteps))
steps = np.where(draws > 0, 1, -1)
walks = steps.cumsum(1)
hits30 = (np.abs(walks) >= 30).any(1)
crossing_times = (np.abs(walks[hits30]) >= 30).argmax(1)
mean_crossing = crossing_times.mean()
