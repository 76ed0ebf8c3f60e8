# ruff: noqa
"""Triangles of a friendship graph counted from scratch: for every node, every pair of its neighbours is looked up in the edge list, a list of tuples scanned from the front each time.

source: graph-algorithms and network-science course notebooks that count triangles and the
        clustering coefficient by hand before networkx (edges = list of (u, v) tuples read from an
        edge-list file; for each node, for each pair of neighbours: if (a, b) in edges or (b, a) in
        edges: triangles += 1), on a SNAP-style social graph
family: membership
kind: slow
verdict: AIP907
rewrite: yes: edge_set = set(edges) | {(b, a) for a, b in edges} once, then the same loops test `(nbrs[a], nbrs[b]) in edge_set` (the same counts)
size: 320 people, 1,300 friendships
scaled: yes: SNAP's Facebook ego networks have 4,039 nodes and 88,234 edges; a small community of them
kernel: data
"""
# %% setup
import random
from collections import defaultdict

random.seed(607)
n_nodes = 320
community = [random.randrange(8) for _ in range(n_nodes)]
edges = []
seen = set()
while len(edges) < 1_300:
    u = random.randrange(n_nodes)
    v = random.randrange(n_nodes) if random.random() < 0.3 else random.choice(
        [w for w in range(n_nodes) if community[w] == community[u]])
    if u != v and (u, v) not in seen and (v, u) not in seen:
        seen.add((u, v))
        edges.append((u, v))
adj = defaultdict(list)
for u, v in edges:
    adj[u].append(v)
    adj[v].append(u)
# %% cell
triangles = 0
local_clustering = {}
for u, nbrs in adj.items():
    closed = 0
    for a in range(len(nbrs)):
        for b in range(a + 1, len(nbrs)):  # expect: AIP202
            if (nbrs[a], nbrs[b]) in edges or (nbrs[b], nbrs[a]) in edges:  # expect: AIP202
                closed += 1
    k = len(nbrs)
    local_clustering[u] = 2 * closed / (k * (k - 1)) if k > 1 else 0.0
    triangles += closed
triangles //= 3
average_clustering = sum(local_clustering.values()) / len(local_clustering)
