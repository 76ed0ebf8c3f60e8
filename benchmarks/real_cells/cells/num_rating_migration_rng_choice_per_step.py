# ruff: noqa
"""Credit-rating migration simulated obligor by obligor over ten years: a Python loop over paths and years, each step one rng.choice(8, p=P[state]) on a row of the annual transition matrix.

source: credit-risk and quantitative-finance notebooks (CreditMetrics-style Monte Carlo of rating
        transitions from an S&P or Moody's one-year matrix: for p in range(n_paths): s = start[p];
        for year in range(horizon): s = np.random.choice(8, p=P[s]); paths[p, year + 1] = s), to
        estimate cumulative default probabilities
family: numeric-loop
kind: slow
verdict: AIP907
rewrite: yes: all paths stepped together, year by year: u = rng.random(n_paths); states = (u[:, None] > P.cumsum(axis=1)[states]).sum(axis=1) (the same Markov chain and the same default probabilities in distribution; other random draws, so not the same paths)
size: 4,000 obligors, 10 years, 8 rating states (40,000 draws)
scaled: no
kernel: data
unsure: the years carry the state from one step to the next (a Markov chain), so only the loop over paths vectorises; the cost is a NumPy call (rng.choice and its checks of p) per draw, which no rule of the catalog names exactly: any code on these lines is accepted
"""
# %% setup
import numpy as np

ratings = ["AAA", "AA", "A", "BBB", "BB", "B", "CCC", "D"]
P = np.array([
    [0.9081, 0.0833, 0.0068, 0.0006, 0.0012, 0.0000, 0.0000, 0.0000],
    [0.0070, 0.9065, 0.0779, 0.0064, 0.0006, 0.0014, 0.0002, 0.0000],
    [0.0009, 0.0227, 0.9105, 0.0552, 0.0074, 0.0026, 0.0001, 0.0006],
    [0.0002, 0.0033, 0.0595, 0.8693, 0.0530, 0.0117, 0.0012, 0.0018],
    [0.0003, 0.0014, 0.0067, 0.0773, 0.8053, 0.0884, 0.0100, 0.0106],
    [0.0000, 0.0011, 0.0024, 0.0043, 0.0648, 0.8346, 0.0407, 0.0521],
    [0.0022, 0.0000, 0.0022, 0.0130, 0.0238, 0.1124, 0.6486, 0.1978],
    [0.0000, 0.0000, 0.0000, 0.0000, 0.0000, 0.0000, 0.0000, 1.0000],
])
P = P / P.sum(axis=1, keepdims=True)
n_paths, horizon, n_states = 4_000, 10, len(ratings)
start_rating = np.random.default_rng(715).choice(7, n_paths, p=[0.02, 0.08, 0.2, 0.3, 0.2, 0.15, 0.05])
# %% cell
rng = np.random.default_rng(716)
paths = np.zeros((n_paths, horizon + 1), dtype=int)
for p in range(n_paths):  # expect: *
    state = start_rating[p]
    paths[p, 0] = state
    for year in range(1, horizon + 1):  # expect: *
        state = rng.choice(n_states, p=P[state])  # expect: *
        paths[p, year] = state
cumulative_pd = [(paths[start_rating == r, -1] == n_states - 1).mean() for r in range(7)]
