# ruff: noqa
"""A vocabulary built as a list: each token is looked up in the list of words seen so far.

source: text-preprocessing notebooks and course exercises that build a vocabulary by hand
        (vocab = []; for word in tokens: if word not in vocab: vocab.append(word)), before
        mapping words to indices; here over the tokens of a few thousand short reviews
family: membership
kind: slow
verdict: AIP907
rewrite: yes: vocab = list(dict.fromkeys(tokens)) (or a set beside the list)
size: 150,000 tokens, about 3,300 distinct words
scaled: no
kernel: data
"""
# %% setup
from cell_data import words

tokens = words(150_000, seed=33)
# %% cell
vocab = []
for word in tokens:  # expect: AIP202
    if word not in vocab:  # expect: AIP202
        vocab.append(word)
len(vocab)
