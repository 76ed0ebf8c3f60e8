# ruff: noqa
"""Missing numbers filled with each column's median, one column at a time in a loop.

source: Kaggle House Prices EDA notebooks (for col in numeric columns: all_data[col] =
        all_data[col].fillna(all_data[col].median())): the loop is over 36 columns, each step a
        whole-column operation
family: row-loop
kind: healthy
verdict: none|AIP907
rewrite: no: 36 vectorised steps (a fillna with a dict of medians is the same work)
size: 2,919 houses, 36 numeric columns
scaled: no
kernel: data
"""
# %% setup
import numpy as np
import pandas as pd

rng = np.random.default_rng(36)
all_data = pd.DataFrame(rng.normal(size=(2919, 36)), columns=[f"num{k}" for k in range(36)])
all_data = all_data.mask(rng.random(all_data.shape) < 0.05)
numeric_cols = list(all_data.columns)
# %% cell
for col in numeric_cols:
    all_data[col] = all_data[col].fillna(all_data[col].median())
all_data.isnull().sum().sum()
