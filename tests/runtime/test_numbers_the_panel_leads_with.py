"""The numbers a report leads with are the cell's own: its worker processes' CPU, its frame's size
after a dtype conversion, one dtype fix per frame, diffs whose lines never run together."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import pandas as pd

from aiperf_magic.measure.frames import changed_frames, frame_finding, profile_frame
from aiperf_magic.measure.probes.host import children_cpu_s
from aiperf_magic.report import Report

BURN = """
import subprocess, sys
procs = [subprocess.Popen([sys.executable, "-c",
         "import time\\nend = time.process_time() + 0.6\\nwhile time.process_time() < end: pass"])
         for _ in range(2)]
for p in procs:
    p.wait()
"""

POOL = """
from concurrent.futures import ProcessPoolExecutor

with ProcessPoolExecutor(max_workers=2) as pool:  # builtins only: the test shell's functions do not pickle
    done = list(pool.map(sum, [range(20_000_000), range(20_000_000)]))
"""


def test_children_cpu_counts_live_and_finished_children() -> None:
    import subprocess
    import sys

    before = children_cpu_s()
    assert before is not None
    # 0.6 s of CPU, asserted as at least 0.25 s: room for clock ticks, and for an earlier test's
    # child that leaves the live set meanwhile (its CPU no longer read, and not yet waited for)
    proc = subprocess.Popen([sys.executable, "-c", "import time\nend = time.process_time() + 0.6\n"
                             "while time.process_time() < end: pass\ntime.sleep(5)"])
    try:
        deadline = time.monotonic() + 20
        while (children_cpu_s() or 0) - before < 0.25 and time.monotonic() < deadline:
            time.sleep(0.05)
        alive = children_cpu_s()
        assert alive is not None and alive - before >= 0.25  # still running: read from /proc
        import psutil

        through_psutil = children_cpu_s(psutil)  # other systems: the same through psutil
        assert through_psutil is not None and abs(through_psutil - alive) < 0.1
    finally:
        proc.kill()
        proc.wait()
    after = children_cpu_s()
    assert after is not None and after - before >= 0.25  # waited for: counted by os.times


def test_subprocesses_the_cell_runs_are_its_cpu(measure: Callable[..., Report]) -> None:
    report = measure(BURN)
    assert report.cpu_s >= 1.0, report.cpu_s  # two children of 0.6 s CPU each


def test_a_process_pools_workers_are_the_cells_cpu(measure: Callable[..., Report]) -> None:
    # (the verdict then follows from the cell's CPU; which one it is depends on how busy the machine is)
    report = measure(POOL)
    assert report.error is None and report.cpu_s >= 0.5, report.cpu_s


def test_one_frame_under_two_names_is_profiled_once() -> None:
    frame = pd.DataFrame({"a": range(10)})
    ns: dict[str, Any] = {"df": frame, "alias": frame, "other": frame.copy()}
    assert [name for name, _ in changed_frames(ns, {})] == ["df", "other"]


def test_the_dtype_finding_says_the_size_after_conversion() -> None:
    frame = pd.DataFrame({"small": [1, 2, 3] * 100_000, "big": [10**12] * 300_000})
    prof = profile_frame("orders", frame)
    source = "orders = make()\nlast = 1"  # no newline at the end of the cell
    finding = frame_finding(prof, source)
    assert finding is not None and finding.fix is not None
    after = (prof.memory_bytes - prof.columns[0].saving_bytes) / 1024**2
    assert f"with smaller dtypes it would use {after:.1f} MB" in finding.message
    lines = finding.fix.diff.splitlines()
    # only the added line changes, and every diff line is its own line (never "-last = 1+last = 1")
    assert [line for line in lines if line[:1] in "+-" and line[:3] not in ("+++", "---")] == [
        "+" + prof.fix_source]
    assert all(line.count("last = 1") <= 1 for line in lines)
