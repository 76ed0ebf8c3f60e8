"""Memory per line on injected readings: the counter's rises and falls given to the lines that ran,
memray's allocations tallied by line, the sampler's readers, and what goes into the Report."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from aiperf_magic.measure.memory_counter import CounterLines
from aiperf_magic.measure.memory_engines import TracemallocEngine, cell_file_of, cell_line, tally
from aiperf_magic.measure.memory_lines import MemoryRun
from aiperf_magic.measure.memory_sampling import CudaReader, LineMemory, RssReader
from aiperf_magic.measure.sampler import Sampler
from aiperf_magic.report import Report

MB = 1024**2


def test_rises_go_to_the_line_running_and_stay_held_when_nothing_falls() -> None:
    c = CounterLines(100 * MB, 100 * MB)
    for value in (150, 200, 250):
        c.update(value * MB, value * MB, [(3, 0.02)], [(3, 0.02)])
    assert c.allocated == {3: 150 * MB} and c.net == {3: 150 * MB}
    assert c.peak_line == 3 and c.peak - c.start == 150 * MB


def test_a_peak_between_two_readings_is_caught_by_the_high_water_mark() -> None:
    c = CounterLines(100 * MB, 100 * MB)
    c.update(100 * MB, 100 * MB, [(1, 1.0)], [(2, 1.0)])  # nothing happened
    c.update(101 * MB, 900 * MB, [(2, 1.0)], [(2, 1.0)])  # 800 MB made and freed between the two
    assert c.allocated == {2: 800 * MB}  # the rise to the mark: 100 MB -> 900 MB
    assert c.net == {2: 1 * MB}  # of it, only what stayed is still held
    assert c.peak_line == 2 and c.peak == 900 * MB and c.peak_held == {2: 800 * MB}


def test_an_interval_between_two_lines_is_split_and_a_fall_releases_the_latest_rise() -> None:
    c = CounterLines(0, 0)
    c.update(100 * MB, 100 * MB, [(1, 1.0)], [(1, 1.0)])
    c.update(140 * MB, 140 * MB, [(1, 1.0)], [(2, 1.0)])  # line 1 ended, line 2 began: half each
    assert c.allocated == {1: 120 * MB, 2: 20 * MB}
    c.update(140 * MB, 140 * MB, [(2, 1.0)], [(3, 1.0)])
    c.update(110 * MB, 140 * MB, [(3, 1.0)], [(3, 1.0)])  # line 3 frees 30 MB: line 2's 20 first
    assert c.net == {1: 110 * MB}
    assert 2 not in c.net and c.peak_line == 2


def test_the_peak_goes_to_the_line_before_when_memory_fell_again_before_the_next_reading() -> None:
    transient = CounterLines(0, 0)
    transient.update(0, 500 * MB, [(4, 1.0)], [(5, 1.0)])  # rose and fell: line 4 made it and ended
    assert transient.peak_line == 4
    kept = CounterLines(0, 0)
    kept.update(500 * MB, 500 * MB, [(4, 1.0)], [(5, 1.0)])  # still held at the reading: line 5 runs
    assert kept.peak_line == 5


def test_rises_while_no_cell_line_ran_are_outside_and_threads_share_by_their_weight() -> None:
    c = CounterLines(0, None)
    c.update(10 * MB, None, [], [])
    assert c.allocated == {} and c.outside == 10 * MB
    c.update(40 * MB, None, [(2, 0.015), (7, 0.005)], [(2, 0.015), (7, 0.005)])
    assert c.allocated == {2: pytest.approx(22.5 * MB), 7: pytest.approx(7.5 * MB)}


def test_tally_gives_each_allocation_to_its_line_and_frees_by_address() -> None:
    events = [
        (True, 0x10, 100, 1),
        (True, 0x20, 300, 2),
        (False, 0x20, 0, None),  # line 2's temporary freed
        (True, 0x30, 50, None),  # IPython's own, outside the cell's lines
        (False, 0x99, 0, None),  # made before tracking began: changes nothing
        (True, 0x40, 4096, 3),
        (False, 0x40, 1024, None),  # part of a map unmapped
    ]
    t = tally(events)
    assert t.allocated == {1: 100, 2: 300, 3: 4096} and t.count == {1: 1, 2: 1, 3: 1}
    churn = tally([(True, 0x10, 100, 1), (False, 0x10, 0, None)] * 50 + [(True, 0x10, 150, 1)])
    assert churn.allocated == {1: 150} and churn.count == {1: 51}  # the most held at once, not the sum
    assert t.net == {1: 100, 3: 3072}
    assert t.peak == 100 + 50 + 4096 and t.peak_line == 3 and t.peak_held == {1: 100, 3: 4096}


def test_the_innermost_cell_frame_names_the_line_and_the_cell_file_is_found_under_run_code() -> None:
    shell = str(Path("site-packages", "IPython", "core", "interactiveshell.py"))
    stack = [("ones", "numeric.py", 232), ("f", "<cell-2>", 3), ("<module>", "<cell-2>", 5),
             ("run_code", shell, 3600)]
    assert cell_line(stack, "<cell-2>", 1) == 2  # the function the cell defines, at its own line
    assert cell_line(stack, "<cell-1>", 1) is None
    assert cell_file_of(stack) == "<cell-2>"
    assert cell_file_of(stack[:2]) is None


class Script:
    """A reader that returns the readings it was given, one a call, then fails if asked to."""

    label = "scripted"

    def __init__(self, readings: list[Any], starts_at_zero: bool = False, at_request: bool = False) -> None:
        self.readings = list(readings)
        self.starts_at_zero = starts_at_zero
        self.at_request = at_request
        self.closed = False

    def read(self) -> tuple[int, int | None] | None:
        value = self.readings.pop(0)
        if isinstance(value, Exception):
            raise value
        return value

    def close(self) -> None:
        self.closed = True


def test_line_memory_reads_each_counter_after_the_lines_and_turns_a_failing_one_off() -> None:
    host = Script([(100, 100), (200, 200), (300, 300)])
    broken = Script([(1, 1), OSError("gone")])
    memory = LineMemory({"host": host, "other": broken})
    memory.start()
    memory.sample([(1, 0.02)])
    memory.sample([(1, 0.02)])
    assert memory.counters["host"].allocated == {1: 200}
    assert "other" not in memory.counters and broken.closed
    assert memory.notes == ["memory per line: scripted not read: OSError: gone"]
    assert memory.samples == 2


def test_the_readers_that_keep_the_gil_are_read_first_and_the_one_that_hands_it_back_last() -> None:
    order: list[str] = []

    class Named(Script):
        def __init__(self, name: str, releases: bool) -> None:
            super().__init__([(1, None)] * 3)
            self.name, self.releases_gil = name, releases

        def read(self) -> tuple[int, int | None] | None:
            order.append(self.name)
            return super().read()

    memory = LineMemory({"malloc": Named("malloc", True), "host": Named("host", False), "cuda": Named("cuda", False)})
    memory.start()
    memory.sample([(1, 1.0)])
    assert order == ["host", "cuda", "malloc"] * 2
    from aiperf_magic.measure.memory_sampling import MallocReader, RssReader

    assert not MallocReader.releases_gil and not RssReader.releases_gil  # both read beside the lines


def test_a_costly_allocator_reading_is_taken_every_few_ticks_and_its_rise_shared_by_the_lines_between() -> None:
    import time

    class Costly(Script):
        may_skip, releases_gil = True, True

        def __init__(self, readings: list[Any], cpu_s: float) -> None:
            super().__init__(readings, at_request=True)
            self.cpu_s, self.reads = cpu_s, 0

        def read(self) -> tuple[int, int | None] | None:
            self.reads += 1
            end = time.thread_time() + self.cpu_s
            while time.thread_time() < end:
                pass
            return super().read()

    # 1 ms a reading against 0.4 ms allowed at a 20 ms period: every 3rd tick
    costly = Costly([(0, None), (30 * MB, None), (60 * MB, None)], 0.001)
    memory = LineMemory({"malloc": costly}, interval_s=0.02)
    memory.start()
    for line in (1, 1, 2, 3, 3, 3):
        memory.sample([(line, 0.02)])
    assert costly.reads == 3 and memory.strides["malloc"] == 3  # at the start, the 3rd and the 6th tick
    counter = memory.counters["malloc"]
    # the rise by the 3rd tick: two ticks of line 1, one of line 2; by the 6th: three of line 3
    assert counter.allocated == pytest.approx({1: 20 * MB, 2: 10 * MB, 3: 30 * MB})
    memory.flush()  # nothing skipped since the last reading: nothing to read
    assert costly.reads == 3
    cheap = Costly([(0, None), (5 * MB, None), (5 * MB, None), (9 * MB, None)], 0.0002)
    memory = LineMemory({"malloc": cheap}, interval_s=0.02)
    memory.start()
    memory.sample([(1, 0.02)])
    memory.sample([(2, 0.02)])
    assert cheap.reads == 3 and memory.strides["malloc"] == 1  # 0.2 ms, a kernel's usual heap: every tick
    costly = Costly([(0, None), (8 * MB, None), (16 * MB, None)], 0.001)
    memory = LineMemory({"malloc": costly}, interval_s=0.02)
    memory.start()
    for line in (1, 1, 1, 4):
        memory.sample([(line, 0.02)])
    memory.flush()  # the cell ended two ticks after its last reading: its end is read
    assert costly.reads == 3
    assert memory.counters["malloc"].allocated == pytest.approx({1: 8 * MB, 4: 8 * MB})


def test_a_skipping_counters_rise_follows_resident_memory_and_what_it_leaves_goes_to_the_last_tick() -> None:
    # The cell re-binds a 48 MB array (line 2: the new one's pages touched, the old one freed), then asks
    # for 192 MB (line 4) whose pages are still being filled at the allocator's next reading: the
    # allocator rose 192 MB over the window, resident memory 48 MB at line 2 and 8 MB at line 4 so far.
    class Skipping(Script):
        may_skip = True

    host = Script([(100 * MB, None), (124 * MB, None), (148 * MB, None), (108 * MB, None)])
    malloc = Skipping([(50 * MB, None), (242 * MB, None)], at_request=True)
    memory = LineMemory({"malloc": malloc, "host": host})
    memory.start()
    memory._skip["malloc"] = 2  # as if its last reading had been costly: read again at the 3rd tick
    for line in (2, 2, 4):
        memory.sample([(line, 0.005)])
    counter = memory.counters["malloc"]
    assert counter.allocated == pytest.approx({2: 48 * MB, 4: 144 * MB})
    assert counter.peak_line == 4
    # shared by time, line 2 would have had two thirds of it, and the peak
    memory = LineMemory({"malloc": Skipping([(50 * MB, None), (242 * MB, None)], at_request=True)})
    memory.start()
    memory._skip["malloc"] = 2
    for line in (2, 2, 4):
        memory.sample([(line, 0.005)])
    assert memory.counters["malloc"].allocated == pytest.approx({2: 128 * MB, 4: 64 * MB})


def test_a_light_tick_reads_resident_memory_and_keeps_its_lines_for_the_allocators_next_reading() -> None:
    class Walking(Script):
        may_skip = True

    host = Script([(100 * MB, None), (140 * MB, None), (140 * MB, None)])
    malloc = Walking([(50 * MB, None), (90 * MB, None)], at_request=True)
    memory = LineMemory({"malloc": malloc, "host": host})
    memory.start()
    memory.sample([(3, 0.005)], light=True)  # the dense start's tick: the heap is not walked
    assert malloc.readings == [(90 * MB, None)] and memory.counters["host"].allocated == {3: 40 * MB}
    memory.sample([(5, 0.005)])  # a regular tick: walked, its rise given to line 3 where resident memory rose
    assert malloc.readings == [] and memory.counters["malloc"].allocated == pytest.approx({3: 40 * MB})


def test_counters_read_after_the_cells_thread_went_on_count_for_its_line_now() -> None:
    # With the short switch interval, the sampler can be made to hand the GIL over between reading the
    # lines and the counters: the cell went from line 2 to line 4 and asked for 192 MB meanwhile.
    traced = Script([(48 * MB, 48 * MB), (240 * MB, 240 * MB)], at_request=True)
    memory = LineMemory({"traced": traced})
    memory.start()
    memory.sample([(2, 0.005)], moved=lambda: [(4, 1.0)])
    assert memory.counters["traced"].allocated == {4: 192 * MB} and memory.counters["traced"].peak_line == 4
    traced = Script([(48 * MB, 48 * MB), (240 * MB, 240 * MB)], at_request=True)
    memory = LineMemory({"traced": traced})
    memory.start()
    memory.sample([(2, 0.005)], moved=lambda: None)  # it had not moved: the line read is the one
    assert memory.counters["traced"].allocated == {2: 192 * MB}


def test_the_sampler_reads_a_skipping_counter_at_the_cells_end() -> None:
    from aiperf_magic.measure.sampler import Sampler

    class Skipping(Script):
        may_skip = True

    reader = Skipping([(0, None), (4 * MB, None), (6 * MB, None)])
    memory = LineMemory({"malloc": reader}, interval_s=0.02)
    sampler = Sampler([], interval_s=0.02, memory=memory)
    sampler.start(thread=False)
    memory._skip["malloc"] = 5  # as if its last reading had been costly
    sampler.tick()
    sampler.stop()
    assert reader.readings == [(6 * MB, None)]  # read once more, at the end
    assert memory.counters["malloc"].value == 4 * MB


def test_a_read_that_keeps_the_gil_reads_what_os_pread_reads(tmp_path: Path) -> None:
    import os

    from aiperf_magic.measure.probes.procfs import pread_keeping_gil

    path = tmp_path / "status"
    path.write_bytes(b"VmRSS:\t  1024 kB\n" * 100)
    fd = os.open(path, os.O_RDONLY)
    try:
        assert pread_keeping_gil(fd) == os.pread(fd, 1 << 14, 0)
        assert pread_keeping_gil(fd, 64) == os.pread(fd, 64, 0)
    finally:
        os.close(fd)
    with pytest.raises(OSError):
        pread_keeping_gil(fd)  # closed


def test_a_counter_first_readable_during_the_cell_starts_from_zero_when_it_counts_from_zero() -> None:
    cuda = Script([None, (64 * MB, 96 * MB)], starts_at_zero=True)
    memory = LineMemory({"cuda": cuda})
    memory.start()
    assert "cuda" not in memory.counters  # CUDA not initialised yet
    memory.sample([(4, 1.0)])
    counter = memory.counters["cuda"]
    assert counter.allocated == {4: 96 * MB} and counter.net == {4: 64 * MB} and counter.peak_line == 4


def fake_torch(initialised: bool, stats: list[dict[str, int]]) -> Any:
    cuda = SimpleNamespace(is_initialized=lambda: initialised, device_count=lambda: len(stats),
                           memory_stats=lambda device: stats[device])
    return SimpleNamespace(cuda=cuda)


def test_the_cuda_reader_sums_the_allocator_over_devices_only_once_cuda_is_initialised() -> None:
    assert CudaReader(fake_torch(False, [])).read() is None
    stats = [{"allocated_bytes.all.current": 10, "allocated_bytes.all.peak": 30},
             {"allocated_bytes.all.current": 5, "allocated_bytes.all.peak": 5}]
    assert CudaReader(fake_torch(True, stats)).read() == (15, 35)


def test_the_rss_reader_takes_resident_memory_and_its_high_water_mark_from_one_status_file(tmp_path: Path) -> None:
    status = tmp_path / "status"
    status.write_text("Name:\tpython\nVmPeak:\t  900 kB\nVmHWM:\t  4096 kB\nVmRSS:\t  2048 kB\nThreads:\t3\n")
    reader = RssReader(str(status))
    try:
        assert reader.read() == (2048 * 1024, 4096 * 1024)
        status.write_text("Name:\tpython\nVmRSS:\t  1024 kB\n")  # a system without the mark
        assert reader.read() == (1024 * 1024, None)
    finally:
        reader.close()
    real = RssReader()
    try:
        rss, hwm = real.read() or (0, None)
        assert rss > 0 and (hwm is None or hwm >= rss)
    finally:
        real.close()


@pytest.mark.skipif(not Path("/proc/self/statm").exists(), reason="Linux /proc only")
def test_after_the_first_reading_resident_memory_and_its_mark_come_from_statm_and_getrusage() -> None:
    import json
    import subprocess
    import sys

    # fresh processes: one forked from a small one, so getrusage's peak is the cell's; one started
    # from a process that had peaked at 400 MB (as a kernel is started from its notebook server),
    # whose peak getrusage keeps and the cell's reset does not clear
    script = """
