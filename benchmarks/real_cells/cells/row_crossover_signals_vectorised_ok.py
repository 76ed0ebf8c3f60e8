# ruff: noqa
"""The moving-average crossover backtest written with columns: rolling means, np.where for the signal, ffill to hold the position, shift and cumprod for the equity curve, on three million one-minute bars.

source: algorithmic-trading tutorials' vectorised backtest (df["signal"] = np.where(df["SMA_fast"] >
        df["SMA_slow"], 1, 0); df["strategy"] = df["signal"].shift() * df["returns"];
        (1 + df["strategy"]).cumprod()), the form they recommend after the bar-by-bar loop
family: row-loop
kind: healthy
verdict: AIP907|none
rewrite: no: no Python per bar; each step is one pass over the columns
size: 3,000,000 one-minute bars
scaled: no
kernel: data
"""
# %% setup
import numpy as np
import pandas as pd

rng = np.random.default_rng(623)
n = 3_000_000
close = 180.0 * np.exp(np.cumsum(rng.normal(0, 6e-4, n)))
bars = pd.DataFrame({"close": close.round(2), "volume": rng.integers(100, 5_000, n)},
                    index=pd.date_range("2019-01-02 09:30", periods=n, freq="min"))
# %% cell
ret = bars["close"].pct_change().fillna(0.0)
fast = bars["close"].rolling(20, min_periods=1).mean()
slow = bars["close"].rolling(120, min_periods=1).mean()
signal = pd.Series(np.where(fast > slow, 1.0, np.where(fast < slow, 0.0, np.nan)), index=bars.index)
position = signal.ffill().fillna(0.0)
strategy = position.shift(fill_value=0.0) * ret
equity = (1 + strategy).cumprod()
trades = int(position.diff().abs().sum())
drawdown = (equity / equity.cummax() - 1).min()
