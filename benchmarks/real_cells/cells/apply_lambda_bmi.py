# ruff: noqa
"""A one-expression lambda applied row-wise (axis=1) to compute BMI.

source: pandas courses' apply lesson (justmarkham/pandas-videos, "apply a function to rows"), on a
        patients table
family: row-apply
kind: slow
verdict: AIP907
rewrite: yes: df["weight"] / (df["height"] / 100) ** 2
size: 60,000 rows
scaled: no
kernel: data
"""
# %% setup
import pandas as pd
from cell_data import rng

r = rng(21)
df = pd.DataFrame({"height": r.normal(170, 10, 60_000).round(1), "weight": r.normal(75, 14, 60_000).round(1)})
# %% cell
df["bmi"] = df.apply(lambda r: r["weight"] / (r["height"] / 100) ** 2, axis=1)  # expect: AIP302
