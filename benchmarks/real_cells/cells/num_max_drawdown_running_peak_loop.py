# ruff: noqa
"""The maximum drawdown of a strategy's equity curve computed in a Python loop that carries the running peak from one value to the next.

source: backtesting and portfolio-analysis notebooks that compute drawdowns by hand (peak =
        equity[0]; for i, value in enumerate(equity): peak = max(peak, value); drawdown[i] =
        (value - peak) / peak), before np.maximum.accumulate or the cummax of pandas
family: numeric-loop
kind: slow
verdict: AIP907
rewrite: yes: peak = np.maximum.accumulate(equity); drawdown = (equity - peak) / peak; max_dd = drawdown.min() (the same values)
size: 1,000,000 equity values (ten years of minute bars)
scaled: no
kernel: data
unsure: the loop carries the running peak (a cumulative maximum, which NumPy has built in); AIP201
        leaves loops that carry a value alone, so any code on these lines is accepted
"""
# %% setup
import numpy as np

rng = np.random.default_rng(509)
equity = 10_000 * np.exp(np.cumsum(rng.normal(0.000002, 0.0006, 1_000_000)))
# %% cell
peak = equity[0]
max_dd = 0.0
drawdown = np.empty_like(equity)
for i, value in enumerate(equity):  # expect: *
    if value > peak:  # expect: *
        peak = value
    drawdown[i] = (value - peak) / peak  # expect: *
    max_dd = min(max_dd, drawdown[i])
underwater_share = (drawdown < -0.05).mean()
