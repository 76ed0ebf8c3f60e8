# ruff: noqa
"""A linear system solved by Gaussian elimination written from the textbook: partial pivoting, then row operations one matrix element at a time in three nested loops.

source: numerical-methods course notebooks (Python for engineers, "Gaussian elimination from
        scratch") that reduce [A | b] with for k: pivot; for i in range(k + 1, n): factor =
        A[i, k] / A[k, k]; for j in range(k, n): A[i, j] -= factor * A[k, j], then back-substitute,
        and check the answer against np.linalg.solve
family: numeric-loop
kind: slow
verdict: AIP907
rewrite: yes: replace the j loop by the row operation A[i, k:] -= factor * A[k, k:] (the same values: the same products and subtractions), or the i loop too by one outer product per k; np.linalg.solve(M, rhs) gives the same solution to rounding
size: a 150 x 150 system (about 1,120,000 element updates)
scaled: no
kernel: data
"""
# %% setup
import numpy as np

rng = np.random.default_rng(508)
N = 150
M = rng.normal(0, 1, (N, N)) + N * np.eye(N) * 0.1
rhs = rng.normal(0, 1, N)
# %% cell
A = M.copy()
b = rhs.copy()
n = len(A)
for k in range(n - 1):
    p = k + int(np.argmax(np.abs(A[k:, k])))
    if p != k:
        A[[k, p]] = A[[p, k]]
        b[[k, p]] = b[[p, k]]
    for i in range(k + 1, n):  # expect: AIP201
        factor = A[i, k] / A[k, k]  # expect: AIP201
        for j in range(k, n):  # expect: AIP201
            A[i, j] -= factor * A[k, j]  # expect: AIP201
        b[i] -= factor * b[k]
x = np.zeros(n)
for i in range(n - 1, -1, -1):
    x[i] = (b[i] - A[i, i + 1:] @ x[i + 1:]) / A[i, i]
residual = np.abs(M @ x - rhs).max()
