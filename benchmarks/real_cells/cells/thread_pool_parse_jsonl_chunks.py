# ruff: noqa
"""A day of JSON-lines events parsed "in parallel": the lines split into 8 chunks and each chunk's json.loads comprehension run in a ThreadPoolExecutor, where the threads take turns holding the GIL.

source: data-engineering scripts and notebooks that load log or event exports (for chunk in
        np.array_split(lines, 8) or slices: pool.map(parse_chunk, chunks) with def
        parse_chunk(lines): return [json.loads(l) for l in lines]; then pd.DataFrame of the
        flattened records), written with threads because the file was read from disk first
family: threads
kind: slow
verdict: AIP902|AIP907
rewrite: yes: the same comprehension without the pool (as fast, on one thread), or a process pool over the chunks (multiprocessing.Pool: the parsing runs on several cores; the records come back pickled); the same records in the same order
size: 240,000 event lines in 8 chunks, 8 threads
scaled: no
kernel: data
"""
# %% setup
import json
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pandas as pd

rng = np.random.default_rng(727)
n = 240_000
kinds = ["page_view", "click", "add_to_cart", "purchase", "search"]
lines = [json.dumps({"ts": 1_735_689_600 + int(t), "user": int(u), "event": kinds[k], "props": {"path": f"/p/{p}", "ms": int(m)}})
         for t, u, k, p, m in zip(np.sort(rng.integers(0, 86_400, n)), rng.integers(1, 50_000, n),
                                  rng.integers(0, 5, n), rng.integers(0, 900, n), rng.integers(5, 3_000, n))]
# %% cell
def parse_chunk(chunk):
    return [json.loads(line) for line in chunk]  # expect: AIP401


chunks = [lines[k:k + 30_000] for k in range(0, len(lines), 30_000)]
with ThreadPoolExecutor(max_workers=8) as pool:  # expect: AIP401
    parsed = [rec for part in pool.map(parse_chunk, chunks) for rec in part]  # expect: AIP401
events = pd.DataFrame({"ts": [r["ts"] for r in parsed], "user": [r["user"] for r in parsed],
                       "event": [r["event"] for r in parsed]})
