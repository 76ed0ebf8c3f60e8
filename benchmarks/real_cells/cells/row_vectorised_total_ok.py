# ruff: noqa
"""The column expression and a groupby that replace a row loop, on two million order lines.

source: the "use instead" of pandas courses (KeithGalli/pandas sales analysis: a Sales column from
        price times quantity, then sales by city)
family: row-loop
kind: healthy
verdict: AIP907|none
rewrite: no: already vectorised
size: 2,000,000 order lines
scaled: no
kernel: data
"""
# %% setup
import pandas as pd
from cell_data import sales

all_data = sales(2_000_000, seed=16)
# %% cell
all_data["amount"] = all_data["price"] * all_data["qty"]  # ok: AIP303
by_city = all_data.groupby("city")["amount"].sum().sort_values(ascending=False)
by_city
