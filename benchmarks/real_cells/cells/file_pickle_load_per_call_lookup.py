# ruff: noqa
"""A lookup helper that unpickles its category table on every call, called for each item of a list of basket lines.

source: notebooks and scripts that load a pickled artefact inside the function they call per
        record (def category_of(code): with open("categories.pkl", "rb") as f: table =
        pickle.load(f); return table.get(code)), the "load the model inside predict()" shape of
        serving tutorials run over a batch of records
family: file-read
kind: slow
verdict: AIP907
rewrite: yes: unpickle the table once before the comprehension and keep the lookup (the same categories)
size: a table of 6,000 product codes, 1,000 basket lines
scaled: no
kernel: data
"""
# %% setup
import pickle
from collections import Counter

import numpy as np
from cell_data import temp_dir

rng = np.random.default_rng(412)
departments = ["produce", "dairy", "bakery", "frozen", "beverages", "snacks", "household", "deli"]
table = {f"SKU{i:06d}": departments[i % len(departments)] for i in range(6_000)}
lookup_path = temp_dir() / "categories.pkl"
with open(lookup_path, "wb") as fh:
    pickle.dump(table, fh)
basket_codes = [f"SKU{i:06d}" for i in rng.integers(0, 6_500, 1_000)]
del table
# %% cell
def category_of(code):
    with open(lookup_path, "rb") as fh:  # expect: AIP105
        table = pickle.load(fh)  # expect: AIP105
    return table.get(code, "unknown")


categories = [category_of(code) for code in basket_codes]  # expect: AIP105
top_departments = Counter(categories).most_common(3)
