"""What does the runtime diagnosis cost, and what do the suggested dtypes save?

    python benchmarks/frames.py            # frames of 1e5, 1e6 and 1e7 rows (~1 min, ~3 GB of RAM)
    python benchmarks/frames.py --quick    # 1e5 and 1e6 rows only

1. Time to profile a mixed-dtype frame (``profile_frame``), median of interleaved repeats, and the
   time of the before-cell snapshot of that frame.
2. Memory saved by the suggested dtypes (MB = 10^6 bytes here) on a realistic frame (numeric columns and low-cardinality
   strings), per kind of change, next to the figures the seed article gives.
3. The ThreadProbe's cost per sampler tick with 1, 8 and 32 parked threads.
4. The object-heavy cell (20 frames of 300 object columns x 20,000 rows) under ``%%aiperf``: the
   body's time next to the whole cell's, which adds the work after the cell (bounded by its budget:
   0.5 s or a quarter of the body, whichever is longer) and the report.

    python benchmarks/frames.py --heavy-only              # section 4 alone (~1 GB of RAM)
    python benchmarks/frames.py --heavy-only --budget 5   # the same with %%aiperf --budget 5
"""

from __future__ import annotations

import argparse
import statistics
import sys
import threading
import time
from pathlib import Path

import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from aiperf_magic.measure.frames import profile_frame, snapshot
from aiperf_magic.measure.probes.threads import ThreadProbe

CITIES = np.array(["Paris", "Lyon", "Nice", "Lille", "Nantes", "Brest", "Rennes", "Dijon"], dtype=object)


def mixed_frame(rows: int, seed: int = 0) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    return pd.DataFrame(
        {
            "store": rng.integers(0, 200, rows),  # int64 holding 0..199
            "qty": rng.integers(-50, 50, rows),  # int64 holding -50..49
            "user": rng.integers(0, 2_000_000, rows),  # int64 holding < 2**31
            "price": rng.integers(0, 40_000, rows) / 4,  # float64, exact in float32
            "score": rng.random(rows),  # float64, rounds in float32
            "city": pd.Series(rng.choice(CITIES, rows)).astype(object),  # low-cardinality strings
            "channel": pd.Series(rng.choice(np.array(["web", "app", "shop"], dtype=object), rows)),
        }
    )


def profile_times(sizes: list[int], repeat: int) -> None:
    print("1. Profiling time per frame (7 columns: 3 int64, 2 float64, 2 strings)")
    print(f"   {'rows':>10}  {'profile median':>15}  {'min':>8}  {'max':>8}  {'snapshot':>9}  measured on")
    frames = {n: mixed_frame(n) for n in sizes}
    times: dict[int, list[float]] = {n: [] for n in sizes}
    snaps: dict[int, list[float]] = {n: [] for n in sizes}
    for _ in range(repeat):  # interleaved: each round visits every size once
        for n, frame in frames.items():
            t0 = time.perf_counter()
            prof = profile_frame("df", frame)
            times[n].append(time.perf_counter() - t0)
            t0 = time.perf_counter()
            snapshot({"df": frame})
            snaps[n].append(time.perf_counter() - t0)
    for n in sizes:  # one more run to say what was measured how
        prof = profile_frame("df", frames[n])
        where = [*sorted({c.measured_on for c in prof.columns}), f"{len(prof.columns)}/7 columns"]
        print(
            f"   {n:>10,}  {statistics.median(times[n]):>13.3f} s  {min(times[n]):>6.3f} s  "
            f"{max(times[n]):>6.3f} s  {statistics.median(snaps[n]) * 1e6:>6.0f} µs  {', '.join(where)}"
        )


