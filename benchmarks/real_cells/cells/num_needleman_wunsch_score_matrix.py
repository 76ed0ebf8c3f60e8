# ruff: noqa
"""A global alignment score by Needleman-Wunsch: the dynamic-programming matrix filled cell by cell in two Python loops over a NumPy array.

source: bioinformatics course notebooks and Rosalind write-ups that align two DNA sequences from
        scratch (F = np.zeros((n + 1, m + 1)); gap penalties on the borders; for i: for j: F[i, j]
        = max(F[i - 1, j - 1] + s(a[i - 1], b[j - 1]), F[i - 1, j] + gap, F[i, j - 1] + gap)),
        then the traceback
family: numeric-loop
kind: slow
verdict: AIP907
rewrite: yes: keep the loop over i and fill each row with NumPy: the diagonal and upper moves as one np.maximum over the row, the left moves (a constant gap) as a running maximum, np.maximum.accumulate(cand - gap * j) + gap * j with the border cell first (the same matrix: the same sums and maxima)
size: two sequences of 700 bases (490,000 cells)
scaled: no
kernel: data
"""
# %% setup
import numpy as np

rng = np.random.default_rng(507)
seq_a = "".join(rng.choice(list("ACGT"), 700))
mutated = [c if rng.random() > 0.15 else str(rng.choice(list("ACGT"))) for c in seq_a]
seq_b = "".join(mutated[:350] + mutated[360:] + list("ACGTACGTAC"))
match, mismatch, gap = 1.0, -1.0, -2.0
# %% cell
n, m = len(seq_a), len(seq_b)
F = np.zeros((n + 1, m + 1))
F[:, 0] = gap * np.arange(n + 1)
F[0, :] = gap * np.arange(m + 1)
for i in range(1, n + 1):  # expect: AIP201
    for j in range(1, m + 1):  # expect: AIP201
        s = match if seq_a[i - 1] == seq_b[j - 1] else mismatch  # expect: AIP201
        F[i, j] = max(F[i - 1, j - 1] + s, F[i - 1, j] + gap, F[i, j - 1] + gap)  # expect: AIP201
alignment_score = F[n, m]
