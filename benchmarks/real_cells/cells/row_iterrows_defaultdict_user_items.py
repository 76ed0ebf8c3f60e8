# ruff: noqa
"""Each user's liked movies gathered for a recommender with iterrows: user_items[row["userId"]].append(row["movieId"]) for every rating of 4 or more.

source: recommender-system tutorials on MovieLens that build user-item dictionaries by walking the
        ratings frame (user_items = defaultdict(list); for _, row in ratings.iterrows(): if
        row["rating"] >= 4: user_items[row["userId"]].append(row["movieId"])) before item-item
        co-occurrence counts
family: row-loop
kind: slow
verdict: AIP907
rewrite: yes: ratings[ratings["rating"] >= 4].groupby("userId")["movieId"].agg(list).to_dict() (the same lists in the same order; its keys and ids are ints where iterrows' float rows gave floats)
size: 40,000 ratings of 700 users on 3,000 movies
scaled: yes: MovieLens 100K holds 100,000 ratings; two fifths of them
kernel: data
"""
# %% setup
from collections import defaultdict

import numpy as np
import pandas as pd

rng = np.random.default_rng(504)
n = 40_000
popularity = 1.0 / np.arange(1, 3_001) ** 0.7
ratings = pd.DataFrame({
    "userId": rng.integers(1, 701, n),
    "movieId": rng.choice(3_000, n, p=popularity / popularity.sum()) + 1,
    "rating": rng.choice([1.0, 1.5, 2.0, 2.5, 3.0, 3.5, 4.0, 4.5, 5.0], n,
                         p=[0.03, 0.02, 0.07, 0.05, 0.2, 0.13, 0.27, 0.09, 0.14]),
    "timestamp": rng.integers(874_724_710, 893_286_638, n),
})
# %% cell
user_items = defaultdict(list)
for _, row in ratings.iterrows():  # expect: AIP301
    if row["rating"] >= 4.0:  # expect: AIP301
        user_items[row["userId"]].append(row["movieId"])  # expect: AIP301
liked_per_user = np.mean([len(items) for items in user_items.values()])
