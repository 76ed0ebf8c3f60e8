# ruff: noqa
"""A European call priced by Monte Carlo over geometric Brownian paths, fully vectorised with NumPy.

source: Yves Hilpisch, "Python for Finance" (yhilpisch/py4fi2nd), the Monte Carlo chapter's NumPy
        version (S = S0 * np.exp(np.cumsum((r - 0.5 * sigma ** 2) * dt + sigma * math.sqrt(dt) *
        np.random.standard_normal((M + 1, I)), axis=0)); S[0] = S0; C0 = math.exp(-r * T) *
        np.maximum(S[-1] - K, 0).mean()), after the pure Python loop it replaces
family: numeric-loop
kind: healthy
verdict: AIP907|none
rewrite: no: already whole-array NumPy; the time is the draws and exp of 12.75 million values
size: 250,000 paths of 50 steps
scaled: no
kernel: data
"""
# %% setup
import math

import numpy as np

S0, K, T, r, sigma = 100.0, 105.0, 1.0, 0.05, 0.2
M, I = 50, 250_000
dt = T / M
rng = np.random.default_rng(135)
# %% cell
S = S0 * np.exp(np.cumsum((r - 0.5 * sigma ** 2) * dt
                          + sigma * math.sqrt(dt) * rng.standard_normal((M + 1, I)), axis=0))
S[0] = S0
C0 = math.exp(-r * T) * np.maximum(S[-1] - K, 0).mean()
