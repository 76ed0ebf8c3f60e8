# ruff: noqa
"""A sales trend per store with groupby("store").apply(lambda g: np.polyfit(g["week"], g["units"], 1)[0]): twelve calls, each a least-squares fit on 40,000 rows.

source: retail forecasting and EDA notebooks that fit a straight line per group to rank stores
        by growth (slopes = df.groupby("store").apply(lambda g: np.polyfit(g["week"],
        g["units"], 1)[0]).sort_values()), on a few large groups
family: row-apply
kind: healthy
verdict: AIP907|AIP908|none
rewrite: no: the lambda runs once per store, twelve times, and each call is NumPy work on 40,000 rows; the Python per group is nothing next to the fits
size: 480,000 rows, 12 stores
scaled: no
kernel: data
"""
# %% setup
import numpy as np
import pandas as pd

rng = np.random.default_rng(503)
n_stores, per_store = 12, 40_000
store = np.repeat([f"store_{i:02d}" for i in range(n_stores)], per_store)
week = np.tile(np.arange(per_store) / 100.0, n_stores)
slope = np.repeat(rng.normal(0.05, 0.03, n_stores), per_store)
sales = pd.DataFrame({
    "store": store,
    "week": week,
    "units": (50 + slope * week * 100 + rng.normal(0, 8, n_stores * per_store)).round(1),
})
# %% cell
slopes = sales.groupby("store")[["week", "units"]].apply(lambda g: np.polyfit(g["week"], g["units"], 1)[0])
fastest_growing = slopes.sort_values(ascending=False).head(3)
