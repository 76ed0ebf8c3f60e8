# ruff: noqa
"""An exponential moving average of minute closes written as a Python loop: each value from the one before.

source: technical-analysis tutorials and trading notebooks that compute an EMA (and MACD from two
        of them) by hand: ema[0] = close[0]; for i in range(1, len(close)): ema[i] = alpha * close[i]
        + (1 - alpha) * ema[i - 1], before Series.ewm(span=..., adjust=False).mean()
family: numeric-loop
kind: slow
verdict: AIP907
rewrite: yes: pd.Series(close).ewm(alpha=alpha, adjust=False).mean().to_numpy() (the same values to float rounding)
size: 490,000 minute bars (five years of one stock's trading minutes)
scaled: no
kernel: data
"""
# %% setup
import numpy as np
import pandas as pd

rng = np.random.default_rng(206)
close = 100 * np.exp(np.cumsum(rng.normal(0, 0.0005, 490_000)))
span = 26
alpha = 2 / (span + 1)
# %% cell
ema = np.empty_like(close)
ema[0] = close[0]
for i in range(1, len(close)):  # expect: *
    ema[i] = alpha * close[i] + (1 - alpha) * ema[i - 1]  # expect: *
signal = close > ema
