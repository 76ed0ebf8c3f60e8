# ruff: noqa
"""k-means from scratch: each sample's closest centroid by a Python euclidean_distance, re-centred each pass.

source: ML-From-Scratch (eriklindernoren/ML-From-Scratch): unsupervised_learning/k_means.py
        (_closest_centroid over the centroids, _create_clusters over the samples, _calculate_centroids)
        and utils/data_operation.py's euclidean_distance (a loop over range(len(x1)) summing
        pow(x1[i] - x2[i], 2))
family: numeric-loop
kind: slow
verdict: AIP907
rewrite: yes: all distances at once with broadcasting, np.argmin over the centroid axis
size: 6,000 samples of 4 features, 3 clusters, 12 passes
scaled: yes: the project's demo clusters a few hundred blobs
kernel: data
"""
# %% setup
import math

import numpy as np

rng = np.random.default_rng(104)
X = np.concatenate([rng.normal(c, 0.6, (2_000, 4)) for c in (0.0, 3.0, 6.0)])


def euclidean_distance(x1, x2):
    distance = 0
    for i in range(len(x1)):
        distance += pow((x1[i] - x2[i]), 2)
    return math.sqrt(distance)


def closest_centroid(sample, centroids):
    closest_i = 0
    closest_dist = float("inf")
    for i, centroid in enumerate(centroids):
        distance = euclidean_distance(sample, centroid)
        if distance < closest_dist:
            closest_i = i
            closest_dist = distance
    return closest_i


def create_clusters(centroids, X):
    clusters = [[] for _ in range(len(centroids))]
    for sample_i, sample in enumerate(X):
        clusters[closest_centroid(sample, centroids)].append(sample_i)
    return clusters


def calculate_centroids(clusters, X):
    return np.array([np.mean(X[cluster], axis=0) for cluster in clusters])


centroids = X[[0, 2_500, 5_000]].copy()
# %% cell
for _ in range(12):  # expect: AIP201
    clusters = create_clusters(centroids, X)  # expect: AIP201
    centroids = calculate_centroids(clusters, X)
sizes = [len(c) for c in clusters]
