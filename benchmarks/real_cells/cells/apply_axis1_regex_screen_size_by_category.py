# ruff: noqa
"""A product feed's size parsed out of each title with a regex chosen by the row's category, in a function applied with axis=1.

source: e-commerce data-cleaning notebooks (product titles from a marketplace feed: def
        parse_size(row): unit = UNITS[row["category"]]; m = re.search(rf"(\d+(?:\.\d+)?)\s*{unit}",
        row["title"]); return float(m.group(1)) if m else np.nan; df["size"] = df.apply(parse_size,
        axis=1)), before str.extract per category
family: row-apply
kind: slow
verdict: AIP907
rewrite: yes: for each of the five categories, mask = df["category"] == cat; df.loc[mask, "size"] = df.loc[mask, "title"].str.extract(rf"(\d+(?:\.\d+)?)\s*{unit}", expand=False).astype(float) (the same values, NaN where nothing matched)
size: 80,000 listings in 5 categories
scaled: no
kernel: data
"""
# %% setup
import re

import numpy as np
import pandas as pd

rng = np.random.default_rng(707)
n = 80_000
units = {"tv": "inch", "laptop": "inch", "drive": "TB", "memory": "GB", "bottle": "ml"}
cats = rng.choice(list(units), n)
brands = rng.choice(["Acme", "Globex", "Initech", "Umbrella", "Hooli"], n)
sizes = {"tv": [43, 50, 55, 65, 75], "laptop": [13.3, 14, 15.6, 16], "drive": [1, 2, 4, 8], "memory": [8, 16, 32, 64],
         "bottle": [330, 500, 750, 1000]}
titles = [f"{b} {c.title()} {rng.choice(sizes[c])}{'' if k % 3 else ' '}{units[c]} model {k % 997}"
          + (" refurbished" if k % 11 == 0 else "") if k % 23 else f"{b} {c.title()} bundle"
          for k, (b, c) in enumerate(zip(brands, cats))]
listings = pd.DataFrame({"sku": np.arange(n), "brand": brands, "category": cats, "title": titles,
                         "price": rng.gamma(2.0, 150.0, n).round(2)})
UNITS = units
# %% cell
def parse_size(row):
    unit = UNITS[row["category"]]
    m = re.search(rf"(\d+(?:\.\d+)?)\s*{unit}", row["title"])
    return float(m.group(1)) if m else np.nan


listings["size"] = listings.apply(parse_size, axis=1)  # expect: AIP302
price_per_unit = (listings["price"] / listings["size"]).groupby(listings["category"]).median()
