# ruff: noqa
"""The first principal components by power iteration with deflation: Python loops, but every step is a matrix-vector product on a 60 x 60 covariance.

source: linear-algebra and machine-learning-from-scratch notebooks that find principal components
        without np.linalg.eigh (centre the data, cov = X.T @ X / (n - 1); for each component:
        repeat v = cov @ v / norm until it settles, then deflate cov -= lam * outer(v, v)),
        then project the data on the components
family: numeric-loop
kind: healthy
verdict: AIP907|AIP908|none
rewrite: no: the iterations are a recurrence (each needs the last) over a small matrix; the one costly step, the covariance, is one matrix product
size: 30,000 rows of 60 features, 5 components, at most 500 iterations each
scaled: no
kernel: data
"""
# %% setup
import numpy as np

rng = np.random.default_rng(421)
latent = rng.normal(size=(30_000, 5)) * np.array([6.0, 4.0, 3.0, 2.0, 1.5])
features = latent @ rng.normal(size=(5, 60)) + rng.normal(0, 0.5, (30_000, 60))
# %% cell
X = features - features.mean(axis=0)
cov = X.T @ X / (len(X) - 1)
components, variances = [], []
C = cov.copy()
for k in range(5):
    v = np.ones(C.shape[0]) / np.sqrt(C.shape[0])
    for it in range(500):
        w = C @ v
        v_next = w / np.linalg.norm(w)
        if np.abs(v_next - v).max() < 1e-10:
            break
        v = v_next
    lam = v @ C @ v
    components.append(v)
    variances.append(lam)
    C = C - lam * np.outer(v, v)
scores = X @ np.array(components).T
explained = np.array(variances) / np.trace(cov)
