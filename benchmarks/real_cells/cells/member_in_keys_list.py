# ruff: noqa
"""Counting known words with `if word in list(vocab.keys())`, the list rebuilt for every word.

source: beginner NLP notebooks counting vocabulary hits (list(dict.keys()) in the condition, a
        habit carried over from Python 2's keys())
family: membership
kind: slow
verdict: AIP907
rewrite: yes: `if word in vocab` (a dict lookup)
size: 20,000 tokens, 3,000 vocabulary entries
scaled: no
kernel: data
"""
# %% setup
from collections import Counter

from cell_data import words

tokens = words(20_000, seed=54)
vocab = dict(Counter(words(100_000, seed=55)).most_common(3000))
# %% cell
counts = {}
for word in tokens:
    if word in list(vocab.keys()):  # expect: AIP202
        counts[word] = counts.get(word, 0) + 1
