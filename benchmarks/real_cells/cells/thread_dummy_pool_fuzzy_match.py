# ruff: noqa
"""Fuzzy matching of messy company names spread over multiprocessing.dummy's thread Pool: pure-Python edit distances, so the GIL runs one thread at a time.

source: the blog post "Parallelism in one line" (from multiprocessing.dummy import Pool as
        ThreadPool; pool = ThreadPool(4); results = pool.map(function, items)) applied, as in
        record-linkage notebooks, to a best-match function that computes a hand-written
        Levenshtein distance (from an earlier cell) to each canonical name
family: threads
kind: slow
verdict: AIP902|AIP907
rewrite: yes: a process pool (multiprocessing.Pool) for the same function, or a C edit distance (rapidfuzz.process.extractOne): the same matches
size: 60 messy names against 150 canonical names (9,000 distances of 10 to 20 characters)
scaled: no
kernel: data
"""
# %% setup
import random

random.seed(319)
letters = "abcdefghijklmnopqrstuvwxyz"
canonical = ["".join(random.choice(letters) for _ in range(random.randint(8, 14))) + " ltd" for _ in range(150)]


def corrupt(name):
    chars = list(name)
    for _ in range(2):
        chars[random.randrange(len(chars))] = random.choice(letters)
    return "".join(chars).upper() if random.random() < 0.3 else "".join(chars)


dirty_names = [corrupt(random.choice(canonical)) for _ in range(60)]


def levenshtein(s, t):
    s, t = s.lower(), t.lower()
    prev = list(range(len(t) + 1))
    for i, cs in enumerate(s, 1):
        cur = [i]
        for j, ct in enumerate(t, 1):
            cur.append(min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (cs != ct)))
        prev = cur
    return prev[-1]
# %% cell
from multiprocessing.dummy import Pool as ThreadPool


def best_match(name):
    scores = [levenshtein(name, c) for c in canonical]  # expect: AIP401
    best = min(range(len(scores)), key=scores.__getitem__)
    return name, canonical[best], scores[best]


pool = ThreadPool(4)  # expect: AIP401
matches = pool.map(best_match, dirty_names)  # expect: AIP401
pool.close()
pool.join()
