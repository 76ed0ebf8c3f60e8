# ruff: noqa
"""iterrows over orders, looking each product's price up in another frame with .loc.

source: retail-analysis notebooks and the many "join two DataFrames in a loop" questions (an order
        table and a product table indexed by id)
family: row-loop
kind: slow
verdict: AIP907
rewrite: yes: orders.merge(products, on="product_id") then one multiplication
size: 12,000 orders, 500 products
scaled: no
kernel: data
"""
# %% setup
import pandas as pd
from cell_data import rng

r = rng(15)
products = pd.DataFrame({"product_id": range(500), "unit_price": r.gamma(2.0, 20.0, 500).round(2)}).set_index("product_id")
orders = pd.DataFrame({"order_id": range(12_000), "product_id": r.integers(0, 500, 12_000),
                       "quantity": r.integers(1, 6, 12_000)})
# %% cell
line_totals = []
for _, order in orders.iterrows():  # expect: AIP301
    line_totals.append(products.loc[order["product_id"], "unit_price"] * order["quantity"])  # expect: AIP301
orders["line_total"] = line_totals
