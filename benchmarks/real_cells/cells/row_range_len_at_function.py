# ruff: noqa
"""A function that loops over range(len(frame)) reading two cells per row with .at, then is called.

source: pandas course exercises on fast scalar access (.at is the "fast" accessor they teach,
        inside a helper that totals an order table)
family: row-loop
kind: slow
verdict: AIP907
rewrite: yes: (frame["price"] * frame["qty"]).sum()
size: 25,000 order lines
scaled: no
kernel: data
"""
# %% setup
import pandas as pd
from cell_data import sales

orders = sales(25_000, seed=13)
# %% cell
def weighted_total(frame):
    total = 0.0
    for i in range(len(frame)):  # expect: AIP301
        total += frame.at[i, "price"] * frame.at[i, "qty"]  # expect: AIP301
    return total


revenue = weighted_total(orders)
