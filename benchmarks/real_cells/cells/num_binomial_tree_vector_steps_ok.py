# ruff: noqa
"""American puts priced on a Cox-Ross-Rubinstein tree with the loop over time steps kept and each step one NumPy expression over the tree's nodes, for a chain of 12 strikes.

source: computational-finance notebooks that vectorise the binomial tree (V = np.maximum(disc * (p *
        V[1:] + (1 - p) * V[:-1]), K - S_t) at each step back from expiry), used to price an option
        chain and compare with the European values
family: numeric-loop
kind: healthy
verdict: AIP907|none
rewrite: no: the time steps are a recurrence (each needs the values of the next); inside a step nothing runs per node in Python
size: 12 strikes, 1,200 time steps each
scaled: no
kernel: data
"""
# %% setup
import math

import numpy as np

S0, r, sigma, T = 100.0, 0.04, 0.25, 1.0
N = 1_200
dt = T / N
u = math.exp(sigma * math.sqrt(dt))
d = 1.0 / u
p = (math.exp(r * dt) - d) / (u - d)
disc = math.exp(-r * dt)
strikes = np.linspace(80.0, 120.0, 12)
# %% cell
j = np.arange(N + 1)
american = {}
for K in strikes:
    V = np.maximum(K - S0 * u ** j * d ** (N - j), 0.0)
    for i in range(N - 1, -1, -1):
        S_i = S0 * u ** j[:i + 1] * d ** (i - j[:i + 1])
        V = np.maximum(disc * (p * V[1:i + 2] + (1 - p) * V[:i + 1]), K - S_i)
    american[K] = V[0]
