# ruff: noqa
"""Order lines kept when their customer id is in a column's .values array, tested once per line.

source: data-cleaning notebooks and answers that test membership with `x in df["col"].values`
        (faster than `x in df["col"]`, which looks at the index) inside a loop or comprehension,
        before Series.isin
family: membership
kind: slow
verdict: AIP907
rewrite: yes: orders[orders["customer_id"].isin(active["customer_id"])] (the same rows, in order)
size: 60,000 order lines against 40,000 active customers
scaled: no
kernel: data
"""
# %% setup
import numpy as np
import pandas as pd

rng = np.random.default_rng(127)
active = pd.DataFrame({"customer_id": rng.choice(100_000, 40_000, replace=False)})
orders = pd.DataFrame({"customer_id": rng.integers(0, 100_000, 60_000),
                       "amount": rng.gamma(2.0, 30.0, 60_000).round(2)})
# %% cell
known = active["customer_id"].values
keep = []
for cid in orders["customer_id"]:  # expect: AIP202
    keep.append(cid in known)  # expect: AIP202
active_orders = orders[keep]
