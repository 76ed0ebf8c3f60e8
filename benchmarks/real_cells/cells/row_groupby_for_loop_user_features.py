# ruff: noqa
"""Per-user features built by looping over df.groupby("user_id"): one dict of group means and maxima per user, then a frame.

source: Kaggle feature-engineering notebooks of the Instacart Market Basket and churn competitions
        (rows = []; for user_id, g in orders.groupby("user_id"): rows.append({"user_id": user_id,
        "n_orders": len(g), "mean_basket": g["basket_size"].mean(), ...}); user_features =
        pd.DataFrame(rows)), before one groupby().agg with named aggregations
family: row-loop
kind: slow
verdict: AIP907
rewrite: yes: orders.groupby("user_id").agg(n_orders=("order_id", "size"), mean_basket=("basket_size", "mean"), max_basket=("basket_size", "max"), mean_gap=("days_since_prior", "mean"), reorder_rate=("reordered", "mean")).reset_index() (the same values)
size: 100,000 orders of 3,500 users
scaled: yes: Instacart has 3.4 million orders of 206,209 users; the first 3,500 users
kernel: data
unsure: no rule of the catalog names a loop over groups; any code on these lines is accepted
"""
# %% setup
import numpy as np
import pandas as pd

rng = np.random.default_rng(310)
n = 100_000
orders = pd.DataFrame({
    "order_id": np.arange(n),
    "user_id": np.sort(rng.integers(1, 3_501, n)),
    "basket_size": rng.poisson(10, n) + 1,
    "days_since_prior": rng.integers(0, 31, n).astype(float),
    "reordered": rng.random(n).round(3),
})
# %% cell
rows = []
for user_id, g in orders.groupby("user_id"):  # expect: *
    rows.append({
        "user_id": user_id,
        "n_orders": len(g),
        "mean_basket": g["basket_size"].mean(),  # expect: *
        "max_basket": g["basket_size"].max(),  # expect: *
        "mean_gap": g["days_since_prior"].mean(),  # expect: *
        "reorder_rate": g["reordered"].mean(),  # expect: *
    })
user_features = pd.DataFrame(rows)
