# ruff: noqa
"""The sieve of Eratosthenes on a NumPy boolean array, its multiples crossed out one element at a time in a Python loop.

source: Project Euler write-ups and "primes in Python" tutorials that keep the sieve in a NumPy
        array of booleans but cross out with an inner loop (for multiple in range(p * p, limit +
        1, p): is_prime[multiple] = False), before the slice assignment is_prime[p * p::p] = False
family: numeric-loop
kind: slow
verdict: AIP907
rewrite: yes: is_prime[p * p::p] = False in place of the inner loop (the same array)
size: primes up to 2,000,000 (about 4,800,000 crossings out)
scaled: no
kernel: data
"""
# %% setup
import numpy as np

limit = 2_000_000
# %% cell
is_prime = np.ones(limit + 1, dtype=bool)
is_prime[:2] = False
for p in range(2, int(limit ** 0.5) + 1):
    if is_prime[p]:
        for multiple in range(p * p, limit + 1, p):  # expect: AIP201
            is_prime[multiple] = False  # expect: AIP201
primes = np.flatnonzero(is_prime)
twin_pairs = int(np.sum(np.diff(primes) == 2))
