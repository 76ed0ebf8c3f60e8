# ruff: noqa
"""A route network built edge by edge with iterrows and G.add_edge, then its busiest airports.

source: network-analysis notebooks on the OpenFlights routes (and tutorials loading an edge list
        into networkx: for _, row in routes.iterrows(): G.add_edge(row["source"], row["dest"],
        airline=row["airline"])), before nx.from_pandas_edgelist
family: row-loop
kind: slow
verdict: AIP907
rewrite: yes: nx.from_pandas_edgelist(routes, "source", "dest", edge_attr="airline", create_using=nx.DiGraph) (the same graph)
size: 25,000 routes between 3,300 airports
scaled: yes: OpenFlights' routes.dat has 67,663 routes (the same loop takes about 2.7 times as long); a little over a third of them
kernel: data
"""
# %% setup
import networkx as nx
import numpy as np
import pandas as pd

rng = np.random.default_rng(203)
airports = np.array([f"A{i:04d}" for i in range(3_300)])
weights = 1.0 / np.arange(1, 3_301) ** 0.8
weights /= weights.sum()
routes = pd.DataFrame({
    "airline": rng.choice(np.array([f"L{i:03d}" for i in range(560)]), 25_000),
    "source": rng.choice(airports, 25_000, p=weights),
    "dest": rng.choice(airports, 25_000, p=weights),
})
# %% cell
G = nx.DiGraph()
for _, row in routes.iterrows():  # expect: AIP301
    G.add_edge(row["source"], row["dest"], airline=row["airline"])  # expect: AIP301
busiest = sorted(G.degree, key=lambda pair: pair[1], reverse=True)[:10]
