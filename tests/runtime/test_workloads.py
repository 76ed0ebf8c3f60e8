"""Verdicts on real workloads, measured through the real magic in a real IPython shell.

These run on any CPU machine. The memory-growth case uses the real recorded timeline but states
the machine's RAM to the verdict (the test box cannot safely be pushed into swapping).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from aiperf_magic.report import Report
from aiperf_magic.verdicts.stage import diagnose

Measure = Callable[..., Report]

SPIN = """\
import time
t0 = time.perf_counter()
n = 0
while time.perf_counter() - t0 < 1.0:
    n += 1
"""

THREADS = """\
import threading, time
def spin(seconds):
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        pass
workers = [threading.Thread(target=spin, args=(1.0,)) for _ in range(4)]
for w in workers:
    w.start()
for w in workers:
    w.join()
"""

SLEEP = """\
import time
for step in range(25):
    time.sleep(0.03)
"""

GROWTH = """\
import time
chunks = []
for step in range(40):
    chunks.append(bytearray(16 * 1024 * 1024))  # touched: zero-filled pages count in RSS
    time.sleep(0.01)
"""


def test_spin_loop_is_cpu_bound_on_one_core(measure: Measure) -> None:
    report = measure(SPIN)
    assert report.verdict is not None, report.notes
    assert report.verdict.code == "AIP907", report.verdict
    ev = report.verdict.evidence
    # on a shared machine part of the second may go to other processes: it shows up as CPU wait
    assert ev["process_cpu_cores"] + ev.get("cpu_wait_cores", 0.0) >= 0.7
    assert report.cpu_wait_s is not None
    assert report.finding("AIP907") is not None


def test_four_spinning_threads_are_gil_bound(measure: Measure) -> None:
    report = measure(THREADS)
    busy = [b for b in report.samples.busy_threads if b is not None]
    assert busy and max(busy) >= 2
    assert report.verdict is not None, report.notes
    assert report.verdict.code == "AIP902", (report.verdict, busy)
    # threads that ran between two samples: four take turns every 5 ms, so a sampler that ticks on
    # time (every 20 ms) sees two to three of them, fewer on a loaded machine (1.81 seen), never one
    assert report.verdict.evidence["busy_threads_mean"] >= 1.5


def test_sleep_loop_is_waiting(measure: Measure) -> None:
    report = measure(SLEEP)
    assert report.verdict is not None, report.notes
    assert report.verdict.code == "AIP903"
    assert report.verdict.evidence["cpu_percent_of_wall"] < 30
    assert set(b for b in report.samples.busy_threads if b is not None) <= {0, 1}


def test_memory_growth_near_ram_is_host_memory_pressure(measure: Measure, ip: Any) -> None:
    report = measure(GROWTH)
    ip.user_ns.pop("chunks", None)
    rss = [r for r in report.samples.rss_bytes if r is not None]
    assert rss[-1] - rss[0] > 400 * 1024**2  # the cell really grew by ~640 MiB
    # a machine whose RAM this process nearly filled
    result = diagnose(report, mem_total_bytes=max(rss) / 0.85)
    assert result.verdicts and result.verdicts[0].code == "AIP904"
    assert result.verdicts[0].evidence["rss_peak_percent_of_ram"] == pytest.approx(85.0, abs=0.2)


def test_short_cell_gets_a_note(measure: Measure) -> None:
    report = measure("x = 1")
    assert report.verdict is None
    assert any("No bottleneck verdict" in note for note in report.notes)
