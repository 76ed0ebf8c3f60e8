# ruff: noqa
"""A row function that assigns two fields to the row and returns it, applied with axis=1.

source: the issue's "a function that assigns to the row and returns it", a shape common in
        beginner notebooks adding several derived columns at once
family: row-apply
kind: slow
verdict: AIP907
rewrite: yes: two column assignments (a product, and np.where on qty)
size: 1,500 order lines
scaled: no
kernel: data
"""
# %% setup
import pandas as pd
from cell_data import sales

orders = sales(1_500, seed=23)
# %% cell
def fill_totals(row):
    row["total"] = row["price"] * row["qty"]
    row["discount"] = 0.1 if row["qty"] > 3 else 0.0
    return row


priced = orders.apply(fill_totals, axis=1)  # expect: AIP302
