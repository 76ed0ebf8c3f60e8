# ruff: noqa
"""The quadratic (logistic) map iterated two million times in a plain Python loop: each value needs the one before.

source: QuantEcon's "Numba" lecture (python-programming lectures: def qm(x0, n): x = np.empty(n+1);
        x[0] = x0; for t in range(n): x[t+1] = alpha * x[t] * (1 - x[t]); return x), timed in
        plain Python before @jit
family: numeric-loop
kind: healthy
verdict: AIP907|none
rewrite: no: each step depends nonlinearly on the previous value; no NumPy expression computes the orbit, only compiling the loop (Numba, as the lecture does) makes it faster
size: 2,000,000 steps
scaled: yes: the lecture times 10,000,000 steps under Numba and fewer in plain Python
kernel: data
"""
# %% setup
import numpy as np

alpha = 4.0


def qm(x0, n):
    x = np.empty(n + 1)
    x[0] = x0
    for t in range(n):
        x[t + 1] = alpha * x[t] * (1 - x[t])
    return x
# %% cell
x = qm(0.1, 2_000_000)
share_above_half = (x > 0.5).mean()
