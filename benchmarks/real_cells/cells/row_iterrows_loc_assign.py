# ruff: noqa
"""iterrows over a frame, writing a new column one cell at a time with .loc.

source: the seed article, chapter 2.4 (the "inefficient way" it warns against: iterrows plus
        df.loc[index, 'new_col'] = row['A'] * 2)
family: row-loop
kind: slow
verdict: AIP907
rewrite: yes: df["new_col"] = df["A"] * 2
size: 4,000 rows x 2 columns
scaled: yes: the article speaks of millions of rows; 4,000 keep the cell near half a second
kernel: data
"""
# %% setup
import numpy as np
import pandas as pd
from cell_data import rng

r = rng(0)
df = pd.DataFrame({"A": r.normal(size=4000), "B": r.integers(0, 100, 4000)})
# %% cell
for index, row in df.iterrows():  # expect: AIP301
    df.loc[index, "new_col"] = row["A"] * 2  # expect: AIP301
