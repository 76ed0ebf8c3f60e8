# ruff: noqa
"""Dijkstra's shortest paths with the unvisited nodes kept in a list: min() over it, remove() from it, `in` tests on it.

source: Dijkstra tutorials and algorithms course notebooks in Python (dist = {node: inf}; unvisited
        = list(graph); while unvisited: current = min(unvisited, key=lambda node: dist[node]);
        unvisited.remove(current); for each neighbour still in unvisited, relax its distance),
        before the heapq version; run on a road network's adjacency lists
family: membership
kind: slow
verdict: AIP907
rewrite: yes: a heapq priority queue of (distance, node) with a visited set (the same distances)
size: 2,500 junctions, about 6 roads each
scaled: no
kernel: data
unsure: one trap over the loop and three lines: the list costs the min() scan most, then remove() and the `in` tests (AIP202's shape); any code on them is accepted
"""
# %% setup
import random

random.seed(309)
n_nodes = 2_500
graph = {node: [] for node in range(n_nodes)}
for node in range(n_nodes):
    for _ in range(3):
        other = random.randrange(n_nodes)
        if other != node:
            w = round(random.uniform(0.5, 12.0), 2)
            graph[node].append((other, w))
            graph[other].append((node, w))
source = 0
# %% cell
dist = {node: float("inf") for node in graph}
dist[source] = 0.0
unvisited = list(graph)
while unvisited:  # expect: *
    current = min(unvisited, key=lambda node: dist[node])  # expect: *
    unvisited.remove(current)  # expect: *
    for neighbour, weight in graph[current]:
        if neighbour in unvisited:  # expect: *
            alt = dist[current] + weight
            if alt < dist[neighbour]:
                dist[neighbour] = alt
farthest = max(dist.values())
