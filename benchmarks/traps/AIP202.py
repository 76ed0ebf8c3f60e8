"""AIP202: 10,000 membership tests against a 10,000-item list vs a set."""

import random

from _timing import compare, report

N = 10_000
items = [f"token{i}" for i in range(N)]
queries = random.Random(0).choices(items, k=N)
as_set = set(items)
slow, fast = compare(lambda: [q for q in queries if q in items], lambda: [q for q in queries if q in as_set], repeat=3)
report("AIP202", f"{N:,} lookups into {N:,} items", "list", "set", slow, fast)
