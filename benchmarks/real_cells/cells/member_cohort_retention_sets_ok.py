# ruff: noqa
"""The monthly cohort retention table with sets: each month's active customers made a set once, each cohort intersected with them, on 1.15 million orders.

source: customer-analytics notebooks on the UCI Online Retail data (cohort analysis: each customer's
        first month, then the share of each cohort still buying in every later month), written with
        set intersections (len(cohort & active[later])) instead of list scans
family: membership
kind: healthy
verdict: AIP907|none
rewrite: no: each membership test is a hash lookup; most of the time is building the sets from the columns
size: 1,150,000 orders of 150,000 customers over 12 months
scaled: yes: the UCI data set has 541,909 invoice lines of 4,372 customers; a larger shop
kernel: data
"""
# %% setup
import numpy as np
import pandas as pd

rng = np.random.default_rng(624)
n_customers = 150_000
first = rng.integers(1, 13, n_customers)
stay = rng.uniform(0.15, 0.6, n_customers)
months_grid = np.arange(1, 13)
active_mask = (months_grid[None, :] == first[:, None]) | (
    (months_grid[None, :] > first[:, None]) & (rng.random((n_customers, 12)) < stay[:, None]))
cust, month_idx = np.nonzero(active_mask)
repeat = rng.integers(1, 5, len(cust))
orders = pd.DataFrame({"customer_id": np.repeat(cust + 12_346, repeat), "month": np.repeat(month_idx + 1, repeat)})
orders = orders.sample(frac=1.0, random_state=624, ignore_index=True)
months = list(range(1, 13))
# %% cell
active = {m: set(ids) for m, ids in orders.groupby("month")["customer_id"]}
first_month = orders.groupby("customer_id")["month"].min()
cohorts = {m: set(first_month.index[first_month == m]) for m in months}
retention = pd.DataFrame(index=months, columns=range(12), dtype=float)
for m in months:
    for k, later in enumerate(months[m - 1:]):
        retention.loc[m, k] = len(cohorts[m] & active[later]) / len(cohorts[m])
