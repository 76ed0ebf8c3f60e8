# ruff: noqa
"""Word frequencies of a corpus with collections.Counter and most_common.

source: NLP preprocessing notebooks (Counter(tokens).most_common(20) after tokenising, to look
        at the most frequent words before building a vocabulary)
family: membership
kind: healthy
verdict: none|AIP907
rewrite: no: Counter counts in C, one dict update per token
size: 1,000,000 tokens
scaled: no
kernel: data
"""
# %% setup
from collections import Counter

from cell_data import words

tokens = words(1_000_000, seed=20)
# %% cell
counts = Counter(tokens)
top = counts.most_common(20)
top[:3]
