"""AIP104: readlines() vs iterating the file: peak Python memory and time for a 500,000-line file."""

import os
import tempfile
import tracemalloc

from _timing import compare, report

LINES = 500_000
fd, path = tempfile.mkstemp(suffix=".txt")
with os.fdopen(fd, "w") as fh:
    for i in range(LINES):
        fh.write(f"{i},sample text for line {i},{i % 7}\n")


def with_readlines() -> int:
    with open(path) as fh:
        return sum(len(line) for line in fh.readlines())


def streamed() -> int:
    with open(path) as fh:
        return sum(len(line) for line in fh)


def peak(fn) -> float:
    tracemalloc.start()
    fn()
    _, top = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return top / 2**20


slow, fast = compare(with_readlines, streamed, repeat=5)
report("AIP104", f"sum line lengths of {LINES:,} lines", "readlines()", "for line in fh", slow, fast)
print(
    f"AIP104: peak Python memory {peak(with_readlines):.1f} MiB with readlines() vs {peak(streamed):.2f} MiB streamed"
)
os.remove(path)
