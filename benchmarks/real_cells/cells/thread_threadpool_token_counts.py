# ruff: noqa
"""multiprocessing's ThreadPool mapping a pure-Python token counter over documents: CPU work in threads.

source: text-preprocessing notebooks and blog posts that "parallelise" cleaning with
        from multiprocessing.pool import ThreadPool (or multiprocessing.dummy) and pool.map over
        the documents, the function a dict-counting loop over each document's tokens
family: threads
kind: slow
verdict: AIP902|AIP907
rewrite: yes: multiprocessing.Pool (processes) with the same map, or one Counter over all tokens
size: 48,000 reviews of 30 tokens, 4 threads
scaled: no
kernel: data
"""
# %% setup
from multiprocessing.pool import ThreadPool

from cell_data import reviews

docs = reviews(48_000, seed=112)
# %% cell
def count_tokens(doc):
    counts = {}
    for token in doc.split():  # expect: AIP401
        token = token.lower().strip(".,!?;:")  # expect: AIP401
        counts[token] = counts.get(token, 0) + 1  # expect: AIP401
    return counts


with ThreadPool(4) as pool:  # expect: AIP401
    per_doc = pool.map(count_tokens, docs)  # expect: AIP401
vocabulary = set().union(*per_doc)
