# ruff: noqa
"""A store-by-month sales table pivoted by hand: an empty frame of zeros filled with pivot.at[store, month] += amount for every order line.

source: retail-analysis notebooks that build a pivot table by hand before learning pivot_table
        (pivot = pd.DataFrame(0.0, index=stores, columns=months); for row in
        sales.itertuples(): pivot.at[row.store, row.month] += row.amount), then rank each
        store's best month
family: row-loop
kind: slow
verdict: AIP907
rewrite: yes: pivot = sales.pivot_table(index="store", columns="month", values="amount", aggfunc="sum", fill_value=0.0) (the same table up to the order of the additions)
size: 25,000 order lines, 45 stores x 12 months
scaled: no
kernel: data
"""
# %% setup
import numpy as np
import pandas as pd

rng = np.random.default_rng(406)
n = 25_000
stores = np.array([f"S{i:03d}" for i in range(45)])
sales = pd.DataFrame({
    "order_id": np.arange(n),
    "store": stores[rng.integers(0, 45, n)],
    "month": rng.integers(1, 13, n),
    "amount": rng.gamma(2.0, 35.0, n).round(2),
})
# %% cell
pivot = pd.DataFrame(0.0, index=sorted(sales["store"].unique()), columns=range(1, 13))
for row in sales.itertuples(index=False):  # expect: AIP301
    pivot.at[row.store, row.month] += row.amount  # expect: AIP301
best_month = pivot.idxmax(axis=1)
share_of_best = pivot.max(axis=1) / pivot.sum(axis=1)
