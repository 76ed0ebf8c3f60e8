# ruff: noqa
"""Breadth-first search of a friendship graph with a visited list: each neighbour is looked up in it.

source: BFS tutorials and interview-preparation notebooks (visited = []; queue = []; def
        bfs(visited, graph, node): ... while queue: m = queue.pop(0); for neighbour in graph[m]:
        if neighbour not in visited: visited.append(neighbour); queue.append(neighbour)), run on an
        adjacency dict of a social network
family: membership
kind: slow
verdict: AIP907
rewrite: yes: visited as a set beside the order list (and collections.deque for the queue): the same visiting order
size: 5,000 people, about 8 friends each
scaled: no
kernel: data
"""
# %% setup
import random

random.seed(210)
n = 5_000
graph = {person: set() for person in range(n)}
for _ in range(n * 4):
    a, b = random.randrange(n), random.randrange(n)
    if a != b:
        graph[a].add(b)
        graph[b].add(a)
graph = {person: sorted(friends) for person, friends in graph.items()}
# %% cell
visited = []
queue = []


def bfs(visited, graph, node):
    visited.append(node)
    queue.append(node)
    while queue:
        m = queue.pop(0)
        for neighbour in graph[m]:  # expect: AIP202
            if neighbour not in visited:  # expect: AIP202
                visited.append(neighbour)
                queue.append(neighbour)


bfs(visited, graph, 0)  # expect: AIP202
reached = len(visited)
