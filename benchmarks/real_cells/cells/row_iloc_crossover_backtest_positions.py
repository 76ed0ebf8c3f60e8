# ruff: noqa
"""A moving-average crossover strategy backtested bar by bar: a for loop over range(1, len(bars)) reads the two averages and the return with bars["col"].iloc[i], carries the position and books the profit.

source: algorithmic-trading tutorials and notebooks (a golden-cross / SMA crossover strategy on
        price bars: for i in range(1, len(df)): if df["SMA_fast"].iloc[i] > df["SMA_slow"].iloc[i]:
        position = 1 ... strategy_returns.append(position_prev * df["returns"].iloc[i])), before
        the np.where and shift form
family: row-loop
kind: slow
verdict: AIP907
rewrite: yes: signal = np.where(fast > slow, 1.0, np.where(fast < slow, 0.0, np.nan)); position = pd.Series(signal).ffill().fillna(0); strategy = position.shift() * bars["ret"] (the same positions and returns)
size: 25,000 one-minute bars (about 64 trading days)
scaled: no
kernel: data
"""
# %% setup
import numpy as np
import pandas as pd

rng = np.random.default_rng(605)
n = 25_000
close = 180.0 * np.exp(np.cumsum(rng.normal(0, 6e-4, n)))
bars = pd.DataFrame({
    "close": close.round(2),
    "volume": rng.integers(100, 5_000, n),
}, index=pd.date_range("2024-01-02 09:30", periods=n, freq="min"))
bars["ret"] = bars["close"].pct_change().fillna(0.0)
bars["sma_fast"] = bars["close"].rolling(20, min_periods=1).mean()
bars["sma_slow"] = bars["close"].rolling(120, min_periods=1).mean()
# %% cell
position = 0.0
positions, strategy = [0.0], [0.0]
for i in range(1, len(bars)):  # expect: AIP301
    fast, slow = bars["sma_fast"].iloc[i], bars["sma_slow"].iloc[i]  # expect: AIP301
    strategy.append(position * bars["ret"].iloc[i])  # expect: AIP301
    if fast > slow:
        position = 1.0
    elif fast < slow:
        position = 0.0
    positions.append(position)
bars["position"], bars["strategy"] = positions, strategy
equity = (1 + bars["strategy"]).cumprod()
trades = int((bars["position"].diff() != 0).sum())
