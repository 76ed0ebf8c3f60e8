from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from types import SimpleNamespace
from typing import Any

import pytest

from aiperf_magic.measure.probes.threads import ThreadProbe, default_reader, run_delays


class FakeThreads:
    """Threads with hand-set CPU clocks and a hand-driven wall clock."""

    def __init__(self, names: list[str]) -> None:
        self.threads = [SimpleNamespace(native_id=1000 + i, name=n) for i, n in enumerate(names)]
        self.cpu = {t.native_id: 0.0 for t in self.threads}
        self.now = 0.0

    def run(self, dt: float, **busy: float) -> None:
        """Advance the wall clock by ``dt``; each named thread uses that share of it."""
        self.now += dt
        for t in self.threads:
            self.cpu[t.native_id] += dt * busy.get(t.name, 0.0)

    def probe(self) -> ThreadProbe:
        return ThreadProbe(reader=self.cpu.get, threads=lambda: self.threads, clock=lambda: self.now)


def test_counts_threads_that_used_cpu_since_last_tick() -> None:
    fake = FakeThreads(["main", "w1", "w2", "w3", "idle"])
    probe = fake.probe()
    probe.start()
    rows = []
    for shares in ({"main": 1.0}, {"w1": 0.25, "w2": 0.25, "w3": 0.25, "main": 0.25}, {}):
        fake.run(0.02, **shares)
        row: dict[str, Any] = {}
        probe.sample(row)
        rows.append(row["busy_threads"])
    assert rows == [1, 4, 0]


def test_tiny_cpu_use_is_not_busy_and_new_threads_count() -> None:
    fake = FakeThreads(["main", "poller"])
    probe = fake.probe()
    probe.start()
    fake.run(0.02, poller=0.001)  # a heartbeat thread waking briefly
    fake.threads.append(SimpleNamespace(native_id=2000, name="late"))
    fake.cpu[2000] = 0.015  # started after the previous tick, ran most of the interval
    row: dict[str, Any] = {}
    probe.sample(row)
    assert row["busy_threads"] == 1


def test_aiperf_threads_and_vanished_threads_are_skipped() -> None:
    fake = FakeThreads(["aiperf-sampler", "gone", "main"])
    probe = ThreadProbe(reader=lambda tid: None if tid == 1001 else fake.cpu[tid],
                        threads=lambda: fake.threads, clock=lambda: fake.now)
    probe.start()
    fake.run(0.02, **{"aiperf-sampler": 1.0, "gone": 1.0, "main": 1.0})
    row: dict[str, Any] = {}
    probe.sample(row)
    assert row["busy_threads"] == 1


def test_a_broken_reader_turns_the_counter_off_with_a_note() -> None:
    def broken(tid: int) -> float:
        raise RuntimeError("no clock")

    probe = ThreadProbe(reader=broken, threads=lambda: [SimpleNamespace(native_id=1, name="x")])
    probe.start()
    row: dict[str, Any] = {}
    probe.sample(row)
    assert "busy_threads" not in row and probe.notes and "no clock" in probe.notes[0]


@pytest.fixture
def spinners() -> Iterator[int]:
    stop = threading.Event()

    def spin() -> None:
        while not stop.is_set():
            pass

    threads = [threading.Thread(target=spin) for _ in range(2)] + [threading.Thread(target=stop.wait)]
    for t in threads:
        t.start()
    yield 2
    stop.set()
    for t in threads:
        t.join()


@pytest.mark.skipif(default_reader() is None, reason="no per-thread CPU clock on this platform")
def test_real_threads_spinning_versus_parked(spinners: int) -> None:
    probe = ThreadProbe()
    probe.start()
    time.sleep(0.2)  # this (main) thread sleeps: parked, and it is the caller, so never counted
    row: dict[str, Any] = {}
    probe.sample(row)
    probe.stop()
    assert row["busy_threads"] == spinners
    assert probe.cpu_wait_s is not None and probe.cpu_wait_s >= 0


def test_run_delays_lists_this_threads_delay() -> None:
    delays = run_delays()
    if not delays:
        pytest.skip("no /proc schedstat here")
    assert str(threading.get_native_id()) in delays


def test_run_delays_keep_each_threads_file_open_until_the_thread_is_gone() -> None:
    import os

    from aiperf_magic.measure.probes import threads as threads_module

    if not run_delays():
        pytest.skip("no /proc schedstat here")
    done = threading.Event()

    def wait_then_spin() -> None:
        done.wait()
        end = time.thread_time() + 0.05
        while time.thread_time() < end:
            pass

    worker = threading.Thread(target=wait_then_spin)
    worker.start()
    first = run_delays()
    tid = str(worker.native_id)
    fd = threads_module._SCHEDSTAT.fds[tid]
    done.set()
    again = run_delays()  # the same file, read again: the delay only grows
    assert threads_module._SCHEDSTAT.fds[tid] == fd and again[tid] >= first[tid]
    worker.join()
    deadline = time.monotonic() + 2
    while os.path.exists(f"/proc/self/task/{tid}") and time.monotonic() < deadline:
        time.sleep(0.01)  # the kernel's record of the thread goes a moment after join()
    after = run_delays()
    assert tid not in after and tid not in threads_module._SCHEDSTAT.fds  # its file closed
    assert str(threading.get_native_id()) in after


def test_run_delays_never_close_a_file_the_user_opened_in_place_of_theirs(tmp_path) -> None:
    import os

    from aiperf_magic.measure.probes import threads as threads_module

    if not run_delays():
        pytest.skip("no /proc schedstat here")
    worker = threading.Thread(target=time.sleep, args=(0.05,))
    worker.start()
    run_delays()
    tid = str(worker.native_id)
    fd = threads_module._SCHEDSTAT.fds[tid]
    os.close(fd)  # the user's code closes every descriptor it did not open...
    mine = os.open(tmp_path / "data", os.O_RDWR | os.O_CREAT)  # ...and gets that number for its own
    try:
        assert mine == fd
        worker.join()
        deadline = time.monotonic() + 2
        while os.path.exists(f"/proc/self/task/{tid}") and time.monotonic() < deadline:
            time.sleep(0.01)  # the thread's task is gone too: run_delays finds it ended
        run_delays()
        os.fstat(mine)  # still open
        assert tid not in threads_module._SCHEDSTAT.fds
    finally:
        os.close(mine)


def test_this_processs_children_are_found_through_its_threads_kept_files() -> None:
    import os
    import subprocess
    import sys

    from aiperf_magic.measure.probes import host

    if not os.path.exists(f"/proc/self/task/{threading.get_native_id()}/children"):
        pytest.skip("Linux /proc children lists only")
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(5)"])
    try:
        assert child.pid in host._proc_descendants(os.getpid())
        kept = dict(host._CHILDREN.fds)
        assert child.pid in host._proc_descendants(os.getpid()) and host._CHILDREN.fds == kept  # not reopened
    finally:
        child.kill()
        child.wait()
    assert child.pid not in host._proc_descendants(os.getpid())
