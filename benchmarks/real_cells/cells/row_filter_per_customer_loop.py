# ruff: noqa
"""Per-customer totals computed by filtering the whole orders frame once for each customer.

source: pandas course exercises and EDA notebooks (for cust in df["customer_id"].unique():
        subset = df[df["customer_id"] == cust]; totals[cust] = subset["amount"].sum()), the loop
        groupby replaces
family: row-loop
kind: slow
verdict: AIP907
rewrite: yes: orders.groupby("customer_id")["amount"].sum()
size: 100,000 orders of 1,500 customers
scaled: no
kernel: data
"""
# %% setup
import numpy as np
import pandas as pd

rng = np.random.default_rng(1500)
orders = pd.DataFrame({"customer_id": rng.integers(0, 1500, 100_000),
                       "amount": rng.gamma(2.0, 30.0, 100_000).round(2)})
# %% cell
totals = {}
for cust in orders["customer_id"].unique():  # expect: *
    subset = orders[orders["customer_id"] == cust]  # expect: *
    totals[cust] = subset["amount"].sum()
