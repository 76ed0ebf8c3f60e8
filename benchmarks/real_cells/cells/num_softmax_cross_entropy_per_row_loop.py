# ruff: noqa
"""Softmax probabilities and the cross-entropy of a classifier's logits computed one example at a time: a Python loop over the rows calls NumPy on ten values each time.

source: neural-network-from-scratch notebooks and course assignments whose first softmax is written
        for one example (z = scores - scores.max(); p = np.exp(z) / np.exp(z).sum(); loss +=
        -np.log(p[y])) and then run over the batch in a for loop over range(num_train)
family: numeric-loop
kind: slow
verdict: AIP907
rewrite: yes: z = logits - logits.max(axis=1, keepdims=True); e = np.exp(z); probs = e / e.sum(axis=1, keepdims=True); loss = -np.log(probs[np.arange(n), labels]).mean() (the same values)
size: 120,000 examples of 10 classes
scaled: no
kernel: data
"""
# %% setup
import numpy as np

rng = np.random.default_rng(511)
n, n_classes = 120_000, 10
labels = rng.integers(0, n_classes, n)
logits = rng.normal(0, 1.5, (n, n_classes))
logits[np.arange(n), labels] += 2.0
# %% cell
probs = np.empty_like(logits)
loss = 0.0
for i in range(n):  # expect: AIP201
    z = logits[i] - logits[i].max()  # expect: AIP201
    e = np.exp(z)  # expect: AIP201
    probs[i] = e / e.sum()  # expect: AIP201
    loss += -np.log(probs[i, labels[i]])  # expect: AIP201
loss /= n
accuracy = (probs.argmax(axis=1) == labels).mean()
