# ruff: noqa
"""A large CSV read in chunks of 200,000 rows with the three columns it needs, each chunk aggregated, the partial sums combined.

source: pandas' "Scaling to large datasets" guide and Kaggle notebooks for big competition files
        (for chunk in pd.read_csv(path, usecols=[...], chunksize=...): parts.append(
        chunk.groupby([...])["sales"].agg(["sum", "count"])); pd.concat(parts).groupby(level=[0,
        1]).sum()), on a store-item daily sales file
family: file-read
kind: healthy
verdict: AIP907|none
rewrite: no: a few chunks, each parsed and grouped in pandas' C code; the loop runs six times
size: 1,200,000 rows, 6 chunks
scaled: no
kernel: data
"""
# %% setup
import numpy as np
import pandas as pd
from cell_data import temp_dir

rng = np.random.default_rng(327)
n = 1_200_000
csv_path = temp_dir() / "train.csv"
pd.DataFrame({
    "date": np.repeat(pd.date_range("2013-01-01", periods=1_600).strftime("%Y-%m-%d"), n // 1_600),
    "store": rng.integers(1, 11, n),
    "item": rng.integers(1, 51, n),
    "sales": rng.poisson(50, n),
}).to_csv(csv_path, index=False)
# %% cell
parts = []
for chunk in pd.read_csv(csv_path, usecols=["store", "item", "sales"], chunksize=200_000):
    parts.append(chunk.groupby(["store", "item"])["sales"].agg(["sum", "count"]))
totals = pd.concat(parts).groupby(level=[0, 1]).sum()
totals["mean"] = totals["sum"] / totals["count"]
