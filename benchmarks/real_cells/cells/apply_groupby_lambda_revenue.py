# ruff: noqa
"""Revenue per customer with groupby(...).apply of a lambda that multiplies two columns of each group.

source: e-commerce and RFM-analysis notebooks on Kaggle (the Online Retail data set:
        df.groupby("CustomerID").apply(lambda g: (g["Quantity"] * g["UnitPrice"]).sum())), before
        a TotalPrice column and groupby(...)["TotalPrice"].sum()
family: row-apply
kind: slow
verdict: AIP907
rewrite: yes: df.assign(total=df["Quantity"] * df["UnitPrice"]).groupby("CustomerID")["total"].sum() (float sums in another order: equal within 1e-9)
size: 120,000 invoice lines of 4,000 customers
scaled: yes: the Online Retail set has 541,909 lines of 4,372 customers
kernel: data
"""
# %% setup
import numpy as np
import pandas as pd

rng = np.random.default_rng(125)
n = 120_000
retail = pd.DataFrame({
    "CustomerID": rng.integers(12_346, 12_346 + 4_000, n),
    "Quantity": rng.integers(1, 25, n),
    "UnitPrice": rng.gamma(2.0, 1.6, n).round(2),
})
# %% cell
revenue = retail.groupby("CustomerID").apply(  # expect: *
    lambda g: (g["Quantity"] * g["UnitPrice"]).sum())  # expect: *
top_customers = revenue.sort_values(ascending=False).head(10)
