# ruff: noqa
"""A permutation test of a difference in means: a few thousand shuffles of the pooled array, each one whole-array work.

source: Allen Downey's "Think Stats" 2nd edition (AllenDowney/ThinkStats2), chapter 9 "Hypothesis
        testing": DiffMeansPermute (RunModel shuffles the pooled pregnancy lengths with
        np.random.shuffle; TestStatistic is abs(group1.mean() - group2.mean()); PValue runs
        iters of them and counts how many reach the actual difference)
family: numeric-loop
kind: healthy
verdict: AIP907|none
rewrite: no: each iteration is a shuffle and two means of 9,148 values in NumPy; the Python loop around them is a few percent
size: 5,000 permutations of 4,413 + 4,735 values
scaled: yes: the book runs 1,000 iterations
kernel: data
"""
# %% setup
import numpy as np

rng = np.random.default_rng(136)
firsts = rng.normal(38.60, 2.79, 4_413)
others = rng.normal(38.52, 2.62, 4_735)
pooled = np.hstack((firsts, others))
n = len(firsts)
actual = abs(firsts.mean() - others.mean())


def run_model():
    rng.shuffle(pooled)
    return pooled[:n], pooled[n:]


def test_statistic(data):
    group1, group2 = data
    return abs(group1.mean() - group2.mean())
# %% cell
test_stats = [test_statistic(run_model()) for _ in range(5_000)]
p_value = sum(1 for x in test_stats if x >= actual) / len(test_stats)
