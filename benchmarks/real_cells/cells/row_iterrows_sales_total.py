# ruff: noqa
"""A revenue total accumulated row by row with iterrows over order lines.

source: the README's own example, in the shape pandas courses give it (a sales table with price and
        quantity, e.g. the monthly sales analysis exercise of KeithGalli/pandas, whose 12 months hold
        about 186,000 order lines)
family: row-loop
kind: slow
verdict: AIP907
rewrite: yes: (all_data["price"] * all_data["qty"]).sum()
size: 20,000 order lines
scaled: yes: 20,000 of the exercise's 186,000 lines
kernel: data
"""
# %% setup
import pandas as pd
from cell_data import sales

all_data = sales(20_000)
# %% cell
total = 0
for _, row in all_data.iterrows():  # expect: AIP301
    total += row["price"] * row["qty"]  # expect: AIP301
print(f"revenue: {total:,.2f}")
