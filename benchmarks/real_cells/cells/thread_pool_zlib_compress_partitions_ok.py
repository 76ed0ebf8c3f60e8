# ruff: noqa
"""Export partitions compressed with zlib in a thread pool before upload: zlib releases the GIL while it compresses, so the threads run on several cores.

source: data-engineering scripts that gzip or zlib-compress partition files before pushing them to
        object storage (with ThreadPoolExecutor(max_workers=os.cpu_count()) as pool: blobs =
        list(pool.map(lambda b: zlib.compress(b, 6), partitions))), the bytes already in memory
family: threads
kind: healthy
verdict: AIP908|AIP907|none
rewrite: no: zlib.compress runs without the GIL, so the threads overlap; processes would add pickling of the bytes
size: 8 partitions of about 1.6 MB of CSV-like text, level 6, one thread per core
scaled: no
kernel: data
"""
# %% setup
import os
import zlib
from concurrent.futures import ThreadPoolExecutor

import numpy as np

rng = np.random.default_rng(728)
partitions = []
for p in range(8):
    ids = rng.integers(0, 10_000_000, 100_000)
    vals = rng.normal(100, 15, 100_000).round(2)
    partitions.append("\n".join(f"{i},{v},ok" for i, v in zip(ids.tolist(), vals.tolist())).encode())
# %% cell
with ThreadPoolExecutor(max_workers=os.cpu_count()) as pool:
    blobs = list(pool.map(lambda b: zlib.compress(b, 6), partitions))
ratio = sum(map(len, partitions)) / sum(map(len, blobs))
