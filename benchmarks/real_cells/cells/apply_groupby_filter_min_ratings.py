# ruff: noqa
"""Sparse users and movies dropped before a recommender is trained, with ratings.groupby("userId").filter(lambda g: len(g) >= 20): one Python call per user.

source: recommender-system notebooks on MovieLens (collaborative filtering and matrix factorisation
        tutorials) that keep only active users and popular movies before the train/test split
        (ratings = ratings.groupby("userId").filter(lambda x: len(x) >= 20), the same for
        movieId), then build the index maps for the embedding layers
family: row-apply
kind: slow
verdict: AIP907
rewrite: yes: ratings[ratings.groupby("userId")["userId"].transform("size") >= 20] (the same rows in the same order; the same with "movieId")
size: 900,000 ratings of 45,000 users and 9,000 movies
scaled: yes: MovieLens 25M has 162,000 users; a sample with a similar share of light users
kernel: data
"""
# %% setup
import numpy as np
import pandas as pd

rng = np.random.default_rng(602)
n_users, n_movies = 45_000, 9_000
per_user = np.minimum(rng.geometric(1 / 20, n_users), 400)
user_ids = np.repeat(np.arange(1, n_users + 1), per_user)
popularity = 1.0 / np.arange(1, n_movies + 1) ** 0.8
movie_ids = rng.choice(n_movies, len(user_ids), p=popularity / popularity.sum()) + 1
ratings = pd.DataFrame({
    "userId": user_ids,
    "movieId": movie_ids,
    "rating": rng.choice(np.arange(0.5, 5.5, 0.5), len(user_ids)),
    "timestamp": rng.integers(1_000_000_000, 1_600_000_000, len(user_ids)),
})
# %% cell
active = ratings.groupby("userId").filter(lambda g: len(g) >= 20)  # expect: AIP302/users ok: AIP303
active = active.groupby("movieId").filter(lambda g: len(g) >= 10)  # expect: AIP302/movies ok: AIP303
user_index = {u: i for i, u in enumerate(active["userId"].unique())}
movie_index = {m: i for i, m in enumerate(active["movieId"].unique())}
