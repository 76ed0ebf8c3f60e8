"""What does %aiperf auto cost? Two notebooks run under each mode, interleaved; medians and ratios.

    python benchmarks/auto_overhead.py            # 7 repeats (~2 min on 2 cores)
    python benchmarks/auto_overhead.py --quick    # 3 repeats, shorter slow cells

Notebooks: 100 small cells (assignments, small comprehensions, function definitions, a print) and
5 slow cells (Python loop, numpy matmul, pandas groupby, sleep, sorting). Modes: auto off; auto on
without the static scan (the measurement alone); auto on (measurement and scan). Each repeat runs
every mode once, in a shuffled order, cell by cell in a real IPython shell, timing each cell from
outside (hooks included). Goal: ≤ 1.01× on slow cells, < 2 ms added per small cell.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

SMALL = [
    "a{i} = {i}",
    "b{i} = [x * x for x in range(50)]",
    "def f{i}(x):\n    return x + {i}\n",
    "c{i} = f{j}({i}) if 'f{j}' in dir() else {i}",
    "d{i} = {{'k': {i}, 'v': str({i})}}\nd{i}['k'] += 1",
    "e{i} = sum(range(200))",
    "import math\ng{i} = math.sqrt({i} + 1)",
    "print('cell {i}')",
    "h{i} = sorted([3, 1, 2] * 10)",
    "s{i} = ', '.join(str(x) for x in range(20))",
]
SLOW = {
    "python loop": "total = 0\nfor i in range({n_loop}):\n    total += i * i % 7\n",
    "numpy matmul": ("import numpy as np\nrng = np.random.default_rng(0)\nm = rng.random((700, 700))\n"
                     "for _ in range({n_mm}):\n    m2 = m @ m\n"),
    "pandas groupby": ("import numpy as np, pandas as pd\nrng = np.random.default_rng(0)\n"
                       "df = pd.DataFrame({{'k': rng.integers(0, 1000, {n_rows}),\n"
                       "                   'v': rng.random({n_rows})}})\n"
                       "for _ in range(4):\n    g = df.groupby('k')['v'].agg(['mean', 'std'])\n"),
    "sleep": "import time\ntime.sleep({sleep})\n",
    "sort": ("import random\nrandom.seed(0)\nxs = [random.random() for _ in range({n_sort})]\n"
             "ys = sorted(xs)\n"),
}
SIZES = {"full": dict(n_loop=3_000_000, n_mm=12, n_rows=1_000_000, sleep=0.5, n_sort=1_000_000),
         "quick": dict(n_loop=1_000_000, n_mm=4, n_rows=300_000, sleep=0.2, n_sort=300_000)}


def small_notebook() -> list[str]:
    return [SMALL[i % len(SMALL)].format(i=i, j=max(0, i - 1)) for i in range(100)]


def slow_notebook(size: str) -> list[str]:
    return [template.format(**SIZES[size]) for template in SLOW.values()]


def run_notebook(shell, cells: list[str]) -> list[tuple[float, float]]:
    """(wall, process CPU) seconds of each cell, hooks included."""
    from IPython.utils.capture import capture_output

    times = []
    with capture_output():
        for code in cells:
            t0, c0 = time.perf_counter(), time.process_time()
            result = shell.run_cell(code, store_history=True)
            times.append((time.perf_counter() - t0, time.process_time() - c0))
            if not result.success:
                error = result.error_in_exec or result.error_before_exec
                raise RuntimeError(f"benchmark cell failed: {error}")
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--repeat", type=int, default=None)
    parser.add_argument("--verbose", action="store_true", help="print every repeat")
    args = parser.parse_args()
    from IPython.testing.globalipapp import get_ipython

    from aiperf_magic.ipython.commands.auto import AutoMode

    shell = get_ipython()
    shell.run_line_magic("load_ext", "aiperf_magic")
    state = shell._aiperf_magics.state
    silent = AutoMode(shell, state, echo=lambda line: None)  # notes would only add printing time
    bare = AutoMode(shell, state, echo=lambda line: None, scan=lambda source, namespace=None: [])
    modes = {"off": None, "on, no scan": bare, "on": silent}
    repeat = args.repeat or (3 if args.quick else 7)
    notebooks = {"100 small cells": small_notebook(),
                 "5 slow cells": slow_notebook("quick" if args.quick else "full")}
    for cells in notebooks.values():
        run_notebook(shell, cells)  # warm-up: imports, caches, the rule engine
    silent.on()
    run_notebook(shell, notebooks["100 small cells"])
    silent.close()

    times: dict[tuple[str, str], list[list[tuple[float, float]]]] = {(nb, m): [] for nb in notebooks for m in modes}
    rng = random.Random(1)
    for _ in range(repeat):
        for nb, cells in notebooks.items():
            order = list(modes)
            rng.shuffle(order)
            for m in order:
                mode = modes[m]
                if mode is not None:
                    mode.on(threshold_s=1.0)
                try:
                    times[nb, m].append(run_notebook(shell, cells))
                finally:
                    if mode is not None:
                        mode.close()
    report(times, notebooks, list(modes), repeat, getattr(silent.scan, "available", False), args.verbose)
    tick_cost()


def tick_cost(reads: int = 30) -> None:
    """The sampling share of a long cell: one reading of every probe, against the 100 ms interval."""
    from aiperf_magic.ipython.commands.auto import INTERVAL_MS, default_probes

    probes = default_probes()
    for probe in probes:
        probe.open()
    try:
        costs = []
        for _ in range(reads):
            row: dict = {}
            t0 = time.perf_counter()
            for probe in probes:
                probe.probe.sample(row)
            costs.append(time.perf_counter() - t0)
            time.sleep(INTERVAL_MS / 1000)  # NVML is read at most once per interval, as in a cell
    finally:
        for probe in probes:
            probe.close()
    cost = statistics.median(costs)
    gpu = "with" if row.get("gpus") else "without"
    print(f"one reading of the probes ({gpu} a GPU): median {cost * 1e6:.0f} µs = "
          f"{cost / (INTERVAL_MS / 1000) * 100:.2f}% of a long cell at one reading per {INTERVAL_MS:.0f} ms")


def report(times: dict[tuple[str, str], list[list[tuple[float, float]]]], notebooks: dict[str, list[str]],
           modes: list[str], repeat: int, engine: bool, verbose: bool) -> None:
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"Python {sys.version.split()[0]}, {os.cpu_count()} CPUs, load average {load:.1f}; "
          f"{repeat} interleaved repeats; {'rule engine loaded' if engine else 'no rule engine'}; "
          "sampling every 100 ms")
    # Wall time is what the user waits; process CPU time (every thread of the kernel) is the work
    # auto mode adds, and is far less disturbed by other programs on a busy machine.
    for index, metric in ((0, "wall"), (1, "CPU")):
        print(f"\n{metric + ' time':<17}{'mode':<13}{'total':>9}{'ratio':>8}{'added/cell':>12}"
              f"{'median cell':>13}{'added':>10}")
        for nb, cells in notebooks.items():
            off_total = statistics.median(sum(c[index] for c in r) for r in times[nb, "off"])
            off_cell = statistics.median(c[index] for r in times[nb, "off"] for c in r)
            for m in modes:
                total = statistics.median(sum(c[index] for c in r) for r in times[nb, m])
                cell = statistics.median(c[index] for r in times[nb, m] for c in r)
                added = "" if m == "off" else f"{(total - off_total) / len(cells) * 1e3:+8.2f} ms"
                added_cell = "" if m == "off" else f"{(cell - off_cell) * 1e3:+7.2f} ms"
                print(f"{nb:<17}{m:<13}{total:8.3f}s{total / off_total:7.3f}x{added:>12}"
                      f"{cell * 1e3:10.2f} ms{added_cell:>10}")
        slow = list(notebooks)[1]
        for m in modes[1:]:
            ratios = [statistics.median(r[i][index] for r in times[slow, m])
                      / max(1e-9, statistics.median(r[i][index] for r in times[slow, "off"]))
                      for i in range(len(notebooks[slow]))]
            each = ", ".join(f"{name} {ratio:.3f}x" for name, ratio in zip(SLOW, ratios, strict=True)
                             if metric == "wall" or name != "sleep")  # a sleeping cell uses no CPU
            print(f"  slow cells, {m}: {each}")
    print("\ntotal: median over repeats of the notebook's summed cell times; added/cell: (total on - total off)"
          " / cells; median cell: median of every cell time of every repeat")
    if verbose:
        for key, runs in times.items():
            print(key, [round(sum(c[0] for c in r), 3) for r in runs])

if __name__ == "__main__":
    main()
