# ruff: noqa
"""An American put priced on a Cox-Ross-Rubinstein binomial tree by backward induction written as two nested Python loops: every node's continuation value and early-exercise check one at a time.

source: derivatives-pricing notebooks and computational-finance course material (the CRR tree:
        terminal payoffs, then for i in range(N - 1, -1, -1): for j in range(i + 1): V[j] =
        max(disc * (p * V[j + 1] + (1 - p) * V[j]), K - S0 * u ** j * d ** (i - j))), priced for
        a few strikes to compare with the European value
family: numeric-loop
kind: slow
verdict: AIP907
rewrite: yes: keep the loop over time steps and make each step one array operation (with nodes = np.arange(N + 1): V = np.maximum(disc * (p * V[1:i + 2] + (1 - p) * V[:i + 1]), K - S0 * u ** nodes[:i + 1] * d ** (i - nodes[:i + 1]))): the same prices
size: 3 strikes, 800 time steps (320,400 nodes each)
scaled: no
kernel: data
"""
# %% setup
import math

import numpy as np

S0, r, sigma, T = 100.0, 0.04, 0.25, 1.0
N = 800
dt = T / N
u = math.exp(sigma * math.sqrt(dt))
d = 1.0 / u
p = (math.exp(r * dt) - d) / (u - d)
disc = math.exp(-r * dt)
strikes = [90.0, 100.0, 110.0]
# %% cell
prices = {}
for K in strikes:
    j = np.arange(N + 1)
    V = np.maximum(K - S0 * u ** j * d ** (N - j), 0.0)
    for i in range(N - 1, -1, -1):  # expect: AIP201
        for j in range(i + 1):  # expect: AIP201
            continuation = disc * (p * V[j + 1] + (1 - p) * V[j])  # expect: AIP201
            V[j] = max(continuation, K - S0 * u ** j * d ** (i - j))  # expect: AIP201
    prices[K] = V[0]
