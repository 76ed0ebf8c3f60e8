# ruff: noqa
"""User-user cosine similarities of a ratings matrix filled pair by pair in two Python loops.

source: recommender-system notebooks on MovieLens 100K ("collaborative filtering from scratch":
        for i in range(n_users): for j in range(n_users): sim[i, j] = np.dot(r[i], r[j]) /
        (np.linalg.norm(r[i]) * np.linalg.norm(r[j]))), before the one matrix product
family: numeric-loop
kind: slow
verdict: AIP907
rewrite: yes: unit = ratings / np.linalg.norm(ratings, axis=1, keepdims=True); sim = unit @ unit.T (the same matrix to float rounding)
size: 600 users x 1,682 movies, the upper triangle of the matrix
scaled: yes: MovieLens 100K has 943 users (the same loops take about 2.5 times as long); the first 600 of them
kernel: data
"""
# %% setup
import numpy as np

rng = np.random.default_rng(208)
ratings = np.where(rng.random((600, 1_682)) < 0.063, rng.integers(1, 6, (600, 1_682)), 0).astype(float)
n_users = ratings.shape[0]
# %% cell
sim = np.eye(n_users)
for i in range(n_users):  # expect: AIP201
    for j in range(i + 1, n_users):  # expect: AIP201
        s = np.dot(ratings[i], ratings[j]) / (np.linalg.norm(ratings[i]) * np.linalg.norm(ratings[j]))  # expect: AIP201
        sim[i, j] = sim[j, i] = s
nearest = np.argsort(-sim, axis=1)[:, 1:11]
