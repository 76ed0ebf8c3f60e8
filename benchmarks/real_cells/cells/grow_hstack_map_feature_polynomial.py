# ruff: noqa
"""Polynomial features mapped as in the regularised logistic-regression exercise: out = np.hstack((out, term[:, np.newaxis])) for every power pair, each step copying the whole matrix so far.

source: Python ports of the machine-learning course's regularised logistic regression exercise
        (mapFeature(X1, X2): out = np.ones(m); for i in range(1, degree + 1): for j in range(i + 1):
        out = np.hstack((out, (X1 ** (i - j) * X2 ** j)[:, np.newaxis]))), here on a larger sensor
        set and a higher degree, then the features standardised for gradient descent
family: growing
kind: slow
verdict: AIP907
rewrite: yes: out = np.empty((len(x1), n_terms)) allocated once and filled column by column (out[:, col] = x1 ** (i - j) * x2 ** j), or the terms gathered in a list and np.column_stack(terms) once: the same matrix
size: 40,000 samples, degree 16 (153 columns)
scaled: yes: the exercise maps 118 microchip tests to degree 6 (28 columns)
kernel: data
"""
# %% setup
import numpy as np

rng = np.random.default_rng(610)
m = 40_000
x1 = rng.uniform(-1.0, 1.2, m)
x2 = rng.uniform(-0.8, 1.1, m)
y = ((x1 ** 2 + x2 ** 2 + 0.3 * rng.standard_normal(m)) < 0.6).astype(float)
degree = 16


def sigmoid(z):
    return 1.0 / (1.0 + np.exp(-z))
# %% cell
out = np.ones((m, 1))
for i in range(1, degree + 1):
    for j in range(i + 1):  # expect: AIP203
        out = np.hstack((out, (x1 ** (i - j) * x2 ** j)[:, np.newaxis]))  # expect: AIP203
X = np.hstack((out[:, :1], (out[:, 1:] - out[:, 1:].mean(axis=0)) / out[:, 1:].std(axis=0)))
theta = np.zeros(X.shape[1])
for step in range(5):
    theta -= 0.5 * (X.T @ (sigmoid(X @ theta) - y) / m + 1e-3 * np.r_[0.0, theta[1:]])
