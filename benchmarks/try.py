"""What isolation costs a Try: trials in forked copies of the kernel vs in-process trials, side by side.

For each workload the same cell is tried against itself with ``verify`` twice, once per isolation,
in this one process (the "kernel"), and the table shows, per trial run:
- the cell's own median time in each mode (a forked trial pays a page copy on its first write to
  each page of existing data: that is the copy-on-write cost, inside the timed region);
- the wall time per run, and what isolation adds on top of the cell (goal: at most 20 ms per run);
- the peak memory the Try needed above the kernel's resident size (kernel growth + the trial
  processes' private pages, which is what copy-on-write really costs);
- what the operating system's sandbox costs: forked trials with the syscall filter (and its
  listener) against forked trials without it, as they ran before the filter (Landlock and the
  descriptors only), per run (goal: at most 5 ms) and per Try.

    python benchmarks/try.py [--repeat 5] [--rounds 3] [--ballast-mb 0]

``--ballast-mb`` makes the kernel bigger (touched memory) to show how the fork's cost grows.
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import os
import statistics
import sys
import threading
import time
from typing import Any

import psutil

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
sys.path.insert(0, os.path.dirname(__file__))

from calibration import iterations

from aiperf_magic import verify
from aiperf_magic.verification import notify, planned_runs, seccomp

FIVE_MS = "s = 0\nfor i in range(N5):\n    s += i * i\n"
THIRD_S = "s = 0\nfor i in range(N300):\n    s += i * i\n"
FRAME = "df['c'] = df['a'] * 2 + df['b']\ntotal = float(df['c'].sum())\n"


def calibrate(target_s: float) -> int:
    """Loop iterations that take ``target_s`` on this machine (the fastest of five timings)."""
    return iterations(FIVE_MS, "N5", target_s, 20_000, 5)


class PeakMemory:
    """Every 2 ms: this process's resident growth plus its trial processes' private memory.

    A forked trial shares the kernel's pages until it writes them, so its private (unique) memory
    is what it really costs the machine; this ignores other processes on a shared machine.
    """

    def __init__(self) -> None:
        self.me = psutil.Process()
        self.base = self.peak = 0
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._loop, name="bench-mem", daemon=True)

    def _used(self) -> int:
        used = int(self.me.memory_info().rss)
        for child in self.me.children(recursive=True):
            try:
                used += int(child.memory_full_info().uss)
            except psutil.Error:
                pass
        return used

    def _loop(self) -> None:
        while not self.stop.wait(0.002):
            self.peak = max(self.peak, self._used() - self.base)

    def __enter__(self) -> PeakMemory:
        gc.collect()
        self.base = int(self.me.memory_info().rss)
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop.set()
        self.thread.join()


@contextlib.contextmanager
def without_filter() -> Any:
    """Forked trials as they ran before the syscall filter: the copies inherit these module attributes."""
    machine, available = seccomp.machine, notify.available
    seccomp.machine, notify.available = (lambda: None), (lambda pid, fd: False)
    try:
        yield
    finally:
        seccomp.machine, notify.available = machine, available


def install_cost(times: int = 20) -> tuple[float, float]:
    """(median, max) seconds one trial process spends building and installing its syscall filter,
    timed inside freshly forked processes holding this kernel's descriptors."""
    from aiperf_magic.verification import isolate

    costs = []
    for _ in range(times):
        r, w = os.pipe()
        pid = os.fork()
        if pid == 0:  # a disposable process, like a trial
            t = time.perf_counter()
            isolate.lock_down({w}, notify=True, folder="/nonexistent")
            os.write(w, repr(time.perf_counter() - t).encode())
            os._exit(0)
        os.close(w)
        costs.append(float(os.read(r, 64) or b"nan"))
        os.close(r)
        os.waitpid(pid, 0)
    return statistics.median(costs), max(costs)


def measure(cell: str, ns: dict[str, Any], isolation: str, repeat: int, sandbox: bool = True) -> dict[str, float]:
    """One timed Try: the cell's median, and the wall time per timed run (from progress timestamps)."""
    ends: dict[int, float] = {}  # runs finished -> when progress first said so (as the next run began)
    start = time.perf_counter()
    with contextlib.nullcontext() if sandbox else without_filter():
        c = verify(
            cell, cell, ns, repeat=repeat, isolation=isolation, budget_s=float("inf"),
            progress=lambda done, *_: ends.setdefault(done, time.perf_counter()),
        )
    assert sandbox == ("seccomp" in c.sandbox) or isolation != "auto", c.sandbox
    ends.setdefault(max(ends) + 1, time.perf_counter())  # the last run ended as verify returned
    assert c.equal and not (c.error or c.blocked or c.refused), c
    assert (c.isolation == "process") == (isolation == "auto"), c.isolation
    timed = [ends[k + 1] - ends[k] for k in sorted(ends)[2:-1]]  # after the two first (traced) runs
    return {
        "cell": statistics.median([c.before_s or 0.0, c.after_s or 0.0]),
        "per_run": statistics.median(timed),
        "total": time.perf_counter() - start,
    }