import json
import numpy as np
from aiperf_magic.measure.memory_sampling import RssReader
from aiperf_magic.measure.run import _reset_peak_rss
_reset_peak_rss()  # the cell starts
quick, full = RssReader(), RssReader(maxrss=lambda: 1 << 50)
first, _ = quick.read(), full.read()
second, second_full = quick.read(), full.read()
block = np.ones(25_000_000)  # 200 MB touched, then freed between two readings
del block
after = quick.read()
print(json.dumps({"quick": quick.quick, "full": full.quick, "second": second, "second_full": second_full,
                  "after": after}))
"""
    hop = ("import os, subprocess, sys\n"
           "if sys.argv[1] == 'clean':\n"
           "    pid = os.fork()\n"
           "    if pid == 0:\n"
           "        os.execv(sys.executable, [sys.executable, '-c', sys.argv[2]])\n"
           "    _, status = os.waitpid(pid, 0)\n"
           "    sys.exit(os.waitstatus_to_exitcode(status))\n"
           "block = b'x' * (400 << 20)\n"
           "del block\n"
           "sys.exit(subprocess.run([sys.executable, '-c', sys.argv[2]]).returncode)\n")

    def run(kind: str) -> dict[str, Any]:
        out = subprocess.run([sys.executable, "-c", hop, kind, script], capture_output=True, text=True, check=True,
                             cwd=Path(__file__).resolve().parents[2])
        return json.loads(out.stdout.strip().splitlines()[-1])

    # the two marks are read a moment apart and must agree within 256 KB: a thread of an imported
    # library touching pages in that moment sends the reader to the status file (its safe way), so a
    # clean process is given three tries to show the quick way
    for _ in range(3):
        got = run("clean")
        if got["quick"]:
            break
    assert got["quick"] is True and got["full"] is False
    (rss, high), (rss_full, high_full) = got["second"], got["second_full"]
    assert abs(rss - rss_full) < 4 << 20 and abs(high - high_full) < 4 << 20
    rss_after, high_after = got["after"]
    assert high_after >= rss + 190 * MB  # the peak between the two readings is seen
    assert rss_after < rss + 50 * MB
    stale = run("stale")
    assert stale["quick"] is False  # getrusage says 400 MB: the status file at every reading
    rss_after, high_after = stale["after"]
    assert high_after >= stale["second"][0] + 190 * MB and high_after < 300 * MB + stale["second"][0]


def report_for(source: str) -> Report:
    return Report(source=source, interval_ms=20.0, rss_delta_bytes=0)


def test_fill_lists_the_lines_by_bytes_with_their_text_and_names_the_peak() -> None:
    host = Script([(0, 0), (300 * MB, 300 * MB), (300 * MB, 700 * MB), (310 * MB, 710 * MB), (310 * MB, 710 * MB)])
    cuda = Script([None, None, (0, 0), (0, 0), (2 * MB, 2 * MB)], starts_at_zero=True, at_request=True)
    run = MemoryRun(readers={"host": host, "cuda": cuda})
    run.sampling.start()  # type: ignore[union-attr]
    for lines in ([(1, 1.0)], [(2, 1.0)], [(2, 1.0)], [(3, 1.0)]):
        run.sampling.sample(lines)  # type: ignore[union-attr]
    report = report_for("a = big()\nb = spike()\nc = small()\n")
    run.fill(report, "<cell>", 1)
    assert [m.line for m in report.memory_lines] == [1, 2, 3]
    spike = report.memory_line(2)
    # its half (200 MB) of the 400 MB that came and went while line 1 ended and line 2 began was
    # released before its own 410 MB: it held 410 MB at most; line 1 its 300 MB and its half, 500 MB
    assert spike is not None and spike.text == "b = spike()" and spike.allocated_bytes == 410 * MB
    assert spike.net_bytes == 10 * MB and report.memory_line(1).allocated_bytes == 500 * MB  # type: ignore[union-attr]
    small = report.memory_line(3)
    # CUDA's 2 MB came between a reading on line 2 and one on line 3: an allocator's counter moves
    # when memory is asked for, so the line that began asked for it
    assert small is not None and small.cuda_allocated_bytes == 2 * MB and spike.cuda_allocated_bytes is None
    assert report.peak_line == 2 and report.memory_peak_bytes == 710 * MB and report.memory_mode == "sampled"
    assert report.cuda_peak_line == 3


def test_fill_says_why_when_no_line_was_seen() -> None:
    host = Script([(0, 0), (50 * MB, 50 * MB)])
    run = MemoryRun(readers={"host": host})
    run.sampling.start()  # type: ignore[union-attr]
    run.sampling.sample([])  # the only reading came after the cell  # type: ignore[union-attr]
    report = report_for("x = make()\n")
    report.rss_delta_bytes = 50 * MB
    run.fill(report, "<cell>", 1)
    assert report.memory_lines == [] and report.peak_line is None and report.memory_mode is None
    assert any("ended before the sampler saw one of its lines" in n for n in report.notes)
    quiet = report_for("x = 1\n")
    MemoryRun(hotspots=False, readers={}).fill(quiet, None, 1)
    assert quiet.notes == []  # nothing changed: nothing to explain
    off = report_for("x = make()\n")
    off.rss_delta_bytes = 50 * MB
    MemoryRun(hotspots=False, readers={}).fill(off, None, 1)
    assert off.notes == ["memory per line not measured: --no-hotspots samples no line "
                         "(%%aiperf --memory counts each allocation without it)"]


class FailingEngine:
    name = "memray"

    def __init__(self) -> None:
        self.notes: list[str] = []

    def start(self) -> None:
        raise RuntimeError("No more than one Tracker instance can be active at the same time")


def test_an_engine_that_cannot_start_falls_back_to_the_samples_with_a_note() -> None:
    run = MemoryRun(precise=True, engine=FailingEngine(), readers={})
    run.start()
    assert run.engine is None and run.mode == "sampled"
    assert "memray could not start (RuntimeError" in run.notes[0]


def test_the_sampler_feeds_memory_after_each_tick_and_survives_its_failure() -> None:
    host = Script([(0, 0), (10 * MB, 10 * MB), RuntimeError("boom")])
    memory = LineMemory({"host": host})
    clock = iter(x * 0.02 for x in range(100))
    sampler = Sampler([], interval_s=0.02, clock=lambda: next(clock), memory=memory)
    sampler.start(thread=False)
    sampler.tick()
    assert memory.counters["host"].outside == 10 * MB  # no line sampler: nothing to give it to
    sampler.tick()
    assert memory.notes == ["memory per line: scripted not read: RuntimeError: boom"]
    sampler.stop()


# In IPython's own test shell: the real readers and engines on a cell that keeps one array and makes
# a larger one that a function it defines frees before returning.
PEAK_CELL = """\
import numpy as np
kept = np.ones(6_000_000)
def spike():
    t = np.ones(24_000_000)
    return float(t[0])
