# ruff: noqa
"""A discrete Fourier transform written from its definition: two Python loops over frequencies and samples, cmath.exp at each step.

source: signal-processing tutorials and course notebooks that introduce the DFT before np.fft
        (def dft(x): for k in range(N): s = 0; for n in range(N): s += x[n] * exp(-2j * pi * k
        * n / N); X.append(s)), applied to a sampled tone with noise to find its frequency
family: numeric-loop
kind: slow
verdict: AIP907
rewrite: yes: X = np.fft.fft(signal) (the same coefficients up to rounding; an O(N log N) algorithm instead of N^2 Python steps)
size: 512 samples at 512 Hz (262,144 inner steps)
scaled: no
kernel: data
"""
# %% setup
import cmath

import numpy as np

rng = np.random.default_rng(403)
fs = 512
t = np.arange(fs) / fs
signal = np.sin(2 * np.pi * 50 * t) + 0.5 * np.sin(2 * np.pi * 120 * t) + rng.normal(0, 0.8, fs)
# %% cell
def dft(x):
    N = len(x)
    X = []
    for k in range(N):  # expect: AIP201
        s = 0j
        for n in range(N):  # expect: AIP201
            s += x[n] * cmath.exp(-2j * cmath.pi * k * n / N)  # expect: AIP201
        X.append(s)
    return X


X = dft(signal)  # expect: AIP201
N = len(X)
magnitude = [abs(c) / N for c in X[: N // 2]]
peak_hz = max(range(1, N // 2), key=lambda k: magnitude[k]) * fs / N
