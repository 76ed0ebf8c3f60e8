# ruff: noqa
"""Sharpe ratios of 2,500 stocks collected into an empty Series with sharpe[ticker] = ...: every new label enlarges the Series, which copies it and its index.

source: portfolio-analysis and quant-finance notebooks that score each ticker of a universe in a
        loop over the returns frame's columns (sharpe = pd.Series(dtype=float); for t in
        returns.columns: sharpe[t] = returns[t].mean() / returns[t].std() * np.sqrt(252)), then
        rank them and keep the best decile
family: growing
kind: slow
verdict: AIP907
rewrite: yes: sharpe = returns.mean() / returns.std() * np.sqrt(252) (the same values, one pass over the frame); or the loop's values kept in a dict and pd.Series(values) made once
size: 2,500 tickers x 1,260 trading days of returns
scaled: no
kernel: data
unsure: the enlargement (setting a new label on a Series) is most of the loop's time; the rest is pandas
        called per column (mean, std), which the same rewrite removes, so AIP301's "pandas called per
        item" is accepted beside AIP203's "grown inside a loop"
"""
# %% setup
import numpy as np
import pandas as pd

rng = np.random.default_rng(609)
n_tickers, n_days = 2_500, 1_260
tickers = [f"{chr(65 + i % 26)}{chr(65 + i // 26 % 26)}{chr(65 + i // 676)}X" for i in range(n_tickers)]
drift = rng.normal(3e-4, 4e-4, n_tickers)
vol = rng.uniform(0.008, 0.03, n_tickers)
returns = pd.DataFrame(drift + vol * rng.standard_normal((n_days, n_tickers)), columns=tickers,
                       index=pd.bdate_range("2019-01-02", periods=n_days))
# %% cell
sharpe = pd.Series(dtype=float)
for ticker in returns.columns:  # expect: AIP203|AIP301
    r = returns[ticker]
    sharpe[ticker] = r.mean() / r.std() * np.sqrt(252)  # expect: AIP203|AIP301
top_decile = sharpe.sort_values(ascending=False).head(len(sharpe) // 10)
