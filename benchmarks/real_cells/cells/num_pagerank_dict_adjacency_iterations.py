# ruff: noqa
"""PageRank by power iteration over a dict of out-links: every iteration walks every edge in Python, adding each page's share to its targets.

source: graph-algorithm tutorials and web-search course notebooks that implement PageRank before
        networkx.pagerank (links as {page: [targets]}; rank = {p: 1 / N}; each iteration starts
        new_rank at (1 - d) / N and adds d * rank[p] / len(outs) to every target, until the
        ranks stop moving), on a link graph of a site crawl
family: numeric-loop
kind: slow
verdict: AIP907
rewrite: yes: keep the iteration loop; with the edges as index arrays src, dst and out_degree, new = (1 - d) / N + d * np.bincount(dst, weights=rank[src] / out_degree[src], minlength=N) (the same ranks up to rounding)
size: 8,000 pages, 40,000 links, 30 iterations (1,200,000 edge updates)
scaled: no
kernel: data
unsure: the ranks live in dicts keyed by page, not in arrays, so the fix also changes the data
        structure; the iteration loop is a recurrence (each needs the last) and stays
"""
# %% setup
import numpy as np

rng = np.random.default_rng(404)
N_PAGES = 8_000
popularity = 1.0 / np.arange(1, N_PAGES + 1) ** 0.8
popularity /= popularity.sum()
links = {}
for page in range(N_PAGES):
    targets = set(rng.choice(N_PAGES, 5, p=popularity).tolist()) - {page}
    links[f"/page/{page}"] = [f"/page/{t}" for t in sorted(targets)] or ["/page/0"]
d = 0.85
# %% cell
N = len(links)
rank = {page: 1 / N for page in links}
for iteration in range(30):
    new_rank = {page: (1 - d) / N for page in links}
    for page, outs in links.items():  # expect: AIP201
        share = d * rank[page] / len(outs)  # expect: AIP201
        for target in outs:  # expect: AIP201
            new_rank[target] += share  # expect: AIP201
    delta = sum(abs(new_rank[p] - rank[p]) for p in links)
    rank = new_rank
top_pages = sorted(rank, key=rank.get, reverse=True)[:10]
