"""What does %%aiperf cost? Workloads run interleaved under each mode; medians and ratios to plain.

    python benchmarks/overhead.py            # full run (~5 min on 2 cores)
    python benchmarks/overhead.py --quick    # smaller workloads, 3 repeats
    python benchmarks/overhead.py --first-call-only --compare-with OTHER_CHECKOUT
    python benchmarks/overhead.py --split "dict appends" --repeat 80   # inside the cell / around it

Modes: plain execution, %%time, %%aiperf (every thread sampled, the default), %%aiperf sampling the
cell's thread only (as before every thread was), %%aiperf --no-hotspots, and where installed
pyinstrument's %%pyinstrument, Scalene's %%scalene and line_profiler's %%lprun_all. Also the fixed
cost of an empty %%aiperf cell, the time of %load_ext aiperf_magic, and the first %%aiperf of a
kernel, right after %load_ext and after a pause (all in fresh processes; ``--compare-with`` times
another checkout of aiperf the same way, side by side).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
PYTHON = sys.executable  # Scalene's magic swaps sys.executable for a wrapper of its own

# run once before a workload, unmeasured: what the notebook's earlier cells defined
SETUP = {
    "thread pool": ("def work(n):\n    total = 0\n    for i in range(n):\n        total += i * i % 7\n"
                    "    return total\n"),
    "function loop": ("import numpy as np\ndef compute_reciprocals(values):\n    output = np.empty(len(values))\n"
                      "    for i in range(len(values)):\n        output[i] = 1.0 / values[i]\n    return output\n"),
}
WORKLOADS = {
    "python loop": "total = 0\nfor i in range({n_loop}):\n    total += i * i % 7\n",
    "numpy matmul": ("import numpy as np\nrng = np.random.default_rng(0)\na = rng.random((900, 900))\n"
                     "for _ in range({n_mm}):\n    b = a @ a\n"),
    "pandas groupby": ("import numpy as np, pandas as pd\nrng = np.random.default_rng(0)\n"
                       "df = pd.DataFrame({{'k': rng.integers(0, 1000, {n_rows}), 'v': rng.random({n_rows})}})\n"
                       "for _ in range(8):\n    g = df.groupby('k')['v'].agg(['mean', 'std', 'max'])\n"),
    "sleep loop": "import time\nfor _ in range({n_sleep}):\n    time.sleep(0.01)\n",
    "thread pool": ("from concurrent.futures import ThreadPoolExecutor\nwith ThreadPoolExecutor(4) as pool:\n"
                    "    totals = list(pool.map(work, [{n_pool}] * 8))\n"),
    "function loop": "values = np.arange(1, {n_values} + 1)\nresult = compute_reciprocals(values)\n",
    "dict appends": "rows = []\nfor i in range({n_dicts}):\n    rows.append({{'id': i, 'v': i * 0.5}})\n",
}
SIZES = {"full": dict(n_loop=18_000_000, n_mm=40, n_rows=2_000_000, n_sleep=100, n_pool=1_500_000,
                      n_values=3_000_000, n_dicts=400_000),
         "quick": dict(n_loop=2_000_000, n_mm=10, n_rows=500_000, n_sleep=30, n_pool=300_000,
                       n_values=500_000, n_dicts=400_000)}
CELL_THREAD_ONLY = "%%aiperf, cell thread only"


def available_modes(shell) -> dict[str, str]:
    modes = {"plain": "", "%%time": "%%time\n", "%%aiperf": "%%aiperf --text\n",
             CELL_THREAD_ONLY: "%%aiperf --text\n", "%%aiperf --no-hotspots": "%%aiperf --text --no-hotspots\n"}
    for ext, magic, prefix in (("pyinstrument", "pyinstrument", "%%pyinstrument\n"),
                               ("scalene", "scalene", "%%scalene\n"),
                               ("line_profiler", "lprun_all", "%%lprun_all\n")):
        try:
            shell.run_line_magic("load_ext", ext)
        except Exception:
            continue
        if shell.find_cell_magic(magic) is not None:
            modes[f"%%{magic}"] = prefix
    return modes


def time_cell(shell, code: str) -> float:
    from IPython.utils.capture import capture_output

    with capture_output():
        t0 = time.perf_counter()
        result = shell.run_cell(code, store_history=False)
        elapsed = time.perf_counter() - t0
    if not result.success:
        raise RuntimeError(f"benchmark cell failed: {result.error_in_exec or result.error_before_exec}")
    return elapsed


def time_mode(shell, modes: dict[str, str], mode: str, body: str) -> float:
    """One run of ``body`` under ``mode``; the cell-thread-only mode switches the all-thread sampler off."""
    from aiperf_magic.measure import hotspots

    hotspots.SAMPLE_ALL_THREADS = mode != CELL_THREAD_ONLY
    try:
        return time_cell(shell, modes[mode] + body)
    finally:
        hotspots.SAMPLE_ALL_THREADS = True


def run_workloads(shell, repeat: int, size: str, only: list[str] | None = None) -> None:
    modes = available_modes(shell)
    rng = random.Random(1)
    print(f"{'workload':<16}" + "".join(f"{m:>26}" for m in modes))
    for name, template in WORKLOADS.items():
        if only and name not in only:
            continue
        body = template.format(**SIZES[size])
        times: dict[str, list[float]] = {m: [] for m in modes}
        if name in SETUP:
            time_cell(shell, SETUP[name])
        time_cell(shell, body)  # warm-up: imports, caches
        for _ in range(repeat):
            order = list(modes)
            rng.shuffle(order)  # interleaved, in a different order each round
            for mode in order:
                times[mode].append(time_mode(shell, modes, mode, body))
        plain = statistics.median(times["plain"])
        cells, paired = [], []
        for mode in modes:
            med = statistics.median(times[mode])
            cells.append(f"{med:8.3f} s ({med / plain:5.3f}x)")
            # each round's ratio to that round's plain run: steadier than the medians on a busy machine
            ratios = (t / p for t, p in zip(times[mode], times["plain"], strict=True))
            paired.append(f"paired {statistics.median(ratios):5.3f}x")
        print(f"{name:<16}" + "".join(f"{c:>26}" for c in cells))
        print(f"{'':<16}" + "".join(f"{c:>26}" for c in paired))


def split_cost(shell, repeat: int, name: str, size: str) -> None:
    """Where %%aiperf's cost on one workload goes: inside the cell (the sampler's ticks slowing it)
    and around it (starting the measurement, the report after it). IPython's events stamp the cell's
    start (after aiperf's own pre_run_cell) and end (post_execute, before aiperf's post_run_cell);
    plain and %%aiperf runs alternate, and each figure is the median of each round's difference."""
    body = WORKLOADS[name].format(**SIZES[size])
    stamps: dict[str, float] = {}

    def began(*_: object) -> None:
        stamps["begin"] = time.perf_counter()

    def ended() -> None:
        stamps["end"] = time.perf_counter()

    shell.events.register("pre_run_cell", began)
    shell.events.register("post_execute", ended)
    try:
        if name in SETUP:
            time_cell(shell, SETUP[name])
        runs: dict[str, list[tuple[float, float]]] = {"plain": [], "%%aiperf": []}
        prefixes = {"plain": "", "%%aiperf": "%%aiperf --text\n"}
        for index in range(repeat + 2):
            for mode in (("plain", "%%aiperf") if index % 2 else ("%%aiperf", "plain")):
                total = time_cell(shell, prefixes[mode] + body)
                if index >= 2:  # the first two rounds warm up
                    runs[mode].append((total, stamps["end"] - stamps["begin"]))
    finally:
        shell.events.unregister("pre_run_cell", began)
        shell.events.unregister("post_execute", ended)
    pairs = list(zip(runs["%%aiperf"], runs["plain"], strict=True))
    plain = statistics.median(p[0] for p in runs["plain"])
    total = statistics.median(a[0] - p[0] for a, p in pairs)
    inside = statistics.median(a[1] - p[1] for a, p in pairs)
    around = statistics.median((a[0] - a[1]) - (p[0] - p[1]) for a, p in pairs)
    ratio = statistics.median(a[0] / p[0] for a, p in pairs)
    print(f"\n{name}: plain {plain * 1e3:.1f} ms; %%aiperf {total * 1e3:+.2f} ms ({ratio:.3f}x), of it "
          f"{inside * 1e3:+.2f} ms inside the cell and {around * 1e3:+.2f} ms around it "
          f"(medians of {repeat} alternated pairs, load {os.getloadavg()[0]:.1f})")


