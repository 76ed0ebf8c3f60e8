# ruff: noqa
"""The three best-selling products of each store: groupby("store_id").apply of a lambda that sorts each group by revenue and takes head(3).

source: retail-analytics and pandas-exercise notebooks (top-n per group: df.groupby("store").apply(
        lambda g: g.sort_values("revenue", ascending=False).head(3))), before sort_values once and
        groupby(...).head(3) or nlargest
family: row-apply
kind: slow
verdict: AIP907
rewrite: yes: sales.sort_values("revenue", ascending=False, kind="stable").groupby("store_id").head(3) (the same rows; the frame's index and row order differ, which a sort_index or sort_values of the store restores)
size: 150,000 store-product rows of 3,000 stores
scaled: no
kernel: data
"""
# %% setup
import numpy as np
import pandas as pd

rng = np.random.default_rng(708)
n_stores, per_store = 3_000, 50
sales = pd.DataFrame({
    "store_id": np.repeat(np.arange(n_stores), per_store),
    "product_id": rng.integers(1, 4_000, n_stores * per_store),
    "units": rng.poisson(30, n_stores * per_store),
    "price": rng.gamma(2.0, 4.0, n_stores * per_store).round(2),
})
sales["revenue"] = sales["units"] * sales["price"]
# %% cell
top3 = sales.groupby("store_id").apply(  # expect: *
    lambda g: g.sort_values("revenue", ascending=False).head(3))  # expect: *
top_products = top3["product_id"].value_counts().head(20)
