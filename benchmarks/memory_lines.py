"""Memory per line: each mode's bytes per line against a reference reading, and what each mode costs.

    python benchmarks/memory_lines.py                # matrix (3 default runs a cell) and overhead (9 repeats)
    python benchmarks/memory_lines.py --quick        # one default run a cell, 3 repeats
    python benchmarks/memory_lines.py --only overhead --repeat 30

Matrix: cells of the shapes memory takes in notebooks (NumPy arrays kept and freed, pandas frames built
and converted, lists of Python objects, a torch CPU tensor, a transient peak inside a function an
earlier cell defined). Each cell runs under ``%%aiperf`` (the default, sampled mode), under
``%%aiperf --memory`` (memray, when installed) and under ``--memory`` with tracemalloc (memray hidden),
each in the same kernel. The reference runs the same cell one top-level statement at a time, outside
aiperf: tracemalloc's peak above the statement's start (what NumPy, pandas and Python objects
allocate), or for torch the rise of the process's resident high-water mark (``/proc/self/clear_refs``
resets it before each statement). The cells allocate each big block once per line (no churn), so
"peak above the start" is what the line allocated. The reference's peak line is the statement that
brought the cell's memory to its highest above its start (``peak_statement``).

Goals (docs/runtime.md, "Memory per line"): ``--memory`` within ±10 % of the reference on every line
that allocated 10 MB or more; the default within ±25 % on those lines that also ran 50 ms or more;
``peak_line`` right on every cell.

Overhead: 400,000 dict appends (and a NumPy cell) interleaved under plain execution, ``%%aiperf``,
``%%aiperf --memory`` (memray and tracemalloc), memray's tracker alone around the cell (the floor
of a memray count), memray's own ``%%memray_flamegraph`` and Scalene's command line where installed;
medians and ratios to plain, in one run.
"""

from __future__ import annotations

import argparse
import ast
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from overhead import time_cell  # noqa: E402  (one way to time a cell, for both benchmarks)

MB = 1e6
MIN_BYTES = 10 * MB  # lines judged: allocated at least this much
MIN_SECONDS = 0.050  # the default mode is judged on lines that also ran this long
GOALS = {"memray": 0.10, "tracemalloc": 0.10, "sampled": 0.25}

# name -> (setup run once, unmeasured; the cell; its reference: "tracemalloc" or "rss")
MATRIX: dict[str, tuple[str, str, str]] = {
    "numpy kept and freed": (
        "import numpy as np\n",
        "a = np.ones(25_000_000)\n"
        "b = np.ones(12_500_000) * 2\n"
        "del b\n"
        "c = np.arange(10_000_000, dtype=np.float64)\n",
        "tracemalloc",
    ),
    "pandas built and converted": (
        "import numpy as np, pandas as pd\n",
        "df = pd.DataFrame({'a': np.arange(4_000_000), 'b': np.random.default_rng(0).random(4_000_000)})\n"
        "arr = df.to_numpy()\n"
        "half = df['b'].astype('float32')\n"
        "records = df.head(200_000).to_dict('records')\n",
        "tracemalloc",
    ),
    "lists of Python objects": (
        "",
        "rows = [{'id': i, 'v': i * 0.5} for i in range(400_000)]\n"
        "names = [f'item-{i}' for i in range(600_000)]\n"
        "del rows\n"
        "pairs = [(i, str(i)) for i in range(300_000)]\n",
        "tracemalloc",
    ),
    "torch CPU tensor": (
        "import torch\n",
        "x = torch.ones(40_000_000)\n"
        "y = x * 2\n"
        "del x\n"
        "z = torch.arange(10_000_000, dtype=torch.float64)\n",
        "rss",
    ),
    "transient peak in a function": (
        "import numpy as np\n"
        "def peak_then_sum(x):\n"
        "    big = np.concatenate([x] * 8)\n"
        "    return float(big.sum())\n",
        "base = np.ones(5_000_000)\n"
        "total = peak_then_sum(base)\n"
        "after = np.ones(2_500_000)\n",
        "tracemalloc",
    ),
}
CLEANUP = "for _n in ('a','b','c','df','arr','half','records','rows','names','pairs','x','y','z','base','after'):\n" \
          "    globals().pop(_n, None)\nimport gc; gc.collect()\n"
OVERHEAD = {
    "dict appends": "rows = []\nfor i in range(400_000):\n    rows.append({'id': i, 'v': i * 0.5})\n",
    "dict appends x5": "rows = []\nfor i in range(2_000_000):\n    rows.append({'id': i, 'v': i * 0.5})\n",
    "numpy arrays": "import numpy as np\nfor _ in range(20):\n    t = np.ones(2_000_000) * 2\n",
}


