# ruff: noqa
"""Five-minute realised volatility of a crypto price from one-second quotes with prices.resample("5min").apply(lambda x: np.sqrt((np.log(x).diff() ** 2).sum())): a Python call, a log and a diff per bar.

source: high-frequency finance notebooks (realised volatility from tick or second data, the Kaggle
        Optiver volatility competition's starter kernels and crypto market-microstructure
        notebooks: rv = df["price"].resample("5min").apply(realized_volatility) with a helper
        returning np.sqrt(np.sum(np.log(s).diff() ** 2))), then a daily volatility profile
family: row-apply
kind: slow
verdict: AIP907
rewrite: yes: r2 = np.log(prices).diff() ** 2 with each bar's first second set to 0 (r2[prices.index.floor("5min") == prices.index] = 0), then np.sqrt(r2.resample("5min").sum()): the same values, whole-column operations and one built-in reduction per bar
size: 20 days of one-second prices (1,728,000 quotes), 5,760 five-minute bars
scaled: no
kernel: data
"""
# %% setup
import numpy as np
import pandas as pd

rng = np.random.default_rng(603)
n = 20 * 86_400
hours = (np.arange(n) // 3600) % 24
sigma = 2e-4 * (1.0 + 0.8 * np.exp(-((hours - 15) ** 2) / 8.0))
log_price = np.log(42_000.0) + np.cumsum(rng.standard_normal(n) * sigma)
prices = pd.Series(np.exp(log_price).round(2), index=pd.date_range("2024-03-01", periods=n, freq="s"), name="price")
# %% cell
rv = prices.resample("5min").apply(lambda x: np.sqrt((np.log(x).diff() ** 2).sum()))  # expect: AIP302
profile = rv.groupby(rv.index.time).mean()
annualised = rv.mean() * np.sqrt(288 * 365)
