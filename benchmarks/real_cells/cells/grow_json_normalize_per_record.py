# ruff: noqa
"""Nested API records flattened one at a time with pd.json_normalize, then thousands of one-row frames concatenated.

source: API and ETL notebooks that flatten JSON responses record by record (frames =
        [pd.json_normalize(rec) for rec in records]; df = pd.concat(frames, ignore_index=True)),
        before one pd.json_normalize(records) over the whole list
family: growing
kind: slow
verdict: AIP907
rewrite: yes: pd.json_normalize(records) (the same columns and values)
size: 2,000 order records with a nested customer and address
scaled: no
kernel: data
unsure: no frame grows step by step here (the pieces are joined once); the cost is a frame built per record and the join of 2,000 of them, which no code of the catalog names
"""
# %% setup
import numpy as np
import pandas as pd

rng = np.random.default_rng(315)
records = [
    {"order_id": 50_000 + i, "total": round(float(rng.gamma(2.0, 30.0)), 2), "status": ["paid", "shipped", "refunded"][i % 3],
     "customer": {"id": int(rng.integers(1, 900)), "name": f"customer {i % 900}",
                  "address": {"city": ["Lyon", "Porto", "Graz", "Turku"][i % 4], "zip": f"{10_000 + i % 5_000}"}},
     "items": int(rng.integers(1, 6))}
    for i in range(2_000)
]
# %% cell
frames = [pd.json_normalize(rec) for rec in records]  # expect: *
orders = pd.concat(frames, ignore_index=True)  # expect: *
revenue_by_city = orders.groupby("customer.address.city")["total"].sum()
