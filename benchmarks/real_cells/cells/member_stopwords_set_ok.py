# ruff: noqa
"""The stop words as a set, then the same comprehension over a million tokens.

source: the NLP preprocessing notebooks' fixed version (set(stopwords.words('english')))
family: membership
kind: healthy
verdict: AIP907|none
rewrite: no: set lookups already
size: 1,000,000 tokens
scaled: no
kernel: data
"""
# %% setup
from cell_data import STOP_WORDS, words

tokens = words(1_000_000, seed=57)
# %% cell
stop_set = set(STOP_WORDS)
filtered = [w for w in tokens if w not in stop_set]
len(filtered)
