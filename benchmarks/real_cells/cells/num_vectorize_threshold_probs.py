# ruff: noqa
"""Predicted probabilities turned into class labels with np.vectorize of a Python lambda.

source: classification notebooks that threshold model scores with
        np.vectorize(lambda p: 1 if p >= 0.5 else 0)(probs) (NumPy's own documentation says
        vectorize "is provided primarily for convenience, not for performance: the implementation
        is essentially a for loop")
family: numeric-loop
kind: slow
verdict: AIP907
rewrite: yes: (probs >= 0.5).astype(int) (the same labels)
size: 3,000,000 scores
scaled: yes: a validation set of a large tabular competition, scored twice
kernel: data
"""
# %% setup
import numpy as np

probs = np.random.default_rng(124).random(3_000_000)
# %% cell
to_label = np.vectorize(lambda p: 1 if p >= 0.5 else 0)
labels = to_label(probs)  # expect: AIP201
positive_rate = labels.mean()
