# ruff: noqa
"""Daily returns of a stock computed row by row with .loc on this day and the day before.

source: stock-analysis notebooks and finance courses that write the return by hand before
        pct_change (for i in range(1, len(df)): df.loc[i, "Return"] = (df.loc[i, "Close"] -
        df.loc[i - 1, "Close"]) / df.loc[i - 1, "Close"])
family: row-loop
kind: slow
verdict: AIP907
rewrite: yes: prices["Close"].pct_change() (the same floats: one division of the same difference)
size: 6,000 trading days (about 24 years)
scaled: no
kernel: data
"""
# %% setup
import numpy as np
import pandas as pd

rng = np.random.default_rng(132)
days = pd.bdate_range("2000-01-03", periods=6_000)
prices = pd.DataFrame({"Date": days, "Close": (100 * np.exp(np.cumsum(rng.normal(0, 0.01, 6_000)))).round(2)})
# %% cell
prices["Return"] = np.nan
for i in range(1, len(prices)):  # expect: AIP301
    prices.loc[i, "Return"] = (prices.loc[i, "Close"] - prices.loc[i - 1, "Close"]) / prices.loc[i - 1, "Close"]  # expect: AIP301
volatility = prices["Return"].std() * np.sqrt(252)
