# ruff: noqa
"""Columns of numbers read as text converted with df[cols].apply(pd.to_numeric, errors="coerce"): apply runs once per column, not per row.

source: data-cleaning notebooks and the well-known answer for converting several object columns
        at once (df[cols] = df[cols].apply(pd.to_numeric, errors="coerce")), on an export whose
        numeric fields hold stray "n/a" and "-" strings
family: row-apply
kind: healthy
verdict: AIP907|none
rewrite: no: ten calls of pd.to_numeric, each over a whole column
size: 150,000 rows, 10 numeric columns stored as strings
scaled: no
kernel: data
"""
# %% setup
import numpy as np
import pandas as pd

rng = np.random.default_rng(326)
n = 150_000
num_cols = [f"reading_{j}" for j in range(10)]
raw = {}
for col in num_cols:
    values = rng.normal(50, 15, n).round(2).astype(str).astype(object)
    values[rng.random(n) < 0.02] = "n/a"
    values[rng.random(n) < 0.01] = "-"
    raw[col] = values
export = pd.DataFrame({"site": rng.choice(["north", "south", "east"], n), **raw})
# %% cell
export[num_cols] = export[num_cols].apply(pd.to_numeric, errors="coerce")  # ok: AIP303
missing_share = export[num_cols].isna().mean()
