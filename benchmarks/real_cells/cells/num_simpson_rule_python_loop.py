# ruff: noqa
"""A definite integral by the composite Simpson rule, the function evaluated point by point in a Python loop.

source: numerical-methods course notebooks (numerical integration chapters: def simpson(f, a, b,
        n): h = (b - a) / n; s = f(a) + f(b); for i in range(1, n): s += (4 if i % 2 else 2) *
        f(a + i * h); return s * h / 3), with math functions in the integrand and n raised until
        the result stops changing
family: numeric-loop
kind: slow
verdict: AIP907
rewrite: yes: x = np.linspace(a, b, n + 1); weights 1, 4, 2, ..., 4, 1 as an array; h / 3 * np.dot(weights, np.exp(-x**2) * np.cos(3 * x)) (the same value to float rounding)
size: three integrals of 200,000, 400,000 and 800,000 intervals
scaled: no
kernel: data
"""
# %% setup
import math


def f(x):
    return math.exp(-x * x) * math.cos(3 * x)
# %% cell
def simpson(f, a, b, n):
    h = (b - a) / n
    s = f(a) + f(b)
    for i in range(1, n):  # expect: AIP201
        s += (4 if i % 2 else 2) * f(a + i * h)  # expect: AIP201
    return s * h / 3


estimates = [simpson(f, -4.0, 4.0, n) for n in (200_000, 400_000, 800_000)]  # expect: AIP201
change = abs(estimates[-1] - estimates[-2])
