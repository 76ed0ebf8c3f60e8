"""What does %%aiperf cost? Workloads run interleaved under each mode; medians and ratios to plain.

    python benchmarks/overhead.py            # full run (~5 min on 2 cores)
    python benchmarks/overhead.py --quick    # smaller workloads, 3 repeats

Modes: plain execution, %%time, %%aiperf, %%aiperf --no-hotspots, and where installed pyinstrument's
%%pyinstrument, Scalene's %%scalene and line_profiler's %%lprun_all. Also the fixed cost of an empty
%%aiperf cell and the time of %load_ext aiperf_magic (in fresh processes).
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

WORKLOADS = {
    "python loop": "total = 0\nfor i in range({n_loop}):\n    total += i * i % 7\n",
    "numpy matmul": ("import numpy as np\nrng = np.random.default_rng(0)\na = rng.random((900, 900))\n"
                     "for _ in range({n_mm}):\n    b = a @ a\n"),
    "pandas groupby": ("import numpy as np, pandas as pd\nrng = np.random.default_rng(0)\n"
                       "df = pd.DataFrame({{'k': rng.integers(0, 1000, {n_rows}), 'v': rng.random({n_rows})}})\n"
                       "for _ in range(8):\n    g = df.groupby('k')['v'].agg(['mean', 'std', 'max'])\n"),
    "sleep loop": "import time\nfor _ in range({n_sleep}):\n    time.sleep(0.01)\n",
}
SIZES = {"full": dict(n_loop=18_000_000, n_mm=40, n_rows=2_000_000, n_sleep=100),
         "quick": dict(n_loop=2_000_000, n_mm=10, n_rows=500_000, n_sleep=30)}


def available_modes(shell) -> dict[str, str]:
    modes = {"plain": "", "%%time": "%%time\n", "%%aiperf": "%%aiperf --text\n",
             "%%aiperf --no-hotspots": "%%aiperf --text --no-hotspots\n"}
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


def run_workloads(shell, repeat: int, size: str, only: list[str] | None = None) -> None:
    modes = available_modes(shell)
    rng = random.Random(1)
    print(f"{'workload':<16}" + "".join(f"{m:>26}" for m in modes))
    for name, template in WORKLOADS.items():
        if only and name not in only:
            continue
        body = template.format(**SIZES[size])
        times: dict[str, list[float]] = {m: [] for m in modes}
        time_cell(shell, body)  # warm-up: imports, caches
        for _ in range(repeat):
            order = list(modes)
            rng.shuffle(order)  # interleaved, in a different order each round
            for mode in order:
                times[mode].append(time_cell(shell, modes[mode] + body))
        plain = statistics.median(times["plain"])
        cells = []
        for mode in modes:
            med = statistics.median(times[mode])
            cells.append(f"{med:8.3f} s ({med / plain:5.3f}x)")
        print(f"{name:<16}" + "".join(f"{c:>26}" for c in cells))


def empty_cell_cost(shell, repeat: int = 40) -> None:
    plain, magic = [], []
    for _ in range(repeat):
        plain.append(time_cell(shell, "pass\n"))
        magic.append(time_cell(shell, "%%aiperf --text\npass\n"))
    cost = statistics.median(magic) - statistics.median(plain)
    print(f"\nempty cell: plain {statistics.median(plain) * 1e3:.2f} ms, %%aiperf "
          f"{statistics.median(magic) * 1e3:.2f} ms -> fixed cost {cost * 1e3:.1f} ms per cell")


def load_ext_time(repeat: int = 5) -> None:
    code = ("import time\nfrom IPython.testing.globalipapp import get_ipython\nip = get_ipython()\n"
            "t0 = time.perf_counter()\nip.run_line_magic('load_ext', 'aiperf_magic')\n"
            "print(time.perf_counter() - t0)\n")
    times = []
    for _ in range(repeat):
        out = subprocess.run([PYTHON, "-c", code], capture_output=True, text=True, check=True,
                             cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)})
        times.append(float(out.stdout.strip().splitlines()[-1]))
    print(f"%load_ext aiperf_magic: median {statistics.median(times) * 1e3:.1f} ms over {repeat} fresh processes")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--repeat", type=int, default=None)
    parser.add_argument("--only", action="append", choices=list(WORKLOADS), help="run only these workloads")
    args = parser.parse_args()
    from IPython.testing.globalipapp import get_ipython

    os.chdir(tempfile.mkdtemp(prefix="aiperf-overhead-"))  # profilers that write files write them there
    shell = get_ipython()
    shell.run_line_magic("load_ext", "aiperf_magic")
    repeat = args.repeat or (3 if args.quick else 7)
    print(f"Python {sys.version.split()[0]}, {repeat} interleaved repeats, medians; ratio to plain in ()")
    run_workloads(shell, repeat, "quick" if args.quick else "full", args.only)
    empty_cell_cost(shell)
    load_ext_time()


if __name__ == "__main__":
    main()