def empty_cell_cost(shell, repeat: int = 40) -> None:
    plain, magic = [], []
    for _ in range(repeat):
        plain.append(time_cell(shell, "pass\n"))
        magic.append(time_cell(shell, "%%aiperf --text\npass\n"))
    cost = statistics.median(magic) - statistics.median(plain)
    print(f"\nempty cell: plain {statistics.median(plain) * 1e3:.2f} ms, %%aiperf "
          f"{statistics.median(magic) * 1e3:.2f} ms -> fixed cost {cost * 1e3:.1f} ms per cell")


def fresh_runs(code: str, root: Path, repeat: int) -> list[list[float]]:
    """Run ``code`` (printing one JSON list of seconds) in ``repeat`` fresh processes importing aiperf
    from ``root``."""
    import json

    runs = []
    for _ in range(repeat):
        out = subprocess.run([PYTHON, "-c", code], capture_output=True, text=True, check=True,
                             cwd=root, env={**os.environ, "PYTHONPATH": str(root)})
        runs.append(json.loads(out.stdout.strip().splitlines()[-1]))
    return runs


LOAD_EXT = ("import json, time\nfrom IPython.testing.globalipapp import get_ipython\nip = get_ipython()\n"
            "t0 = time.perf_counter()\nip.run_line_magic('load_ext', 'aiperf_magic')\n"
            "print(json.dumps([time.perf_counter() - t0]))\n")