def peak(cell: str, ns: dict[str, Any], isolation: str, repeat: int) -> float:
    """Peak memory of one Try, in a separate pass: the sampler would disturb the timings."""
    with PeakMemory() as mem:
        verify(cell, cell, ns, repeat=repeat, isolation=isolation)
    return float(mem.peak)


def fmt_s(v: float) -> str:
    return f"{v * 1e3:.1f} ms" if v < 1 else f"{v:.2f} s"


def fmt_b(v: float) -> str:
    return f"{v / 2**20:.0f} MiB"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--ballast-mb", type=int, default=0)
    ap.add_argument("--rounds", type=int, default=3, help="median over this many alternated rounds")
    args = ap.parse_args()
    ballast = bytearray(args.ballast_mb << 20)
    for i in range(0, len(ballast), 4096):  # resident, like a kernel's data
        ballast[i] = 1
    ns: dict[str, Any] = {"__name__": "__main__", "N5": calibrate(0.005), "N300": calibrate(0.3)}
    workloads = [("5 ms cell", FIVE_MS), ("0.3 s cell", THIRD_S)]
    try:
        import numpy as np
        import pandas as pd

        rng = np.random.default_rng(0)
        ns["df"] = pd.DataFrame({"a": rng.random(2_000_000), "b": rng.random(2_000_000)})
        workloads.append(("2M-row frame", FRAME))
    except ImportError:
        print("pandas not installed: the 2M-row frame is skipped")
    rss = psutil.Process().memory_info().rss
    print(
        f"kernel RSS {fmt_b(rss)}; each version runs {planned_runs(args.repeat)} times per Try "
        f"(repeat {args.repeat}); {os.cpu_count()} CPUs"
    )
    head = (
        f"{'workload':<14} {'cell in-proc':>12} {'cell fork':>10} {'fork/in':>8} {'run in-proc':>12} "
        f"{'run fork':>10} {'added/run':>10} {'goal':>5} {'added/Try':>10} {'mem in-proc':>12} {'mem fork':>9} "
        f"{'filter/run':>10} {'goal':>5} {'filter/Try':>10}"
    )
    print(head)
    for label, cell in workloads:
        rounds = [  # alternated, so that the machine's load hits all three alike
            (
                measure(cell, ns, "in-process", args.repeat),
                measure(cell, ns, "auto", args.repeat),
                measure(cell, ns, "auto", args.repeat, sandbox=False),
            )
            for _ in range(args.rounds)
        ]
        inp = {k: statistics.median(r[0][k] for r in rounds) for k in ("cell", "per_run", "total")}
        frk = {k: statistics.median(r[1][k] for r in rounds) for k in ("cell", "per_run", "total")}
        bare = {k: statistics.median(r[2][k] for r in rounds) for k in ("cell", "per_run", "total")}
        filter_run = (frk["per_run"] - frk["cell"]) - (bare["per_run"] - bare["cell"])
        added = (frk["per_run"] - frk["cell"]) - (inp["per_run"] - inp["cell"])
        mem_in, mem_fork = peak(cell, ns, "in-process", args.repeat), peak(cell, ns, "auto", args.repeat)
        print(
            f"{label:<14} {fmt_s(inp['cell']):>12} {fmt_s(frk['cell']):>10} {frk['cell'] / inp['cell']:>7.2f}x "
            f"{fmt_s(inp['per_run']):>12} {fmt_s(frk['per_run']):>10} {fmt_s(added):>10} "
            f"{'ok' if added <= 0.020 else 'over':>5} {fmt_s(frk['total'] - inp['total']):>10} "
            f"{fmt_b(mem_in):>12} {fmt_b(mem_fork):>9} {fmt_s(filter_run):>10} "
            f"{'ok' if filter_run <= 0.005 else 'over':>5} {fmt_s(frk['total'] - bare['total']):>10}"
        )
    med, worst = install_cost()
    print(
        f"syscall filter, built and installed in each trial process: median {fmt_s(med)}, worst {fmt_s(worst)} "
        f"of 20 ({len(os.listdir('/proc/self/fd'))} descriptors open here)"
    )
    print(
        f"medians of {args.rounds} alternated rounds. cell = median of the timed runs; run = wall time per timed "
        "run, seen by the kernel; added/run = fork's per-run overhead minus in-process's; added/Try = whole Try, "
        "fork minus in-process (the template, the first runs' fresh copies, the timing copies); mem = peak memory "
        "above the kernel's resident size during the Try (kernel growth + the trial processes' private pages); "
        "filter = forked trials with the syscall filter and its listener minus forked trials without them"
    )


if __name__ == "__main__":
    main()
