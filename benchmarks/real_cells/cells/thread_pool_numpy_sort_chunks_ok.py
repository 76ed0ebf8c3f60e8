# ruff: noqa
"""Large arrays sorted in a thread pool: NumPy's sort releases the GIL, so the threads run at once.

source: notebooks and blog posts on speeding up NumPy work with concurrent.futures threads
        (ThreadPoolExecutor(max_workers=4) mapping np.sort or np.fft over chunks; NumPy releases
        the GIL inside sorting, FFTs and BLAS calls)
family: threads
kind: healthy
verdict: AIP908|AIP907|none
rewrite: no: the threads already run the sorts in parallel, on every core the machine has
size: 8 arrays of 2,000,000 float64, 4 threads
scaled: no
kernel: data
"""
# %% setup
from concurrent.futures import ThreadPoolExecutor

import numpy as np

rng = np.random.default_rng(137)
chunks = [rng.random(2_000_000) for _ in range(8)]
# %% cell
with ThreadPoolExecutor(max_workers=4) as executor:
    sorted_chunks = list(executor.map(np.sort, chunks))
medians = [s[len(s) // 2] for s in sorted_chunks]
