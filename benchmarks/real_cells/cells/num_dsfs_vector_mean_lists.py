# ruff: noqa
"""The from-scratch vector helpers of a data-science primer (lists of floats), averaging many points.

source: Data Science from Scratch (joelgrus/data-science-from-scratch), the linear-algebra chapter:
        vector_add as a comprehension over zip(v, w), vector_sum folding it over the vectors,
        scalar_multiply, vector_mean; the book's k-means and gradient-descent chapters call them
family: numeric-loop
kind: slow
verdict: AIP907
rewrite: yes: np.mean(points, axis=0) on an array of the points (the same floats: integer sums are exact)
size: 100,000 points of 100 integer features (counts from 0 to 99)
scaled: yes: the book calls vector_mean on a few hundred points
kernel: data
"""
# %% setup
import numpy as np


def vector_add(v, w):
    return [v_i + w_i for v_i, w_i in zip(v, w)]


def vector_sum(vectors):
    result = vectors[0]
    for vector in vectors[1:]:
        result = vector_add(result, vector)
    return result


def scalar_multiply(c, v):
    return [c * v_i for v_i in v]


def vector_mean(vectors):
    n = len(vectors)
    return scalar_multiply(1 / n, vector_sum(vectors))


points = np.random.default_rng(101).integers(0, 100, (100_000, 100)).tolist()
# %% cell
center = vector_mean(points)  # expect: AIP201
spread = max(abs(c) for c in center)
