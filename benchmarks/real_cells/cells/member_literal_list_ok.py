# ruff: noqa
"""Membership in a three-item list written in the code, for 300,000 animals.

source: data-cleaning notebooks grouping categories with `x in ["cat", "dog", "bird"]` (Python
        compiles the literal to a constant tuple: three comparisons at most)
family: membership
kind: healthy
verdict: none|AIP907
rewrite: no: three comparisons per item
size: 300,000 items
scaled: no
kernel: data
"""
# %% setup
from cell_data import rng

species = list(rng(58).choice(["cat", "dog", "bird", "fish", "horse", "rabbit"], 300_000))
# %% cell
is_pet = [s in ["cat", "dog", "bird"] for s in species]
sum(is_pet)
