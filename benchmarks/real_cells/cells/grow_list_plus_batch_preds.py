# ruff: noqa
"""Predictions of many small batches collected with all_preds = all_preds + batch.tolist(): each step copies the whole list.

source: evaluation loops of course notebooks and Kaggle kernels (all_preds = all_preds +
        preds.tolist() per batch, instead of extend or one concatenate at the end)
family: growing
kind: slow
verdict: AIP907
rewrite: yes: all_preds.extend(...) in the loop, or (scores > 0.5).astype(int).tolist() at once (the same list)
size: 4,000 batches of 32 scores
scaled: no
kernel: data
"""
# %% setup
import numpy as np

scores = np.random.default_rng(131).random(128_000)
# %% cell
all_preds = []
for start in range(0, len(scores), 32):
    batch = scores[start:start + 32]
    all_preds = all_preds + (batch > 0.5).astype(int).tolist()  # expect: *
positive = sum(all_preds)
