# ruff: noqa
"""A row function picking the sale price when there is one and the list price otherwise, applied with axis=1.

source: retail and e-commerce cleaning notebooks and the common "take column A, or B where A is
        missing" question (df.apply(lambda row: row["a"] if pd.notnull(row["a"]) else row["b"],
        axis=1), answered with fillna or combine_first)
family: row-apply
kind: slow
verdict: AIP907
rewrite: yes: products["sale_price"].fillna(products["list_price"])
size: 80,000 products, a third of them on sale
scaled: no
kernel: data
"""
# %% setup
import numpy as np
import pandas as pd

rng = np.random.default_rng(107)
n = 80_000
list_price = rng.gamma(2.0, 30.0, n).round(2)
sale = np.where(rng.random(n) < 0.33, (list_price * rng.uniform(0.6, 0.9, n)).round(2), np.nan)
products = pd.DataFrame({"sku": np.arange(n), "list_price": list_price, "sale_price": sale,
                         "stock": rng.integers(0, 500, n)})
# %% cell
products["price"] = products.apply(  # expect: AIP302
    lambda row: row["sale_price"] if pd.notnull(row["sale_price"]) else row["list_price"], axis=1)  # expect: AIP302
revenue_at_stock = (products["price"] * products["stock"]).sum()
