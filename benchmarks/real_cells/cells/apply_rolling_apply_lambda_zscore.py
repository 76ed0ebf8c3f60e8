# ruff: noqa
"""A rolling z-score with Series.rolling(20).apply(lambda w: ...): every window handed to Python as a Series.

source: technical-analysis and anomaly-detection notebooks (mean-reversion signals: df["zscore"] =
        df["close"].rolling(window).apply(lambda w: (w.iloc[-1] - w.mean()) / w.std())), before
        the same from rolling().mean() and rolling().std()
family: row-apply
kind: slow
verdict: AIP907
rewrite: yes: (close - close.rolling(20).mean()) / close.rolling(20).std() (the same values to float rounding)
size: 4,000 hourly closes (about six months of bars), window 20
scaled: no
kernel: data
unsure: no rule names rolling().apply; AIP302 (an apply of numbers-only work) is the closest, and any code on this line is accepted
"""
# %% setup
import numpy as np
import pandas as pd

rng = np.random.default_rng(314)
n = 4_000
bars = pd.DataFrame({"close": 100 * np.exp(np.cumsum(rng.normal(0, 0.004, n)))},
                    index=pd.date_range("2023-01-02", periods=n, freq="h"))
# %% cell
bars["zscore"] = bars["close"].rolling(20).apply(lambda w: (w.iloc[-1] - w.mean()) / w.std())  # expect: *
signal = np.where(bars["zscore"] > 2, -1, np.where(bars["zscore"] < -2, 1, 0))
