# ruff: noqa
"""Random walks of +1/-1 steps drawn one at a time with the random module, then the first crossing of +/-10.

source: Python for Data Analysis (wesm/pydata-book), chapter 4 "Example: Random Walks": the pure
        Python walk (random.randint per step, position += step, walk.append) before the NumPy
        version and "Simulating Many Random Walks at Once"
family: numeric-loop
kind: slow
verdict: AIP907
rewrite: yes: np.where(rng.integers(0, 2, (nwalks, nsteps)) > 0, 1, -1).cumsum(1) (other random draws: equal in distribution, not in values)
size: 1,000 walks of 1,000 steps
scaled: yes: the book's Python walk is one walk of 1,000 steps; its NumPy version runs 5,000 walks
kernel: data
"""
# %% setup
import random

random.seed(103)
nwalks, nsteps = 1_000, 1_000
# %% cell
walks = []
for _ in range(nwalks):  # expect: AIP201
    position = 0
    walk = [position]
    for i in range(nsteps):  # expect: AIP201
        step = 1 if random.randint(0, 1) else -1  # expect: AIP201
        position += step  # expect: AIP201
        walk.append(position)  # expect: AIP201
    walks.append(walk)
crossing = [next((i for i, p in enumerate(w) if abs(p) >= 10), None) for w in walks]
