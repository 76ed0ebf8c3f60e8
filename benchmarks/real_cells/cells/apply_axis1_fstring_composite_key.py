# ruff: noqa
"""A store-item key built with df.apply(lambda row: str(row["store"]) + "_" + str(row["item"]), axis=1).

source: Kaggle notebooks of the Store Item Demand Forecasting and Favorita sales competitions that
        make one id per series before grouping and lag features (df["store_item"] =
        df.apply(lambda x: str(x["store"]) + "_" + str(x["item"]), axis=1))
family: row-apply
kind: slow
verdict: AIP907
rewrite: yes: df["store"].astype(str) + "_" + df["item"].astype(str) (the same strings)
size: 50,000 daily sales rows
scaled: yes: the competition's train set has 913,000 rows (10 stores x 50 items x 5 years)
kernel: data
unsure: the lambda returns a string, where AIP302 leaves string work alone because splits and
        regular expressions have no whole-column form; joining two columns has one, and the row
        Series built for each row is the cost
"""
# %% setup
import numpy as np
import pandas as pd

rng = np.random.default_rng(313)
n = 50_000
sales = pd.DataFrame({
    "date": pd.Timestamp("2013-01-01") + pd.to_timedelta(rng.integers(0, 1_826, n), unit="D"),
    "store": rng.integers(1, 11, n),
    "item": rng.integers(1, 51, n),
    "sales": rng.poisson(50, n),
})
# %% cell
sales["store_item"] = sales.apply(lambda x: str(x["store"]) + "_" + str(x["item"]), axis=1)  # expect: AIP302
series_count = sales["store_item"].nunique()