s = spike()
"""


def _cell_report(ip: Any, options: str) -> Report:
    ip.user_ns.pop("r", None)
    result = ip.run_cell(f"%%aiperf --text --no-gpu --interval 5 --var r {options}\n" + PEAK_CELL)
    assert result.success
    report = ip.user_ns["r"]
    assert isinstance(report, Report)
    return report


def test_memory_with_memray_gives_each_array_to_its_line_and_names_the_function_line_at_the_peak(ip: Any) -> None:
    pytest.importorskip("memray")
    from IPython.utils.capture import capture_output

    with capture_output():
        report = _cell_report(ip, "--memory")
    assert report.memory_mode == "memray"
    kept, spike = report.memory_line(2), report.memory_line(4)
    assert kept is not None and kept.allocated_bytes == pytest.approx(48e6, rel=0.01)
    assert kept.net_bytes == pytest.approx(48e6, rel=0.01) and (kept.allocations or 0) >= 1
    assert spike is not None and spike.allocated_bytes == pytest.approx(192e6, rel=0.01) and spike.net_bytes < 1024
    assert report.peak_line == 4 and report.memory_peak_bytes == pytest.approx(240e6, rel=0.05)
    assert report.memory_lines[0].line == 4


def test_memory_without_memray_counts_with_tracemalloc_and_says_so(ip: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    import tracemalloc

    from IPython.utils.capture import capture_output

    monkeypatch.setitem(__import__("sys").modules, "memray", None)  # as if it were not installed
    with capture_output():
        report = _cell_report(ip, "--memory")
    assert report.memory_mode == "tracemalloc" and not tracemalloc.is_tracing()
    assert any("memray is not installed" in n for n in report.notes)
    assert report.peak_line in (4, 6)  # the spike's line, or the cell line that called it (sampled)


def test_the_default_mode_finds_the_peak_from_resident_memory(ip: Any) -> None:
    from IPython.utils.capture import capture_output

    with capture_output():
        report = _cell_report(ip, "")
    assert report.memory_mode == "sampled"
    assert report.peak_line in (4, 6)
    assert report.memory_peak_bytes is not None and report.memory_peak_bytes > 150e6


# The views: the hot-lines table's memory column, the header's peak line, the frame's line, AIP904.

def memory_report() -> Report:
    from aiperf_magic.report import FrameProfile, Hotspot, MemoryLine, Samples

    source = "df = load()\nbig = df.values * 2\nfor _ in range(3):\n    step()\n"
    return Report(
        source=source, interval_ms=20.0, wall_s=2.0, cpu_s=1.0, rss_delta_bytes=300 * MB, peak_rss_bytes=1500 * MB,
        samples=Samples(interval_s=0.02, t=[0.0, 1.0], rss_bytes=[500 * MB, 1500 * MB]),
        hotspots=[Hotspot(line=4, seconds=1.5, share=0.75, samples=75, text="step()")],
        memory_lines=[MemoryLine(line=2, allocated_bytes=900 * MB, net_bytes=200 * MB, text="big = df.values * 2 <b>"),
                      MemoryLine(line=1, allocated_bytes=100 * MB, net_bytes=100 * MB, text="df = load()")],
        peak_line=2, memory_peak_bytes=1000 * MB, memory_mode="sampled",
        frames=[FrameProfile(name="df", rows=10, memory_bytes=100 * MB, line=1)],
    )


def test_the_text_view_shows_the_memory_column_the_peak_line_and_the_frames_line() -> None:
    from aiperf_magic.render.text import render_text

    text = render_text(memory_report())
    assert "(peak +1000.0 MB at line 3, whole process 1.5 GB)" in text.splitlines()[0]
    table = text[text.index("Hot lines"):].splitlines()
    assert table[1].startswith("  line   5    1.50 s  75%")  # the hot line (body line 4, with the magic line)
    assert table[2].startswith("  line   3 ") and "900.0 MB (200.0 MB kept) big = df.values" in table[2]
    assert "estimated from resident memory" in table[4]
    assert "Frame df: DataFrame of 10 rows, 100.0 MB, assigned at line 2, which allocated 100.0 MB" in text


def test_the_html_and_the_panel_show_the_memory_column_escaped() -> None:
    from aiperf_magic.render.html import render_html
    from aiperf_magic.render.panel.viewmodel import panel_data

    report = memory_report()
    html = render_html(report)
    assert "<th title=" in html and ">memory</th>" in html and "&lt;b&gt;" in html and "<b>\"" not in html
    data = panel_data(report)
    rows = {r["line"]: r for r in data["hotspots"]}
    assert rows[5]["time"] and rows[3]["time"] == "" and "kept" in rows[3]["memory"]
    assert data["memory_heading"] and "resident memory" in data["memory_heading"]
    assert any("at line 3" in value for _, value in data["header"])


def test_without_memory_lines_the_table_has_no_memory_column() -> None:
    from aiperf_magic.render.html import render_html
    from aiperf_magic.render.panel.viewmodel import panel_data

    report = memory_report()
    report.memory_lines, report.peak_line = [], None
    assert "<th title=" not in render_html(report)
    assert panel_data(report)["memory_heading"] is None


def test_aip904_names_the_line_that_allocated_and_the_peak_line() -> None:
    from aiperf_magic.report import MemoryLine
    from aiperf_magic.verdicts.stage import compute_verdict
    from tests.runtime.timelines import GIB, timeline

    report = timeline(cpu_cores=0.2, swap_step=16 * MB)
    report.memory_lines = [MemoryLine(line=2, allocated_bytes=3 * GIB, net_bytes=GIB, text="big = make()")]
    report.peak_line = 2
    v = compute_verdict(report, mem_total_bytes=16 * GIB)
    assert v is not None and v.code == "AIP904"
    assert v.sentence.endswith("Line 3 allocated 3.0 GB, 1.0 GB of it still held at the end (`big = make()`); "
                               "memory peaked at line 3."), v.sentence
    report.memory_lines, report.peak_line = [], None
    plain = compute_verdict(report, mem_total_bytes=16 * GIB)
    assert plain is not None and "Line" not in plain.sentence


def test_the_default_mode_gives_each_line_the_larger_of_resident_memory_and_the_allocator() -> None:
    from aiperf_magic.measure.memory_sampling import MallocReader

    info = SimpleNamespace(uordblks=3 * MB, hblkhd=7 * MB)
    assert MallocReader(lambda: info).read() == (10 * MB, None)
    assert MallocReader().available  # glibc 2.33 or later here
    # line 1's array came from memory the process already held: resident memory did not rise
    host = Script([(500 * MB, 500 * MB), (500 * MB, 500 * MB), (520 * MB, 520 * MB)])
    malloc = Script([(10 * MB, None), (210 * MB, None), (230 * MB, None)], at_request=True)
    run = MemoryRun(readers={"host": host, "malloc": malloc})
    run.sampling.start()  # type: ignore[union-attr]
    run.sampling.sample([(1, 1.0)])  # type: ignore[union-attr]
    run.sampling.sample([(2, 1.0)])  # type: ignore[union-attr]
    report = report_for("a = reused()\nb = fresh()\n")
    run.fill(report, "<cell>", 1)
    first, second = report.memory_line(1), report.memory_line(2)
    # its 200 MB seen by the allocator alone; the 20 MB asked for as line 2 began went to line 2
    # (resident memory, touched meanwhile, gave half of it to each)
    assert first is not None and first.allocated_bytes == 200 * MB and first.net_bytes == 200 * MB
    assert second is not None and second.allocated_bytes == 20 * MB
    assert report.peak_line == 2 and report.memory_peak_bytes == 220 * MB  # the allocator rose most


def test_an_allocators_rise_between_two_lines_goes_to_the_line_that_began() -> None:
    touched = CounterLines(0, 0)
    asked = CounterLines(0, None, at_request=True)
    for c in (touched, asked):
        c.update(100 * MB, None, [(1, 1.0)], [(2, 1.0)])
    assert touched.allocated == {1: 50 * MB, 2: 50 * MB} and asked.allocated == {2: 100 * MB}
    asked.update(150 * MB, None, [(2, 1.0)], [])  # the cell ended: no line after, the one before
    assert asked.allocated == {2: 150 * MB}


def test_a_plateau_keeps_the_line_that_made_it_and_a_later_spike_is_a_peak_of_its_own() -> None:
    plateau = CounterLines(0, 0)
    plateau.update(300 * MB, 300 * MB, [(2, 1.0)], [(2, 1.0)])
    plateau.update(305 * MB, 305 * MB, [(2, 1.0)], [(4, 1.0)])  # the next lines add a few pages
    plateau.update(309 * MB, 309 * MB, [(4, 1.0)], [(4, 1.0)])
    assert plateau.peak_line == 2 and plateau.peak == 309 * MB
    spikes = CounterLines(0, 0)
    spikes.update(300 * MB, 300 * MB, [(2, 1.0)], [(2, 1.0)])
    spikes.update(10 * MB, 300 * MB, [(2, 1.0)], [(3, 1.0)])  # fell away
    spikes.update(310 * MB, 310 * MB, [(4, 1.0)], [(4, 1.0)])
    assert spikes.peak_line == 4
    exact = tally([(True, 1, 300 * MB, 2), (True, 2, 24, 4), (True, 3, 4096, 5)])
    assert exact.peak_line == 2  # a float and a page after the array: the array's line made the peak
    again = tally([(True, 1, 300 * MB, 2), (False, 1, 0, None), (True, 2, 301 * MB, 5)])
    assert again.peak_line == 5


def test_without_memray_the_host_counters_leave_out_what_tracemalloc_holds_for_itself() -> None:
    import tracemalloc

    from aiperf_magic.measure.memory_sampling import WithoutTracemalloc

    plain = Script([(500 * MB, 600 * MB)] * 2)
    reader = WithoutTracemalloc(plain)
    assert reader.read() == (500 * MB, 600 * MB)  # not tracing: as it is
    tracemalloc.start(1)
    try:
        kept = [str(i) * 3 for i in range(20_000)]
        own = tracemalloc.get_tracemalloc_memory()
        value, high = reader.read() or (0, None)
        assert own > 0 and value <= 500 * MB - own and high is not None and high <= 600 * MB - own
    finally:
        tracemalloc.stop()
    assert kept
    run = MemoryRun(precise=True, engine=TracemallocEngine())
    assert run.sampling is not None and set(run.sampling.readers) >= {"host", "traced"}
    assert isinstance(run.sampling.readers["host"], WithoutTracemalloc)


def test_a_hot_lines_few_pages_beside_a_large_line_are_not_shown() -> None:
    from aiperf_magic.render.summary import hot_rows
    from aiperf_magic.report import Hotspot, MemoryLine

    report = memory_report()
    report.hotspots.append(Hotspot(line=3, seconds=0.1, share=0.05, samples=5, text="for _ in range(3):"))
    report.memory_lines.append(MemoryLine(line=3, allocated_bytes=512 * 1024, text="for _ in range(3):"))
    rows = {r.line: r for r in hot_rows(report, 12)}
    assert rows[3].memory is None and rows[2].memory is not None


@pytest.mark.gpu
def test_cuda_bytes_go_to_the_line_that_allocated_them_on_a_gpu(ip: Any) -> None:
    from IPython.utils.capture import capture_output

    cell = ("import torch, time\nx = torch.ones(64 * 1024 * 1024, device='cuda')\ntime.sleep(0.2)\n"
            "y = x * 2\ntime.sleep(0.2)\ndel y\ntorch.cuda.synchronize()\n")
    with capture_output():
        ip.run_cell("import torch; torch.ones(1, device='cuda')")  # CUDA initialised before the cell
        assert ip.run_cell("%%aiperf --text --var r\n" + cell).success
    report = ip.user_ns["r"]
    first, second = report.memory_line(2), report.memory_line(4)
    assert first is not None and first.cuda_allocated_bytes == pytest.approx(256 * MB, rel=0.05)
    assert first.cuda_net_bytes == pytest.approx(256 * MB, rel=0.05)
    assert second is not None and second.cuda_allocated_bytes == pytest.approx(256 * MB, rel=0.05)
    assert report.cuda_peak_line == 4


def test_an_hour_of_lines_taking_turns_keeps_the_record_of_rises_bounded_and_the_bytes_exact() -> None:
    c = CounterLines(0, None)
    value = 0
    for tick in range(20_000):  # lines 1 and 2 take turns, each rise 1 KB
        value += 1024
        line = 1 + tick % 2
        c.update(value, None, [(line, 1.0)], [(line, 1.0)])
    assert len(c._stack) <= 4096
    assert c.net == {1: 10_000 * 1024, 2: 10_000 * 1024}
    c.update(value - 3 * 1024, None, [(2, 1.0)], [(2, 1.0)])  # the latest rises go first
    assert c.net == {1: 10_000 * 1024 - 1024, 2: 10_000 * 1024 - 2048}


def test_memray_that_cannot_start_leaves_the_host_counters_to_sample_the_lines() -> None:
    from aiperf_magic.measure.memory_engines import MemrayEngine

    class Broken(MemrayEngine):
        def __init__(self) -> None:
            super().__init__(memray_module=SimpleNamespace())

        def start(self) -> None:
            raise RuntimeError("No more than one Tracker instance can be active at the same time")

    run = MemoryRun(precise=True, engine=Broken(), gpu=False)
    assert run.sampling is not None and run.sampling.readers == {}  # memray counts: no counter sampled
    run.sampling.start()  # memray starts after the sampler: its counters are already started
    run.start()
    assert run.mode == "sampled" and "host" in run.sampling.readers
    assert "host" in run.sampling.counters  # read at once, from the moment memray failed
    assert "memray could not start (RuntimeError" in run.notes[0]
    run.stop()


def test_memrays_tracker_runs_inside_the_samplers_start_and_stop_and_tracemalloc_outside() -> None:
    from aiperf_magic.measure.memory_engines import MemrayEngine, TracemallocEngine
    from aiperf_magic.measure.run import CellRun, RunOptions

    order: list[str] = []

    class Memray(MemrayEngine):
        def __init__(self) -> None:
            super().__init__(memray_module=SimpleNamespace())

        def start(self) -> None:
            order.append("engine start")

        def stop(self) -> None:
            order.append("engine stop")

        def result(self, cell_file: Any, line_offset: int) -> Any:
            return None

    class Traced(TracemallocEngine):
        def start(self) -> None:
            order.append("engine start")

        def stop(self) -> None:
            order.append("engine stop")

    for engine, expected in ((Memray(), ["sampler start", "engine start", "engine stop", "sampler stop"]),
                             (Traced(), ["engine start", "sampler start", "sampler stop", "engine stop"])):
        order.clear()
        run = CellRun("x = 1\n", options=RunOptions(gpu=False, memory=True), stages=[],
                      memory=MemoryRun(precise=True, engine=engine, gpu=False))
        start, stop = run.sampler.start, run.sampler.stop
        run.sampler.start = lambda start=start: (order.append("sampler start"), start())[1]  # type: ignore[method-assign,misc]
        run.sampler.stop = lambda stop=stop: (order.append("sampler stop"), stop())[1]  # type: ignore[method-assign,misc]
        run.start()
        run.finish()
        assert order == expected, type(engine).__name__


def test_the_header_names_the_peaks_line_only_for_a_peak_above_a_few_pages() -> None:
    from aiperf_magic.render.summary import memory_value

    report = memory_report()
    report.memory_peak_bytes = 300 * 1024
    report.peak_rss_bytes, report.rss_delta_bytes = 500 * MB + 300 * 1024, 0
    value = memory_value(report)
    assert value is not None and "at line" not in value
