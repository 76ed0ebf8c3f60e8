# ruff: noqa
"""Lag and rolling features per store for a sales forecast: a loop over seven lags, each a grouped shift.

source: time-series forecasting notebooks of the Kaggle Rossmann, Favorita and M5 competitions
        (for lag in [1, 2, 3, 7, 14, 28]: df[f"lag_{lag}"] = df.groupby("store")["sales"].shift(lag);
        then a grouped rolling mean), the feature engineering those notebooks share
family: row-loop
kind: healthy
verdict: AIP907|none
rewrite: no: the loop runs seven times; each step is one grouped shift over all rows in pandas' C code
size: 1,115 stores x 900 days (1,003,500 rows), 7 lags
scaled: no
kernel: data
"""
# %% setup
import numpy as np
import pandas as pd

rng = np.random.default_rng(219)
stores, days = 1_115, 900
sales = pd.DataFrame({
    "store": np.repeat(np.arange(stores), days),
    "date": np.tile(pd.date_range("2013-01-01", periods=days), stores),
    "sales": rng.poisson(5_000, stores * days).astype(float),
})
# %% cell
for lag in [1, 2, 3, 7, 14, 28, 35]:
    sales[f"lag_{lag}"] = sales.groupby("store")["sales"].shift(lag)
sales["rolling_mean_7"] = sales.groupby("store")["lag_1"].transform(lambda s: s.rolling(7).mean())
train = sales.dropna()  # ok: AIP303
