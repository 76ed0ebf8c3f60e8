# ruff: noqa
"""All-pairs shortest paths with Floyd-Warshall: three nested Python loops over a NumPy distance matrix.

source: algorithms course notebooks and tutorials of the Floyd-Warshall algorithm (dist = a copy
        of the weighted adjacency matrix with inf where there is no edge; for k: for i: for j:
        if dist[i, k] + dist[k, j] < dist[i, j]: dist[i, j] = dist[i, k] + dist[k, j]), run on
        the distance matrix of a small road network
family: numeric-loop
kind: slow
verdict: AIP907
rewrite: yes: keep the loop over k and replace the i and j loops by dist = np.minimum(dist, dist[:, k, None] + dist[None, k, :]) (the same matrix: the same additions and comparisons)
size: 90 junctions, about 4 roads each (729,000 inner steps)
scaled: no
kernel: data
"""
# %% setup
import numpy as np

rng = np.random.default_rng(302)
V = 90
graph = np.full((V, V), np.inf)
np.fill_diagonal(graph, 0.0)
for u in range(V):
    for v in rng.choice(V, 2, replace=False):
        if u != v:
            graph[u, v] = graph[v, u] = round(float(rng.uniform(1, 20)), 1)
# %% cell
dist = graph.copy()
for k in range(V):  # expect: AIP201
    for i in range(V):  # expect: AIP201
        for j in range(V):  # expect: AIP201
            if dist[i, k] + dist[k, j] < dist[i, j]:  # expect: AIP201
                dist[i, j] = dist[i, k] + dist[k, j]  # expect: AIP201
diameter = dist[np.isfinite(dist)].max()