SLOW_FOR_TRACEMALLOC = {"dict appends x5"}


def run_cell(shell: Any, code: str) -> float:
    return time_cell(shell, code)


# ---- the reference: one statement at a time, outside aiperf

def _status(key: str) -> int:
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith(key):
                return int(line.split()[1]) * 1024
    raise KeyError(key)


def reference(shell: Any, body: str, kind: str) -> tuple[dict[int, tuple[float, float]], int | None]:
    """line -> (bytes allocated, seconds), and the line during which memory stood highest."""
    tree = ast.parse(body)
    # compiled before the counting starts: the compiler's own allocations are not the cell's
    codes = [(stmt.lineno, compile(ast.Module([stmt], []), "<reference>", "exec")) for stmt in tree.body]
    ns = shell.user_ns
    out: dict[int, tuple[float, float]] = {}
    peaks: list[tuple[int, float, float]] = []  # (line, its peak above the cell's start, the level after it)
    if kind == "tracemalloc":
        tracemalloc.start(1)
        start = tracemalloc.get_traced_memory()[0]
    else:
        start = _status("VmRSS:")
    try:
        for lineno, code in codes:
            if kind == "tracemalloc":
                before = tracemalloc.get_traced_memory()[0]
                tracemalloc.reset_peak()
            else:
                before = _status("VmRSS:")
                with open("/proc/self/clear_refs", "w") as f:
                    f.write("5")  # resets VmHWM to the current resident size
            t0 = time.perf_counter()
            exec(code, ns)
            seconds = time.perf_counter() - t0
            now, peak = tracemalloc.get_traced_memory() if kind == "tracemalloc" else (
                _status("VmRSS:"), _status("VmHWM:"))
            out[lineno] = (max(0.0, peak - before), seconds)
            peaks.append((lineno, peak - start, now - start))
    finally:
        if kind == "tracemalloc":
            tracemalloc.stop()
    return out, peak_statement(peaks)


def peak_statement(peaks: list[tuple[int, float, float]]) -> int | None:
    """The statement that brought memory to its highest: the highest one, or an earlier one that came
    within 5 % of it when memory stayed that high from one to the other (a plateau's later
    statements only carry the level; a statement that frees inherits it)."""
    if not peaks or max(p for _, p, _ in peaks) <= 0:
        return None
    best = max(range(len(peaks)), key=lambda i: peaks[i][1])
    band = peaks[best][1] * 0.95
    chosen = best
    for i in range(best - 1, -1, -1):
        if peaks[i][2] < band:  # memory fell away before the highest: an earlier peak of its own
            break
        if peaks[i][1] >= band:
            chosen = i
    return peaks[chosen][0]


# ---- the modes

def measured(shell: Any, body: str, options: str) -> Any:
    shell.user_ns.pop("_mem_report", None)
    run_cell(shell, f"%%aiperf --text --no-gpu --var _mem_report {options}\n" + body)
    return shell.user_ns["_mem_report"]


class HiddenMemray:
    """``--memory`` as where memray is not installed: tracemalloc is the engine."""

    def __enter__(self) -> None:
        self._saved = sys.modules.get("memray", False)
        sys.modules["memray"] = None  # type: ignore[assignment]

    def __exit__(self, *exc: object) -> None:
        if self._saved is False:
            sys.modules.pop("memray", None)
        else:
            sys.modules["memray"] = self._saved  # type: ignore[assignment]


def has(module: str) -> bool:
    try:
        __import__(module)
    except Exception:
        return False
    return True


def matrix(shell: Any, default_runs: int) -> list[dict[str, Any]]:
    modes: list[tuple[str, str, Callable[[], Any]]] = [("sampled", "", _Nothing)]
    if has("memray"):
        modes.append(("memray", "--memory", _Nothing))
    modes.append(("tracemalloc", "--memory", HiddenMemray))
    rows = []
    for name, (setup, body, kind) in MATRIX.items():
        if kind == "rss" and not has("torch"):
            print(f"  {name}: skipped (torch not installed)")
            continue
        run_cell(shell, setup)
        run_cell(shell, body)  # warm-up: imports, first-call caches
        run_cell(shell, CLEANUP)
        ref, ref_peak = reference(shell, body, kind)
        run_cell(shell, CLEANUP)
        lines = body.splitlines()
        for mode, options, context in modes:
            for attempt in range(default_runs if mode == "sampled" else 1):
                with context():
                    report = measured(shell, body, options)
                run_cell(shell, CLEANUP)
                assert report.memory_mode == mode, (report.memory_mode, mode, report.notes)
                for line, (ref_bytes, seconds) in ref.items():
                    m = report.memory_line(line)
                    got = m.allocated_bytes if m is not None else 0
                    judged = ref_bytes >= MIN_BYTES and (mode != "sampled" or seconds >= MIN_SECONDS)
                    rows.append({"cell": name, "line": line, "code": lines[line - 1], "mode": mode,
                                 "run": attempt, "ref": ref_bytes, "got": got, "seconds": seconds,
                                 "judged": judged, "ref_peak": ref_peak, "peak": report.peak_line})
    return rows


