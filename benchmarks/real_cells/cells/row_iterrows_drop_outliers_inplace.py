# ruff: noqa
"""Outliers removed from a housing frame row by row: iterrows over the listings, df.drop(i, inplace=True) for each price three standard deviations out or floor area too small.

source: house-price EDA notebooks that clean outliers in a loop (for i, row in df.iterrows(): if
        abs(row["price"] - mean) / std > 3 or row["sqft"] < 300: df.drop(i, inplace=True)),
        before a regression on the remaining listings
family: row-loop
kind: slow
verdict: AIP907
rewrite: yes: houses = raw[((raw["price"] - mu).abs() / sd <= 3) & (raw["sqft"] >= 300)] (the same rows kept, in the same order)
size: 25,000 listings, about 1.5 % dropped
scaled: no
kernel: data
"""
# %% setup
import numpy as np
import pandas as pd

rng = np.random.default_rng(505)
n = 25_000
sqft = rng.lognormal(7.3, 0.35, n).round(0)
small = rng.random(n) < 0.006
sqft[small] = rng.integers(80, 300, small.sum())
price = (sqft * rng.normal(210, 35, n)).round(-2)
price[rng.random(n) < 0.01] *= 6
raw = pd.DataFrame({
    "listing_id": np.arange(n),
    "sqft": sqft,
    "bedrooms": rng.integers(1, 6, n),
    "bathrooms": rng.integers(1, 4, n),
    "year_built": rng.integers(1900, 2023, n),
    "price": price,
})
# %% cell
houses = raw.copy()
mu, sd = houses["price"].mean(), houses["price"].std()
for i, row in houses.iterrows():  # expect: AIP301
    if abs(row["price"] - mu) / sd > 3 or row["sqft"] < 300:  # expect: AIP301
        houses.drop(i, inplace=True)  # expect: AIP301
price_per_sqft = (houses["price"] / houses["sqft"]).median()
