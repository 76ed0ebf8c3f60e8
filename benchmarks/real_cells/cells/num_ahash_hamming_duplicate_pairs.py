# ruff: noqa
"""Near-duplicate photos found by average hash: the 64-bit hashes are computed with NumPy, then every pair's Hamming distance is taken as bin(h[i] ^ h[j]).count("1") in two Python loops.

source: image-deduplication notebooks and blog tutorials (perceptual "aHash": shrink to 8 x 8,
        compare with the mean, pack the 64 bits into an int; then for i in range(n): for j in
        range(i + 1, n): if bin(hashes[i] ^ hashes[j]).count("1") <= 5: duplicates.append((i, j))),
        on a folder of product photos with resized and re-encoded copies
family: numeric-loop
kind: slow
verdict: AIP907
rewrite: yes: h = np.array(hashes, dtype=np.uint64); dist = np.bitwise_count(h[:, None] ^ h[None, :]); i, j = np.nonzero(np.triu(dist <= 5, k=1)) (the same pairs, NumPy 2's popcount on the whole matrix)
size: 1,800 photos (1,619,100 pairs)
scaled: no
kernel: data
"""
# %% setup
import numpy as np

rng = np.random.default_rng(611)
n_photos = 1_800
originals = rng.random((1_500, 64, 64)).astype(np.float32)
copies = originals[rng.integers(0, 1_500, n_photos - 1_500)] + rng.normal(0, 0.03, (n_photos - 1_500, 64, 64)).astype(np.float32)
photos = np.concatenate([originals, copies])
small = photos.reshape(n_photos, 8, 8, 8, 8).mean(axis=(2, 4))
bits = (small > small.mean(axis=(1, 2), keepdims=True)).reshape(n_photos, 64)
hashes = [int("".join("1" if b else "0" for b in row), 2) for row in bits]
# %% cell
duplicates = []
n = len(hashes)
for i in range(n):
    for j in range(i + 1, n):  # expect: AIP201
        if bin(hashes[i] ^ hashes[j]).count("1") <= 5:  # expect: AIP201
            duplicates.append((i, j))
groups = {}
for i, j in duplicates:
    groups.setdefault(i, []).append(j)
