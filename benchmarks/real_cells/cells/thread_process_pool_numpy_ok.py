# ruff: noqa
"""A process pool running NumPy work in worker processes, results gathered with map.

source: the seed article, chapter 3.2 (ProcessPoolExecutor(max_workers=4) over an infer function
        with np.sin(...).sum()), with each task drawing its own data so nothing large is pickled
family: threads
kind: healthy
verdict: AIP908|AIP907|AIP903|none
rewrite: no: already in processes
size: 8 tasks of 2,000,000 values, 2 workers
scaled: no
kernel: data
unsure: the parent process mostly waits while its workers compute: which verdict is the true one
        depends on whether a verdict counts the workers' cores (none that blames the cell is right)
"""
# %% setup
from concurrent.futures import ProcessPoolExecutor

import numpy as np


def infer(seed):
    data = np.random.default_rng(seed).random(2_000_000)
    return float(np.sin(data).sum())
# %% cell
with ProcessPoolExecutor(max_workers=2) as executor:
    results = list(executor.map(infer, range(8)))
