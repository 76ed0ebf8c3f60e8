# ruff: noqa
"""k-nearest neighbours from scratch on lists of rows: a distance loop over every training row.

source: Jason Brownlee, "Develop k-Nearest Neighbors in Python From Scratch" (Machine Learning
        Mastery; copied into many from-scratch notebooks): euclidean_distance loops over the
        columns of two rows, get_neighbors computes it against every training row, and
        predict_classification votes; the rows are lists read from a CSV (the wine-quality data
        of 4,898 rows and 11 features in the follow-up exercise), here predicting 60 held-back rows
family: numeric-loop
kind: slow
verdict: AIP907
rewrite: yes: a NumPy array of the training rows and one vectorised distance per test row
size: 4,838 training rows of 11 features plus the label, 60 test rows, k = 5
scaled: no
kernel: data
"""
# %% setup
from math import sqrt

import numpy as np

rng = np.random.default_rng(48)
table = np.column_stack([rng.normal(6.8, 0.8, 4898), rng.normal(0.28, 0.1, 4898), rng.random((4898, 9)),
                         rng.integers(3, 10, 4898)])
dataset = [list(map(float, row)) for row in table]
train, test = dataset[:4838], dataset[4838:]


def euclidean_distance(row1, row2):
    distance = 0.0
    for i in range(len(row1) - 1):
        distance += (row1[i] - row2[i]) ** 2
    return sqrt(distance)


def get_neighbors(train, test_row, num_neighbors):
    distances = list()
    for train_row in train:
        dist = euclidean_distance(test_row, train_row)
        distances.append((train_row, dist))
    distances.sort(key=lambda tup: tup[1])
    return [distances[i][0] for i in range(num_neighbors)]


def predict_classification(train, test_row, num_neighbors):
    neighbors = get_neighbors(train, test_row, num_neighbors)
    output_values = [row[-1] for row in neighbors]
    return max(set(output_values), key=output_values.count)
# %% cell
predictions = [predict_classification(train, row, 5) for row in test]  # expect: AIP201
