# ruff: noqa
"""Predictions of a model gathered batch by batch with np.concatenate onto the array so far.

source: scikit-learn and Keras notebooks that predict a large file in chunks (preds =
        np.concatenate([preds, model.predict(X[i:i + batch])]) in a loop), here with a linear
        model's decision function on the chunk
family: growing
kind: slow
verdict: AIP907
rewrite: yes: collect the chunks in a list, then one np.concatenate
size: 1,500,000 rows of 16 features in chunks of 1,000
scaled: no
kernel: data
"""
# %% setup
import numpy as np

rng = np.random.default_rng(600)
X = rng.normal(size=(1_500_000, 16))
coef = rng.normal(size=16)


def predict(chunk):
    return (chunk @ coef > 0).astype(np.float64)
# %% cell
preds = np.array([])
for start in range(0, len(X), 1000):
    preds = np.concatenate([preds, predict(X[start:start + 1000])])  # expect: AIP203
preds.mean()
