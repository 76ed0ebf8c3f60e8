# ruff: noqa
"""GPS points geohashed in four chunks sent to threads with asyncio.gather(*(asyncio.to_thread(...))): a pure-Python bit-interleaving encoder, so the GIL runs one chunk at a time.

source: async data-pipeline notebooks and services that move "blocking" work off the event loop with
        asyncio.to_thread and gather the chunks, here a pure-Python geohash encoder (the
        python-geohash/pygeohash style: halve the longitude and latitude ranges in turn, five bits
        per base-32 character) applied to ride-hailing pickups
family: threads
kind: slow
verdict: AIP902|AIP907
rewrite: yes: the chunks in a process pool (loop.run_in_executor(ProcessPoolExecutor(), encode_chunk, chunk)) or the encoder vectorised over the arrays with NumPy bit operations: the same geohashes
size: 4 chunks of 30,000 points, precision 7
scaled: no
kernel: data
unsure: AIP401 names threads and ThreadPoolExecutor running a notebook function; here the threads come from
        asyncio.to_thread
"""
# %% setup
import asyncio
from collections import Counter

import numpy as np

rng = np.random.default_rng(528)
n = 120_000
lats = (40.75 + rng.normal(0, 0.05, n)).tolist()
lons = (-73.98 + rng.normal(0, 0.06, n)).tolist()
points = list(zip(lats, lons))
chunks = [points[i::4] for i in range(4)]
BASE32 = "0123456789bcdefghjkmnpqrstuvwxyz"


def geohash_encode(lat, lon, precision=7):
    lat_lo, lat_hi, lon_lo, lon_hi = -90.0, 90.0, -180.0, 180.0
    chars, bits, ch, even = [], 0, 0, True
    while len(chars) < precision:
        if even:
            mid = (lon_lo + lon_hi) / 2
            if lon > mid:
                ch, lon_lo = (ch << 1) | 1, mid
            else:
                ch, lon_hi = ch << 1, mid
        else:
            mid = (lat_lo + lat_hi) / 2
            if lat > mid:
                ch, lat_lo = (ch << 1) | 1, mid
            else:
                ch, lat_hi = ch << 1, mid
        even = not even
        bits += 1
        if bits == 5:
            chars.append(BASE32[ch])
            bits, ch = 0, 0
    return "".join(chars)
# %% cell
def encode_chunk(chunk):
    return [geohash_encode(lat, lon, precision=7) for lat, lon in chunk]  # expect: AIP401


parts = await asyncio.gather(*(asyncio.to_thread(encode_chunk, c) for c in chunks))  # expect: AIP401
busiest_cells = Counter(h for part in parts for h in part).most_common(10)
