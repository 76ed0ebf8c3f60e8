# ruff: noqa
"""Token ids from list.index and `in` against a 2,000-word vocabulary list.

source: bag-of-words notebooks that build vocab = [w for w, _ in counts.most_common(2000)] and
        encode with vocab.index(w) (the shape AIP202's documentation quotes)
family: membership
kind: slow
verdict: AIP907
rewrite: yes: a dict from word to position, built once
size: 50,000 tokens, 2,000 vocabulary words
scaled: no
kernel: data
"""
# %% setup
from collections import Counter

from cell_data import words

tokens = words(50_000, seed=51)
vocab = [w for w, _ in Counter(words(200_000, seed=52)).most_common(2000)]
# %% cell
ids = [vocab.index(w) if w in vocab else 0 for w in tokens]  # expect: AIP202
