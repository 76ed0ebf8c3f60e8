# ruff: noqa
"""A high-cardinality column label-encoded by hand: codes from Series.apply(lambda z: zip_codes.index(z)) against the list of unique values.

source: feature-engineering notebooks that encode categories without LabelEncoder (categories =
        df["zip_code"].unique().tolist(); df["zip_code_id"] = df["zip_code"].apply(lambda x:
        categories.index(x))), fine for a handful of values and quadratic for thousands
family: membership
kind: slow
verdict: AIP907
rewrite: yes: customers["zip_code_id"], _ = pd.factorize(customers["zip_code"]) (the same codes: factorize numbers values in order of first appearance, as unique() lists them), or a dict {z: i for i, z in enumerate(zip_codes)} mapped
size: 50,000 customers, 2,000 distinct zip codes (about 50 million comparisons)
scaled: no
kernel: data
"""
# %% setup
import numpy as np
import pandas as pd

rng = np.random.default_rng(416)
n = 50_000
zips = np.array([f"{z:05d}" for z in rng.choice(99_950, 2_000, replace=False) + 10])
customers = pd.DataFrame({
    "customer_id": np.arange(n),
    "zip_code": zips[rng.integers(0, len(zips), n)],
    "lifetime_value": rng.gamma(2.0, 120.0, n).round(2),
})
# %% cell
zip_codes = customers["zip_code"].unique().tolist()  # expect: AIP202
customers["zip_code_id"] = customers["zip_code"].apply(lambda z: zip_codes.index(z))  # expect: AIP202
value_by_zip = customers.groupby("zip_code_id")["lifetime_value"].mean()
