# ruff: noqa
"""All the tokens of a corpus flattened with sum(list_of_lists, []): every step copies everything so far.

source: NLP preprocessing notebooks that tokenize each document, then flatten the token lists
        for a vocabulary or a frequency plot with all_tokens = sum(tokenized, []) (the well-known
        "flatten a list of lists" idiom whose answers warn that it is quadratic)
family: growing
kind: slow
verdict: AIP907
rewrite: yes: list(itertools.chain.from_iterable(tokenized)), or a comprehension over both levels
size: 4,000 reviews of 30 tokens
scaled: no
kernel: data
"""
# %% setup
from collections import Counter

from cell_data import reviews

tokenized = [text.split() for text in reviews(4_000, seed=111)]
# %% cell
all_tokens = sum(tokenized, [])  # expect: *
top = Counter(all_tokens).most_common(20)
