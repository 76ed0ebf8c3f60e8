# ruff: noqa
"""Bootstrap standard error of a median with from-scratch helpers: every resample drawn one value at a time with random.choice.

source: Joel Grus's "Data Science from Scratch" (joelgrus/data-science-from-scratch), the
        multiple-regression chapter's bootstrap helpers (bootstrap_sample(data) returns
        [random.choice(data) for _ in data]; bootstrap_statistic(data, stats_fn, num_samples)
        returns [stats_fn(bootstrap_sample(data)) for _ in range(num_samples)]), used on the
        median of a skewed income sample as statistics courses do
family: numeric-loop
kind: slow
verdict: AIP907
rewrite: yes: idx = rng.integers(0, len(data), (num_samples, len(data))); np.median(np.asarray(data)[idx], axis=1) (medians of the same bootstrap distribution, from other random draws)
size: 2,000 incomes, 1,000 resamples (2,000,000 draws)
scaled: yes: the book bootstraps 101 points 100 times; the sample and resample counts of a real analysis
kernel: data
unsure: the comprehension draws a random index per element rather than doing arithmetic on it; the loop sits
        in helpers of an earlier cell, so the only line of the cell is the call
"""
# %% setup
import random
import statistics

random.seed(401)
incomes = [round(random.lognormvariate(10.4, 0.7), 2) for _ in range(2_000)]


def median(v):
    return statistics.median(v)


def bootstrap_sample(data):
    return [random.choice(data) for _ in data]


def bootstrap_statistic(data, stats_fn, num_samples):
    return [stats_fn(bootstrap_sample(data)) for _ in range(num_samples)]
# %% cell
medians = bootstrap_statistic(incomes, median, 1_000)  # expect: AIP201
standard_error = statistics.stdev(medians)
interval = (sorted(medians)[25], sorted(medians)[974])
