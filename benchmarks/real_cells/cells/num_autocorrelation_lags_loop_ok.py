# ruff: noqa
"""A sample autocorrelation function by hand: one np.corrcoef per lag, 120 lags of a long series.

source: time-series course notebooks that compute the ACF before statsmodels' plot_acf (acf =
        [np.corrcoef(x[:-k], x[k:])[0, 1] for k in range(1, max_lag + 1)]), on minute-level
        sensor readings
family: numeric-loop
kind: healthy
verdict: AIP907|none
rewrite: no: 120 iterations, each a NumPy call over the whole series (an FFT would give every lag at once, but that is another algorithm, not a fix of this loop)
size: 300,000 readings, 120 lags
scaled: no
kernel: data
"""
# %% setup
import numpy as np

rng = np.random.default_rng(325)
n = 300_000
noise = rng.normal(size=n)
x = np.convolve(noise, np.ones(30) / 30, mode="same") + 0.2 * np.sin(np.arange(n) * 2 * np.pi / 1_440)
max_lag = 120
# %% cell
acf = [np.corrcoef(x[:-k], x[k:])[0, 1] for k in range(1, max_lag + 1)]
first_below = next((k for k, r in enumerate(acf, 1) if r < 0.2), None)
