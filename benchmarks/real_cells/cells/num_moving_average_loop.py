# ruff: noqa
"""A simple moving average computed by slicing and .mean() at every day, in a helper.

source: finance tutorials that compute an SMA by hand before introducing rolling() (a helper from
        an earlier cell called on years of daily closes)
family: numeric-loop
kind: slow
verdict: AIP907
rewrite: yes: np.convolve or a cumulative-sum difference (or pandas rolling)
size: 100,000 closes, window 50
scaled: no
kernel: data
unsure: the loop body calls a whole-array method (a slice's mean); AIP201 is the closest code
"""
# %% setup
import numpy as np
from cell_data import rng

close = 100 + rng(33).normal(0, 1, 100_000).cumsum()


def moving_average(prices, window):
    ma = np.full(len(prices), np.nan)
    for i in range(window, len(prices)):
        ma[i] = prices[i - window:i].mean()
    return ma
# %% cell
ma50 = moving_average(close, 50)  # expect: AIP201
