# ruff: noqa
"""Embeddings written batch by batch into an array allocated once (out[start:stop] = ...): nothing is copied as it fills.

source: feature-extraction and inference notebooks that preallocate the output (features =
        np.empty((n, dim), dtype=np.float32); for start in range(0, n, batch_size):
        features[start:start + batch_size] = encode(X[start:start + batch_size])), the "use
        instead" of np.concatenate or np.vstack inside the loop
family: growing
kind: healthy
verdict: AIP907|AIP908|none
rewrite: no: the array is allocated once; each of the 50 steps is one matrix product on a batch
size: 100,000 rows of 256 features projected to 128, batches of 2,000
scaled: no
kernel: data
"""
# %% setup
import numpy as np

rng = np.random.default_rng(329)
X = rng.normal(size=(100_000, 256)).astype(np.float32)
W1 = (rng.normal(size=(256, 512)) / 16).astype(np.float32)
W2 = (rng.normal(size=(512, 128)) / 22).astype(np.float32)


def encode(batch):
    return np.tanh(np.maximum(batch @ W1, 0) @ W2)
# %% cell
batch_size = 2_000
features = np.empty((len(X), 128), dtype=np.float32)
for start in range(0, len(X), batch_size):
    features[start:start + batch_size] = encode(X[start:start + batch_size])
norms = np.linalg.norm(features, axis=1)
