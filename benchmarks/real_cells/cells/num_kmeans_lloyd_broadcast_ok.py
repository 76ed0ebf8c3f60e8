# ruff: noqa
"""k-means by Lloyd's algorithm in NumPy: a loop of iterations, each one broadcast distance computation and one mean per cluster.

source: machine-learning-from-scratch notebooks that vectorise k-means (d = ((X[:, None, :] -
        centroids[None]) ** 2).sum(-1); labels = d.argmin(1); centroids = np.array([X[labels ==
        c].mean(0) for c in range(k)]) until the centroids stop moving), on a customer
        segmentation data set
family: numeric-loop
kind: healthy
verdict: AIP907|AIP908|none
rewrite: no: the iterations are a recurrence (each needs the last centroids) and the comprehension runs over 6 clusters; every step is whole-array work on 40,000 points
size: 40,000 points of 4 features, 6 clusters, at most 60 iterations
scaled: no
kernel: data
"""
# %% setup
import numpy as np

rng = np.random.default_rng(512)
centres = rng.uniform(-8, 8, (6, 4))
X = np.concatenate([c + rng.normal(0, 1.6, (40_000 // 6 + 1, 4)) for c in centres])[:40_000]
k = 6
# %% cell
centroids = X[rng.choice(len(X), k, replace=False)]
for it in range(60):
    d2 = ((X[:, None, :] - centroids[None, :, :]) ** 2).sum(axis=2)
    labels = d2.argmin(axis=1)
    new_centroids = np.array([X[labels == c].mean(axis=0) for c in range(k)])
    if np.allclose(new_centroids, centroids):
        break
    centroids = new_centroids
inertia = d2[np.arange(len(X)), labels].sum()
