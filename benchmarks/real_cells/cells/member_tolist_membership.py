# ruff: noqa
"""A column turned into a list with .tolist(), then `x in valid` for every row of another frame.

source: data-cleaning notebooks flagging rows whose id appears in a reference table (before
        Series.isin)
family: membership
kind: slow
verdict: AIP907
rewrite: yes: orders["customer_id"].isin(customers["customer_id"])
size: 10,000 orders against 4,000 known customers
scaled: no
kernel: data
"""
# %% setup
import pandas as pd
from cell_data import rng

r = rng(56)
customers = pd.DataFrame({"customer_id": r.choice(20_000, 4_000, replace=False)})
orders = pd.DataFrame({"customer_id": r.integers(0, 20_000, 10_000), "amount": r.gamma(2, 30, 10_000)})
# %% cell
valid = customers["customer_id"].tolist()
orders["known"] = [c in valid for c in orders["customer_id"]]  # expect: AIP202
