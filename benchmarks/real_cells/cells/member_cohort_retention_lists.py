# ruff: noqa
"""A monthly cohort retention table built with lists: each cohort's customers are tested one by one against the list of customers active in every later month.

source: customer-analytics notebooks on the UCI Online Retail data set (cohort analysis: the month of
        each customer's first order, then for every cohort and later month the share still buying,
        written with active = df[df.month == m]["CustomerID"].unique().tolist() and [c for c in
        cohort if c in active]) before the groupby / nunique / pivot form
family: membership
kind: slow
verdict: AIP907
rewrite: yes: sets instead of lists (active[m] = set(...); len(cohort_set & active[later])), or orders.groupby(["cohort", "month"])["customer_id"].nunique().unstack() divided by the cohort sizes (the same table)
size: 45,000 orders of 6,000 customers over 12 months
scaled: no
kernel: data
"""
# %% setup
import numpy as np
import pandas as pd

rng = np.random.default_rng(608)
n_customers = 6_000
first = rng.integers(0, 12, n_customers)
rows = []
for c in range(n_customers):
    stay = rng.uniform(0.15, 0.6)
    for m in range(first[c], 12):
        if m == first[c] or rng.random() < stay:
            rows.extend([(12_346 + c, m + 1)] * int(rng.integers(1, 5)))
orders = pd.DataFrame(rows, columns=["customer_id", "month"]).sample(frac=1.0, random_state=608, ignore_index=True)
orders["amount"] = rng.gamma(2.0, 18.0, len(orders)).round(2)
months = list(range(1, 13))
# %% cell
active = {m: orders.loc[orders["month"] == m, "customer_id"].unique().tolist() for m in months}
first_month = orders.groupby("customer_id")["month"].min()
cohorts = {m: first_month.index[first_month == m].tolist() for m in months}
retention = pd.DataFrame(index=months, columns=range(12), dtype=float)
for m in months:
    for k, later in enumerate(months[m - 1:]):  # expect: AIP202
        kept = [c for c in cohorts[m] if c in active[later]]  # expect: AIP202
        retention.loc[m, k] = len(kept) / len(cohorts[m])
