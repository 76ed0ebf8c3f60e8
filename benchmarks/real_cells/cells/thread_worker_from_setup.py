# ruff: noqa
"""Threads started on a tokenising function from an earlier cell, one thread per shard of text.

source: NLP preprocessing notebooks that "parallelise" counting with threading.Thread over shards
        (the worker defined in one cell, threads started in the next)
family: threads
kind: slow
verdict: AIP902
rewrite: yes: a process pool over the shards (or one Counter over all the text)
size: 4 shards of 2,500 reviews of 30 words
scaled: no
kernel: data
"""
# %% setup
import re
import threading
from collections import Counter

from cell_data import reviews

texts = reviews(10_000, seed=91)
shards = [texts[i::4] for i in range(4)]


def tokenize_shard(lines, results):
    counts = Counter()
    for line in lines:
        for token in re.findall(r"[a-z]+", line.lower()):
            counts[token[:6]] += 1
    results.append(counts)
# %% cell
results = []
threads = []
for shard in shards:
    t = threading.Thread(target=tokenize_shard, args=(shard, results))  # expect: AIP401
    t.start()
    threads.append(t)
for t in threads:
    t.join()
total = sum(results, Counter())