# the first %%aiperf of a kernel: right after %load_ext (Run All), after a pause of PAUSE_S (a person
# reading), and the second one; an empty cell each time
PAUSE_S = 1.0
FIRST_CALL = ("import json, time\nfrom IPython.testing.globalipapp import get_ipython\n"
              "from IPython.utils.capture import capture_output\nip = get_ipython()\n"
              "def timed(code):\n    with capture_output():\n        t0 = time.perf_counter()\n"
              "        ip.run_cell(code, store_history=False)\n        return time.perf_counter() - t0\n"
              "ip.run_line_magic('load_ext', 'aiperf_magic')\n"
              "{pause}first = timed('%%aiperf --text\\npass\\n')\nsecond = timed('%%aiperf --text\\npass\\n')\n"
              "print(json.dumps([first, second]))\n")


def load_ext_time(repeat: int = 5, roots: dict[str, Path] | None = None) -> None:
    for label, root in (roots or {"this checkout": ROOT}).items():
        times = [r[0] for r in fresh_runs(LOAD_EXT, root, repeat)]
        print(f"%load_ext aiperf_magic ({label}): median {statistics.median(times) * 1e3:.1f} ms "
              f"over {repeat} fresh processes")


def first_call_cost(repeat: int = 5, roots: dict[str, Path] | None = None) -> None:
    """The first %%aiperf of a fresh kernel against the second, at once and after a pause."""
    for label, root in (roots or {"this checkout": ROOT}).items():
        for when, pause in (("right after %load_ext", ""), (f"{PAUSE_S:g} s after %load_ext",
                                                            f"time.sleep({PAUSE_S})\n")):
            runs = fresh_runs(FIRST_CALL.replace("{pause}", pause), root, repeat)
            first, second = (statistics.median(r[i] for r in runs) for i in (0, 1))
            print(f"first %%aiperf {when} ({label}): median {first * 1e3:.1f} ms "
                  f"(the second {second * 1e3:.1f} ms) over {repeat} fresh processes")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--repeat", type=int, default=None)
    parser.add_argument("--only", action="append", choices=list(WORKLOADS), help="run only these workloads")
    parser.add_argument("--split", metavar="WORKLOAD", choices=list(WORKLOADS),
                        help="only this workload, %%aiperf's cost split into inside the cell and around it")
    parser.add_argument("--first-call-only", action="store_true",
                        help="only %%load_ext and the first %%aiperf of a kernel, in fresh processes")
    parser.add_argument("--compare-with", metavar="DIR", type=Path,
                        help="another checkout of aiperf, timed the same way for %%load_ext and the first call")
    args = parser.parse_args()
    roots = {"this checkout": ROOT}
    if args.compare_with:
        roots[str(args.compare_with)] = args.compare_with.resolve()
    if args.first_call_only:
        load_ext_time(roots=roots)
        first_call_cost(roots=roots)
        return
    from IPython.testing.globalipapp import get_ipython

    os.chdir(tempfile.mkdtemp(prefix="aiperf-overhead-"))  # profilers that write files write them there
    shell = get_ipython()
    shell.run_line_magic("load_ext", "aiperf_magic")
    repeat = args.repeat or (3 if args.quick else 7)
    if args.split:
        split_cost(shell, args.repeat or 60, args.split, "quick" if args.quick else "full")
        return
    print(f"Python {sys.version.split()[0]}, {repeat} interleaved repeats, medians; ratio to plain in (); "
          "below, the median of each round's own ratio")
    run_workloads(shell, repeat, "quick" if args.quick else "full", args.only)
    empty_cell_cost(shell)
    load_ext_time(roots=roots)
    first_call_cost(roots=roots)


if __name__ == "__main__":
    main()
