# ruff: noqa
"""A Gaussian kernel density estimate by hand: for every grid point, a Python sum of math.exp over every sample.

source: statistics and visualisation tutorials that explain kernel density estimation before
        seaborn's kdeplot or scipy.stats.gaussian_kde (a gaussian_kernel(u) with math.exp, a
        kde(x, data, h) summing the kernel of (x - xi) / h over the data, then the density as
        [kde(x, data, h) for x in grid]), with Silverman's rule of thumb for the bandwidth
family: numeric-loop
kind: slow
verdict: AIP907
rewrite: yes: u = (grid[:, None] - data[None, :]) / h; density = np.exp(-0.5 * u ** 2).sum(axis=1) / (np.sqrt(2 * np.pi) * len(data) * h) (the same densities up to rounding)
size: 2,500 samples, 600 grid points (1,500,000 kernel evaluations)
scaled: no
kernel: data
"""
# %% setup
import math
import statistics

import numpy as np

rng = np.random.default_rng(402)
samples = np.concatenate([rng.normal(52, 6, 1_700), rng.normal(78, 9, 800)]).round(1).tolist()
# %% cell
def gaussian_kernel(u):
    return math.exp(-0.5 * u * u) / math.sqrt(2 * math.pi)  # expect: AIP201


def kde(x, data, h):
    return sum(gaussian_kernel((x - xi) / h) for xi in data) / (len(data) * h)  # expect: AIP201


h = 1.06 * statistics.stdev(samples) * len(samples) ** (-1 / 5)
lo, hi = min(samples) - 3 * h, max(samples) + 3 * h
grid = [lo + i * (hi - lo) / 599 for i in range(600)]
density = [kde(x, samples, h) for x in grid]  # expect: AIP201
mode = grid[density.index(max(density))]
