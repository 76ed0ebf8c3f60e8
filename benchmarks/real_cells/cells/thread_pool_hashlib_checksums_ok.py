# ruff: noqa
"""SHA-256 checksums of a folder of downloaded archives in a thread pool: hashlib lets the GIL go while it hashes.

source: dataset-preparation scripts and notebooks that verify downloads (def sha256_of(path):
        h = hashlib.sha256(); read the file in 1 MB blocks into h.update; with ThreadPoolExecutor()
        as pool: sums = dict(zip(paths, pool.map(sha256_of, paths)))), CPython's hashlib releasing
        the GIL for updates of more than 2 KB
family: threads
kind: healthy
verdict: AIP908|AIP907|AIP903|none
rewrite: no: the threads hash at once (the hashing runs without the GIL), and the files are read in blocks
size: 8 files of 24 MB, 4 threads
scaled: no
kernel: data
"""
# %% setup
import hashlib
import os
from concurrent.futures import ThreadPoolExecutor

from cell_data import temp_dir

folder = temp_dir()
paths = []
for i in range(8):
    path = folder / f"shard-{i:02d}.tar"
    path.write_bytes(os.urandom(24 * 1024 * 1024))
    paths.append(path)
# %% cell
def sha256_of(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


with ThreadPoolExecutor(max_workers=4) as pool:
    checksums = dict(zip(paths, pool.map(sha256_of, paths)))