def savings(rows: int) -> None:
    print(f"\n2. Memory saved by the suggested dtypes ({rows:,}-row frame, converted for real)")
    frame = mixed_frame(rows, seed=1)
    prof = profile_frame("df", frame)
    converted = frame.astype({c.name: c.suggested_dtype for c in prof.columns if c.suggested_dtype})
    seed = {"float32": "~50 %", "category": "~70 %+"}
    print(f"   {'column':>8}  {'from':>7} → {'to':<9} {'before':>9}  {'after':>9}  {'saved':>6}  seed  safe")
    total_before = total_after = 0
    for c in prof.columns:
        before = int(frame[c.name].memory_usage(index=False, deep=True))
        after = int(converted[c.name].memory_usage(index=False, deep=True))
        total_before, total_after = total_before + before, total_after + after
        to = c.suggested_dtype or "-"
        claim = seed.get(to, "50-90 %" if to.startswith(("int", "uint")) else "")
        print(
            f"   {c.name:>8}  {c.dtype:>7} → {to:<9} {before / 1e6:>7.1f}MB  {after / 1e6:>7.1f}MB  "
            f"{100 * (1 - after / before):>5.0f}%  {claim:>6}  {c.safe if c.suggested_dtype else ''}"
        )
    print(
        f"   {'frame':>8}  {'':>7}   {'':<9} {total_before / 1e6:>7.1f}MB  {total_after / 1e6:>7.1f}MB  "
        f"{100 * (1 - total_after / total_before):>5.0f}%   (profiler's estimate: {prof.saving_bytes / 1e6:.1f} MB)"
    )


def probe_cost(ticks: int) -> None:
    print("\n3. ThreadProbe cost per tick (median of", ticks, "ticks)")
    for parked in (1, 8, 32):
        stop = threading.Event()
        threads = [threading.Thread(target=stop.wait) for _ in range(parked)]
        for t in threads:
            t.start()
        probe = ThreadProbe()
        probe.start()
        costs = []
        for _ in range(ticks):
            row: dict[str, object] = {}
            t0 = time.perf_counter()
            probe.sample(row)
            costs.append(time.perf_counter() - t0)
        probe.stop()
        stop.set()
        for t in threads:
            t.join()
        print(f"   {parked + 1:>3} Python threads: {statistics.median(costs) * 1e6:6.1f} µs per tick")


HEAVY_BODY = """\
import numpy as np, pandas as pd
words = np.array(["alpha", "beta", "gamma", "delta"], dtype=object)
rng = np.random.default_rng(0)
for i in range({frames}):
    globals()[f"df{{i}}"] = pd.DataFrame(words[rng.integers(0, 4, ({rows}, {columns}))], dtype=object)
"""


def object_heavy(frames: int, columns: int, rows: int, budget: float | None) -> None:
    """Section 4, in IPython's own shell: the cell's body vs the whole cell, seen from outside."""
    from IPython.testing.globalipapp import get_ipython
    from IPython.utils.capture import capture_output

    ip = get_ipython()
    ip.run_line_magic("load_ext", "aiperf_magic")
    ip.run_cell("import numpy, pandas")  # imports are not the cell's work
    with capture_output():
        ip.run_cell("%%aiperf --text --no-gpu\nwarm = 1")  # aiperf's own first-use imports neither
    options = "--text --no-gpu --var _bench" + (f" --budget {budget:g}" if budget is not None else "")
    body = HEAVY_BODY.format(frames=frames, columns=columns, rows=rows)
    with capture_output():
        t0 = time.perf_counter()
        ip.run_cell(f"%%aiperf {options}\n{body}")
        whole = time.perf_counter() - t0
    report = ip.user_ns["_bench"]
    profiled = sum(len(f.columns) for f in report.frames)
    print(f"\n4. Object-heavy cell: {frames} frames x {columns} object columns x {rows:,} rows ({options})")
    print(f"   body {report.wall_s:6.2f} s   whole cell {whole:6.2f} s   after the body {whole - report.wall_s:5.2f} s")
    print(f"   frames profiled {len(report.frames)} of {frames}, columns profiled {profiled} of {frames * columns}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="skip the 10-million-row frame")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--heavy-only", action="store_true", help="only section 4, the object-heavy cell")
    parser.add_argument("--budget", type=float, default=None, help="%%%%aiperf --budget for section 4")
    parser.add_argument("--heavy", default="20,300,20000", help="frames,columns,rows of section 4")
    args = parser.parse_args()
    frames, columns, rows = (int(x) for x in args.heavy.split(","))
    if args.heavy_only:
        object_heavy(frames, columns, rows, args.budget)
        return
    print(f"pandas {pd.__version__}, numpy {np.__version__}, Python {sys.version.split()[0]}\n")
    sizes = [100_000, 1_000_000] + ([] if args.quick else [10_000_000])
    profile_times(sizes, args.repeat)
    savings(1_000_000)
    probe_cost(2000)
    object_heavy(frames, columns, rows, args.budget)


if __name__ == "__main__":
    main()
