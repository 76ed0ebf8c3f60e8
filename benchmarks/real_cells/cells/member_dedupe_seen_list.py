# ruff: noqa
"""Unique customer ids kept in order with `if cid not in unique_ids: unique_ids.append(cid)`.

source: beginner notebooks removing duplicates by hand (the order-preserving "seen" list) before
        dict.fromkeys or drop_duplicates
family: membership
kind: slow
verdict: AIP907
rewrite: yes: list(dict.fromkeys(customer_ids))
size: 20,000 ids, about 4,000 distinct
scaled: no
kernel: data
"""
# %% setup
from cell_data import rng

customer_ids = [int(x) for x in rng(53).integers(100_000, 104_000, 20_000)]
# %% cell
unique_ids = []
for cid in customer_ids:
    if cid not in unique_ids:  # expect: AIP202
        unique_ids.append(cid)
