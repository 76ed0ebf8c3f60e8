"""Does Try call a rewrite faster only beyond the noise, and does its cost fit the cell?

Two tables, side by side:

1. Claims. An identical rewrite, one 2x faster and one 20x faster (all with equal results), each
   tried ``--tries`` times on a cell of about ``--short-ms``: how often ``Comparison.faster`` is
   claimed, next to how often the former rule (median ratio above 1.0) would have claimed it.
2. Cost. A cell of about 1 s and one of about 3 s, tried against an identical, a 2x and a 20x
   rewrite with the cell's own time as ``expected_s`` (as ``%%aiperf`` passes it): the whole
   Try's wall time against the goal of 3x the cell plus 1 s (at least 4 s), the runs it made, its verdict, when
   its first progress line came and the longest wait between two.

    python benchmarks/try_noise.py [--tries 20] [--short-ms 5] [--repeat 5] [--long 1,3]
"""

from __future__ import annotations

import argparse
import itertools
import os
import sys
import time
from typing import Any

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
sys.path.insert(0, os.path.dirname(__file__))

from calibration import iterations, timed

from aiperf_magic import verify
from aiperf_magic.render.comparison import headline
from aiperf_magic.verification.pace import budget

CELL = "r = sum(1 for _ in range(N)) > 0\n"  # the same value for any N: work in proportion to N
REWRITES = (("identical", 1), ("2x faster", 2), ("20x faster", 20))


def calibrate(target_s: float) -> int:
    """Iterations of CELL that take ``target_s`` here (the fastest of three timings)."""
    return iterations(CELL, "N", target_s, 2_000_000 if target_s >= 0.5 else 200_000, 3)


def _timed(n: int) -> float:
    return timed(CELL, "N", n)


def _pair(n: int, factor: int) -> tuple[str, str, dict[str, Any]]:
    ns = {"__name__": "__main__", "N": n, "M": max(1, n // factor)}
    return CELL, CELL.replace("N", "M"), ns


def claims(tries: int, short_ms: float, repeat: int) -> None:
    n = calibrate(short_ms / 1e3)
    print(f"claims: a {short_ms:g} ms cell, {tries} Tries per rewrite, repeat {repeat}")
    print(f"{'rewrite':<12} {'faster now':>11} {'former rule':>12} {'speedups seen':>22} {'lowest bound':>13}")
    for label, factor in REWRITES:
        before, after, ns = _pair(n, factor)
        now = former = 0
        speedups, lows = [], []
        for _ in range(tries):
            c = verify(before, after, ns, repeat=repeat)
            assert c.equal and not (c.error or c.blocked or c.refused), c
            now += bool(c.faster)
            former += bool(c.speedup and c.speedup > 1.0)
            speedups.append(c.speedup or 0.0)
            lows.append(c.speedup_low or 0.0)
        seen = f"{min(speedups):.2f}x to {max(speedups):.2f}x"
        print(f"{label:<12} {now:>5} of {tries:<3} {former:>6} of {tries:<3} {seen:>22} {min(lows):>12.2f}x")


def cost(seconds: list[float]) -> None:
    print("\ncost: cells tried with their own time as expected_s (goal: the whole Try within 3x the cell + 1 s, "
          "at least 4 s)")
    print(f"{'cell':>6} {'rewrite':<11} {'Try':>7} {'goal':>6} {'Try/cell':>9} {'runs':>5} {'first line':>11} "
          f"{'longest gap':>12}  verdict")
    for target in seconds:
        n = calibrate(target)
        cell_s = min(_timed(n) for _ in range(2))
        for label, factor in REWRITES:
            before, after, ns = _pair(n, factor)
            stamps: list[float] = []
            start = time.monotonic()
            c = verify(before, after, ns, expected_s=cell_s, progress=lambda *_, s=stamps: s.append(time.monotonic()))
            took = time.monotonic() - start
            assert c.equal and not (c.error or c.blocked or c.refused), c
            times = [start, *stamps, start + took]
            gaps = [b - a for a, b in itertools.pairwise(times)]
            goal = budget(cell_s)
            print(
                f"{cell_s:>5.2f}s {label:<11} {took:>6.2f}s {goal:>5.1f}s {took / cell_s:>8.2f}x {c.runs:>5} "
                f"{stamps[0] - start:>10.2f}s {max(gaps):>11.2f}s  {headline(c)}"
            )


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--tries", type=int, default=20)
    ap.add_argument("--short-ms", type=float, default=5.0)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--long", default="1,3", help="cell times in seconds for the cost table")
    args = ap.parse_args()
    print(f"{os.cpu_count()} CPUs; load average {os.getloadavg()[0]:.2f}")
    claims(args.tries, args.short_ms, args.repeat)
    cost([float(s) for s in args.long.split(",") if s])


if __name__ == "__main__":
    main()
