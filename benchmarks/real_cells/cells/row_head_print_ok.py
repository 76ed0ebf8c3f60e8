# ruff: noqa
"""A loop over df.head(10) that prints rows for a person to read, then describe().

source: pandas tutorials that show iterrows on the first rows (jvns/pandas-cookbook and
        justmarkham/pandas-videos print a handful of rows this way)
family: row-loop
kind: healthy
verdict: none|AIP907
rewrite: no: ten printed rows
size: 200,000 order lines, 10 of them looped over
scaled: no
kernel: data
"""
# %% setup
import pandas as pd
from cell_data import sales

all_data = sales(200_000, seed=17)
# %% cell
for _, row in all_data.head(10).iterrows():
    print(row["order_id"], row["product"], row["price"])
all_data.describe()
