# ruff: noqa
"""A stop-word list of 179 words scanned for each of a million tokens in a list comprehension.

source: NLP preprocessing notebooks (stop_words = stopwords.words('english'), NLTK's 179-word
        list, then [w for w in tokens if w not in stop_words]); the issue measured this shape
family: membership
kind: slow
verdict: AIP907
rewrite: yes: stop_set = set(stop_words), then the same comprehension
size: 1,000,000 tokens, 179 stop words
scaled: no
kernel: data
"""
# %% setup
from cell_data import STOP_WORDS, words

stop_words = list(STOP_WORDS)
tokens = words(1_000_000)
# %% cell
filtered = [w for w in tokens if w not in stop_words]  # expect: AIP202
len(filtered)
