# ruff: noqa
"""Missing prices filled with each product's mean by groupby().transform(lambda x: x.fillna(x.mean())): one Python call per product.

source: Kaggle notebooks of the BigMart Sales and retail-price competitions that impute a
        column by group (df["Item_Weight"] = df.groupby("Item_Identifier")["Item_Weight"]
        .transform(lambda x: x.fillna(x.mean()))), the line copied from notebook to notebook
family: row-apply
kind: slow
verdict: AIP907
rewrite: yes: prices["price"] = prices["price"].fillna(prices.groupby("product_id")["price"].transform("mean")) (the same values: the built-in mean runs once over all groups)
size: 36,000 price records of 3,000 products, about 10 % missing
scaled: yes: BigMart's 8,523 rows hold 1,559 items; a catalogue of 3,000 products
kernel: data
unsure: no rule of the catalog names a lambda handed to groupby().transform; AIP302 (an apply of
        vectorisable work) is the closest, and any code on this line is accepted
"""
# %% setup
import numpy as np
import pandas as pd

rng = np.random.default_rng(409)
n, n_products = 36_000, 3_000
product = rng.integers(0, n_products, n)
base_price = rng.lognormal(2.5, 0.8, n_products)
price = (base_price[product] * rng.uniform(0.9, 1.1, n)).round(2)
price[rng.random(n) < 0.1] = np.nan
raw = pd.DataFrame({
    "product_id": np.char.add("P", product.astype(str)),
    "outlet": rng.choice(np.array(["OUT010", "OUT013", "OUT017", "OUT018", "OUT027", "OUT035"]), n),
    "price": price,
    "units": rng.integers(1, 20, n),
})
# %% cell
prices = raw.copy()
prices["price"] = prices.groupby("product_id")["price"].transform(lambda x: x.fillna(x.mean()))  # expect: *
prices["price"] = prices["price"].fillna(prices["price"].median())
revenue_by_outlet = (prices["price"] * prices["units"]).groupby(prices["outlet"]).sum()