class NoMemoryLines:
    """The default mode without memory per line (no counter read at the samples): its own cost."""

    def __enter__(self) -> None:
        from aiperf_magic.measure import run

        self._saved = run.MemoryRun

        class Without(run.MemoryRun):  # type: ignore[misc, valid-type]
            def __init__(self, **kwargs: Any) -> None:
                super().__init__(**{**kwargs, "readers": {}})

        run.MemoryRun = Without

    def __exit__(self, *exc: object) -> None:
        from aiperf_magic.measure import run

        run.MemoryRun = self._saved


class _Nothing:
    def __enter__(self) -> None:
        pass

    def __exit__(self, *exc: object) -> None:
        pass


class BareMemray:
    """memray's tracker alone around the cell, started and stopped by IPython's cell events as
    ``%%aiperf --memory`` starts and stops it, with nothing read back: the floor of any memray-based
    count (its hooks' start and stop, and the Python calls and allocations it traces meanwhile)."""

    shell: Any = None

    def __enter__(self) -> None:
        import memray

        self._tmp = tempfile.mkdtemp(prefix="aiperf-bare-memray-")
        self._tracker: Any = None

        def start(*_: Any) -> None:
            Path(self._tmp, "x.bin").unlink(missing_ok=True)
            self._tracker = memray.Tracker(Path(self._tmp, "x.bin"), memory_interval_ms=1000)
            self._tracker.__enter__()

        def stop(*_: Any) -> None:
            if self._tracker is not None:
                self._tracker.__exit__(None, None, None)
                self._tracker = None

        self._hooks = (start, stop)
        self.shell.events.register("pre_run_cell", start)
        self.shell.events.register("post_run_cell", stop)

    def __exit__(self, *exc: object) -> None:
        start, stop = self._hooks
        self.shell.events.unregister("pre_run_cell", start)
        self.shell.events.unregister("post_run_cell", stop)
        shutil.rmtree(self._tmp, ignore_errors=True)


def print_matrix(rows: list[dict[str, Any]]) -> None:
    print(f"{'cell':<30} {'line':>4} {'mode':<11} {'run':>3} {'reference':>10} {'measured':>10} {'error':>7} "
          f"{'line s':>7}  code")
    for r in rows:
        err = (r["got"] - r["ref"]) / r["ref"] if r["ref"] >= MB else None
        mark = ""
        if r["judged"]:
            mark = " ok" if err is not None and abs(err) <= GOALS[r["mode"]] else " MISS"
        error = f"{100 * err:+.0f}%" if err is not None else "-"
        print(f"{r['cell']:<30} {r['line']:>4} {r['mode']:<11} {r['run']:>3} {r['ref'] / MB:>8.1f}MB "
              f"{r['got'] / MB:>8.1f}MB {error:>7} {r['seconds']:>7.3f}  {r['code'][:48]}{mark}")
    print("\nGoals (judged lines: reference >= 10 MB; the default mode also >= 50 ms):")
    for mode, goal in GOALS.items():
        judged = [r for r in rows if r["mode"] == mode and r["judged"]]
        if not judged:
            continue
        within = sum(abs(r["got"] - r["ref"]) <= goal * r["ref"] for r in judged)
        worst = max(abs(r["got"] - r["ref"]) / r["ref"] for r in judged)
        print(f"  {mode:<11} {within}/{len(judged)} lines within ±{100 * goal:.0f} % (worst {100 * worst:.0f} %)")
    print("\npeak_line (reference: the statement that brought memory to its highest):")
    seen: dict[tuple[str, str, int], tuple[int | None, int | None]] = {}
    for r in rows:
        seen[(r["cell"], r["mode"], r["run"])] = (r["ref_peak"], r["peak"])
    for mode in GOALS:
        runs = [(cell, v) for (cell, m, _), v in seen.items() if m == mode]
        if runs:
            right = sum(ref == got for _, (ref, got) in runs)
            wrong = ", ".join(f"{cell}: {got} (reference {ref})" for cell, (ref, got) in runs if ref != got)
            print(f"  {mode:<11} right on {right}/{len(runs)} runs" + (f"; wrong: {wrong}" if wrong else ""))


# ---- overhead

