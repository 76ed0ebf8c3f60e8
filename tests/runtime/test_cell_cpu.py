"""The cell's own CPU profile: per-thread CPU and waits, the cell's threads against the machine."""

from __future__ import annotations

from collections import Counter
from types import SimpleNamespace
from typing import Any

import pytest

from aiperf_magic.measure.cellcpu import fill_cpu_profile
from aiperf_magic.measure.probes.host import HostProbe
from aiperf_magic.measure.probes.threads import ThreadProbe
from aiperf_magic.report import Report


class Clocks:
    def __init__(self) -> None:
        self.threads = [SimpleNamespace(native_id=100, name="MainThread"),
                        SimpleNamespace(native_id=101, name="IOPub"),
                        SimpleNamespace(native_id=102, name="aiperf-sampler")]
        self.cpu = {100: 5.0, 101: 1.0, 102: 0.0}

    def probe(self) -> ThreadProbe:
        return ThreadProbe(reader=self.cpu.get, threads=lambda: self.threads, clock=lambda: 0.0)


def test_thread_probe_keeps_each_threads_cpu_over_the_cell_even_after_it_ended() -> None:
    clocks = Clocks()
    probe = clocks.probe()
    probe.start()
    clocks.threads.append(SimpleNamespace(native_id=200, name="worker"))
    clocks.cpu.update({100: 5.3, 101: 1.01, 102: 0.2, 200: 0.4})
    probe.sample({})
    clocks.threads.pop()  # the worker ended: its last reading stands
    clocks.cpu[100] = 5.5
    probe.stop()
    got = {name: (round(cpu, 3), born) for name, cpu, born in probe.thread_cpu.values()}
    assert got == {"MainThread": (0.5, False), "IOPub": (0.01, False), "worker": (0.4, True)}


class _Times(tuple):
    """(user, system, idle, iowait), like psutil's named tuple."""

    def __new__(cls, busy: float) -> _Times:
        return super().__new__(cls, (busy, 0.0, 50.0, 1.0))

    idle = property(lambda self: self[2])
    iowait = property(lambda self: self[3])


class PsutilWithTimes:
    """psutil's machine-wide CPU times, moving between two reads."""

    def __init__(self) -> None:
        self.busy = 100.0

    def cpu_times(self) -> _Times:
        self.busy += 3.0
        return _Times(self.busy)

    def cpu_percent(self, percpu: bool = False) -> list[float]:
        return [0.0, 0.0]


def test_host_probe_measures_the_whole_machines_cpu_over_the_cell() -> None:
    probe = HostProbe(process=SimpleNamespace(), psutil_module=PsutilWithTimes())
    probe.start()
    probe.stop()
    assert probe.machine_cpu_s == pytest.approx(3.0)


def lines_seen(samples: dict[int, int], natives: dict[int, int], background: set[int] = frozenset(),
               started: set[int] = frozenset()) -> Any:
    shares = SimpleNamespace(native_ids=natives, background=set(background), started_in_cell=set(started))
    return SimpleNamespace(thread_samples=Counter(samples), shares=shares)


def test_the_cells_threads_against_the_kernels_and_the_machine() -> None:
    threads = SimpleNamespace(
        thread_cpu={100: ("MainThread", 0.05, False), 200: ("worker", 0.70, True), 101: ("IOPub", 0.02, False),
                    300: ("poller", 0.10, False), 102: ("Heartbeat", 0.0, False)},
        thread_wait={100: 0.01, 200: 0.30, 101: 0.0},
    )
    host = SimpleNamespace(machine_cpu_s=1.9, machine_cores=2)
    report = Report(source="", wall_s=1.0, cpu_s=0.90)
    lines = lines_seen({1: 2, 2: 40, 3: 9}, {2: 200, 3: 300}, background={3})
    fill_cpu_profile(report, [threads, host], lines, (1, 100), own_cpu_s=0.90, sampler_cpu_s=0.03)
    names = {t.name: t for t in report.thread_times}
    assert set(names) == {"worker", "poller", "MainThread", "IOPub"}  # the parked heartbeat is left out
    assert names["worker"].cell and names["worker"].started and names["worker"].user_samples == 40
    assert not names["poller"].cell  # an earlier cell's background job is not the cell's work
    assert not names["IOPub"].cell
    # the process's 0.90 s less the others' 0.12 s and the sampler's 0.03 s
    assert report.cell_cpu_s == pytest.approx(0.75)
    assert report.cell_cpu_wait_s == pytest.approx(0.31)
    assert report.machine_cpu_s == 1.9 and report.other_cpu_s == pytest.approx(1.0) and report.machine_cores == 2


def test_a_real_cell_reports_its_threads(ip) -> None:
    from IPython.utils.capture import capture_output

    with capture_output():
        ip.run_cell("%%aiperf --text --var r\ntotal = sum(i * i for i in range(4_000_000))\n")
    r = ip.user_ns["r"]
    main = [t for t in r.thread_times if t.cell]
    assert main and main[0].user_samples > 0
    assert r.cell_cpu_s is not None and 0 < r.cell_cpu_s <= r.cpu_s + 1e-6
    assert r.machine_cpu_s is None or r.machine_cpu_s >= 0
    assert r.machine_cores and r.machine_cores >= 1
