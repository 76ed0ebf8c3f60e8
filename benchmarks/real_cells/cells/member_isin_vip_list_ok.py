# ruff: noqa
"""Orders of the loyalty customers kept with Series.isin(a list of 20,000 ids): pandas hashes the list once.

source: pandas courses and retail EDA notebooks (vip_ids = loyalty["customer_id"].tolist();
        vip_orders = orders[orders["customer_id"].isin(vip_ids)]), the membership test the pandas
        documentation's "Indexing and selecting data" chapter teaches
family: membership
kind: healthy
verdict: none|AIP907
rewrite: no: isin builds one hash table of the list and looks every row up in it, in C; a set would not be faster
size: 2,000,000 orders, 20,000 loyalty ids in a list
scaled: no
kernel: data
"""
# %% setup
import numpy as np
import pandas as pd

rng = np.random.default_rng(218)
orders = pd.DataFrame({"customer_id": rng.integers(0, 400_000, 2_000_000),
                       "amount": rng.gamma(2.0, 30.0, 2_000_000).round(2)})
loyalty = pd.DataFrame({"customer_id": rng.choice(400_000, 20_000, replace=False)})
# %% cell
vip_ids = loyalty["customer_id"].tolist()
vip_orders = orders[orders["customer_id"].isin(vip_ids)]
vip_share = vip_orders["amount"].sum() / orders["amount"].sum()
