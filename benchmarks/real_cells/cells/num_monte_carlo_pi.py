# ruff: noqa
"""Monte Carlo estimate of pi with random.random() in a Python loop inside a function.

source: a staple of scientific-Python courses (the Numba and Cython tutorials start from this
        loop; Software Carpentry uses it for profiling)
family: numeric-loop
kind: slow
verdict: AIP907
rewrite: yes: NumPy draws of n points and one comparison
size: 5,000,000 points
scaled: no
kernel: data
"""
# %% setup
import random

random.seed(0)
# %% cell
def estimate_pi(n):
    inside = 0
    for _ in range(n):  # expect: AIP201
        x, y = random.random(), random.random()  # expect: AIP201
        if x * x + y * y <= 1.0:  # expect: AIP201
            inside += 1  # expect: AIP201
    return 4.0 * inside / n


estimate_pi(5_000_000)