def scalene_cli(body: str) -> float | None:
    """Scalene's command line with memory profiling on, on the cell as a script (when installed)."""
    if shutil.which("scalene") is None:
        return None
    with tempfile.TemporaryDirectory() as tmp:
        script = Path(tmp, "cell.py")
        script.write_text(body)
        t0 = time.perf_counter()
        subprocess.run(["scalene", "--cli", "--memory", "--outfile", str(Path(tmp, "out.txt")), str(script)],
                       check=True, capture_output=True, timeout=300)
        return time.perf_counter() - t0


def memray_fixed_cost(repeat: int = 5) -> None:
    """memray's start and stop alone, with the libraries now loaded (it hooks each one)."""
    if not has("memray"):
        return
    import memray

    starts, stops = [], []
    for _ in range(repeat + 1):
        with tempfile.TemporaryDirectory() as tmp:
            t0 = time.perf_counter()
            tracker = memray.Tracker(Path(tmp, "x.bin"), memory_interval_ms=1000)
            tracker.__enter__()
            t1 = time.perf_counter()
            tracker.__exit__(None, None, None)
            starts.append(t1 - t0)
            stops.append(time.perf_counter() - t1)
    loaded = ", ".join(m for m in ("numpy", "pandas", "torch") if m in sys.modules)
    print(f"\nmemray's start and stop (median of {repeat}, with {loaded or 'no native library'} loaded): "
          f"{statistics.median(starts[1:]) * 1000:.1f} ms + {statistics.median(stops[1:]) * 1000:.1f} ms")


def overhead(shell: Any, repeat: int) -> None:
    modes: dict[str, tuple[str, Callable[[], Any]]] = {
        "plain": ("", _Nothing),
        "%%aiperf": ("%%aiperf --text --no-gpu\n", _Nothing),
        "%%aiperf without memory per line": ("%%aiperf --text --no-gpu\n", NoMemoryLines),
    }
    if has("memray"):
        modes["%%aiperf --memory (memray)"] = ("%%aiperf --text --no-gpu --memory\n", _Nothing)
        BareMemray.shell = shell
        modes["memray's tracker alone"] = ("", BareMemray)
        shell.run_line_magic("load_ext", "memray")
        if shell.find_cell_magic("memray_flamegraph") is not None:
            modes["%%memray_flamegraph"] = ("%%memray_flamegraph\n", _Nothing)
    modes["%%aiperf --memory (tracemalloc)"] = ("%%aiperf --text --no-gpu --memory\n", HiddenMemray)
    rng = random.Random(0)
    for name, body in OVERHEAD.items():
        # tracemalloc takes 15x on the large cell: a minute a repeat
        here = {m: v for m, v in modes.items() if not (name in SLOW_FOR_TRACEMALLOC and "tracemalloc" in m)}
        for prefix, context in here.values():  # warm-up of every mode
            with context():
                run_cell(shell, prefix + body)
        times: dict[str, list[float]] = {m: [] for m in modes}
        for _ in range(repeat):
            order = list(here)
            rng.shuffle(order)
            for mode in order:
                prefix, context = modes[mode]
                with context():
                    times[mode].append(run_cell(shell, prefix + body))
        plain, fastest = statistics.median(times["plain"]), min(times["plain"])
        print(f"\n{name} (median and fastest of {repeat}, interleaved; ratios to plain; 'paired': the median "
              "of each round's ratio to that round's plain run, the steadier figure on a busy machine)")
        for mode, ts in times.items():
            if not ts:
                print(f"  {mode:<40} not run (too slow for this cell)")
                continue
            med = statistics.median(ts)
            paired = statistics.median(t / p for t, p in zip(ts, times["plain"], strict=True))
            print(f"  {mode:<40} {med * 1000:8.1f} ms  {med / plain:5.2f}x   fastest {min(ts) * 1000:8.1f} ms "
                  f"{min(ts) / fastest:5.2f}x   paired {paired:5.2f}x")
        cli = scalene_cli(body)
        print(f"  {'scalene --cli --memory':<40} " + (f"{cli * 1000:8.1f} ms (a fresh process, startup included)"
                                                        if cli is not None else "not installed"))
    for d in Path(".").glob("memray-results"):  # memray's magic writes its flame graphs here
        shutil.rmtree(d, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--only", choices=["matrix", "overhead"])
    parser.add_argument("--repeat", type=int, default=None, help="overhead rounds (default 9, 3 with --quick)")
    args = parser.parse_args()
    from IPython.testing.globalipapp import start_ipython

    shell = start_ipython()
    shell.run_line_magic("load_ext", "aiperf_magic")
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} cores, memray {'yes' if has('memray') else 'no'}")
    if args.only in (None, "matrix"):
        print_matrix(matrix(shell, 1 if args.quick else 3))
    if args.only in (None, "overhead"):
        memray_fixed_cost()
        overhead(shell, args.repeat or (3 if args.quick else 9))


if __name__ == "__main__":
    main()
