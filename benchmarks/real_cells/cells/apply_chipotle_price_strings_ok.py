# ruff: noqa
"""The item prices of an order file, read as "$2.39 " strings, turned into floats with a small apply.

source: pandas_exercises (guipsamora/pandas_exercises), "Getting and Knowing your Data",
        Chipotle: chipo.item_price.apply(lambda x: float(x[1:-1])) on the 4,622 order lines,
        then the revenue and the number of orders
family: row-apply
kind: healthy
verdict: none|AIP907
rewrite: no: 4,622 strings take a few milliseconds (str[1:-1].astype(float) saves about as much)
size: 4,622 order lines
scaled: no
kernel: data
"""
# %% setup
import numpy as np
import pandas as pd

rng = np.random.default_rng(108)
n = 4_622
items = np.array(["Chicken Bowl", "Chicken Burrito", "Chips and Guacamole", "Steak Burrito",
                  "Canned Soft Drink", "Chips", "Steak Bowl", "Bottled Water", "Chicken Soft Tacos"])
chipo = pd.DataFrame({
    "order_id": np.sort(rng.integers(1, 1_835, n)),
    "quantity": rng.choice([1, 1, 1, 1, 2, 3], n),
    "item_name": rng.choice(items, n),
    "item_price": [f"${p:.2f} " for p in rng.choice([1.09, 2.39, 4.45, 8.75, 10.98, 11.25, 8.49], n)],
})
# %% cell
prices = chipo.item_price.apply(lambda x: float(x[1:-1]))
revenue = (chipo.quantity * prices).sum()
orders = chipo.order_id.value_counts().count()
print(f"Revenue was: ${np.round(revenue, 2)} over {orders} orders")
