"""How many iterations make a loop cell take a given time on this machine (for benchmarks only)."""

from __future__ import annotations

import time


def timed(cell: str, name: str, n: int) -> float:
    """Seconds ``cell`` takes with ``name`` bound to ``n``."""
    t = time.perf_counter()
    exec(cell, {name: n})
    return time.perf_counter() - t


def iterations(cell: str, name: str, target_s: float, start: int, tries: int) -> int:
    """The ``n`` that makes ``cell`` take ``target_s``, from the fastest of ``tries`` timings at ``start``."""
    best = min(timed(cell, name, start) for _ in range(tries))
    return max(1, int(start * target_s / best))
