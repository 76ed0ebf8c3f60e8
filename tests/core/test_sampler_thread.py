"""The kernel's shared sampling thread: one thread for every cell, parked between cells."""

import threading
import time

from aiperf_magic.measure.run import CellRun, RunOptions
from aiperf_magic.measure.sampler import Sampler, live_threads
from aiperf_magic.measure.sampler_thread import NAME, SamplerThread, shared


class Recorder:
    """A probe that notes which thread read it, and when."""

    def __init__(self):
        self.notes = []
        self.reads = []

    def start(self):
        pass

    def sample(self, row):
        self.reads.append((threading.get_ident(), time.perf_counter()))
        row["cpu_percent"] = 1.0

    def stop(self):
        pass


def _run(ticker, seconds=0.08, probe=None):
    probe = probe or Recorder()
    sampler = Sampler([probe], interval_s=0.005, ticker=ticker)
    sampler.start()
    time.sleep(seconds)
    sampler.stop()
    return sampler, probe


def test_two_cells_are_ticked_by_one_thread_that_reads_nothing_between_them():
    ticker = SamplerThread()
    try:
        _, first = _run(ticker)
        thread = ticker._thread
        parked_at = len(first.reads)
        time.sleep(0.05)  # between cells: no tick, no read
        assert len(first.reads) == parked_at
        assert thread.is_alive() and ticker.serving is None
        _, second = _run(ticker)
        assert ticker._thread is thread  # the same thread, not a new one
        readers = {ident for ident, _ in first.reads[:-1] + second.reads[:-1]}  # the last: stop()'s own
        assert readers == {thread.ident}
        assert len(first.reads) >= 5 and len(second.reads) >= 5
    finally:
        ticker.close()
    assert not thread.is_alive()


def test_a_parked_thread_is_not_work_left_running_but_a_serving_one_is():
    ticker = shared()
    sampler = Sampler([Recorder()], interval_s=0.005, ticker=ticker)
    sampler.start()
    try:
        assert sampler.running and NAME in [t.name for t in live_threads()]
    finally:
        sampler.stop()
    assert not sampler.running
    assert live_threads() == [] and ticker._thread.is_alive()


def test_a_second_sampler_at_once_gets_a_thread_of_its_own():
    ticker = SamplerThread()
    try:
        one = Sampler([Recorder()], interval_s=0.005, ticker=ticker)
        one.start()
        other_probe = Recorder()
        other = Sampler([other_probe], interval_s=0.005, ticker=ticker)
        other.start()
        time.sleep(0.06)
        assert ticker.serving is one and other.running
        other.stop()
        one.stop()
        assert {ident for ident, _ in other_probe.reads[:-1]} != {ticker._thread.ident}
        assert len(other_probe.reads) >= 4
    finally:
        ticker.close()


def test_a_stop_whose_release_was_interrupted_is_never_ticked_again():
    ticker = SamplerThread()
    probe = Recorder()
    sampler = Sampler([probe], interval_s=0.005, ticker=ticker)
    try:
        sampler.start()
        time.sleep(0.03)
        sampler._stop.set()  # stop() flagged it, then Ctrl-C hit before release()
        time.sleep(0.02)  # the tick in progress, if any, ends
        seen = len(probe.reads)
        time.sleep(0.05)
        assert len(probe.reads) == seen and ticker.serving is None
    finally:
        ticker.close()


def test_closed_thread_is_joined_and_the_next_cell_starts_a_new_one():
    ticker = SamplerThread()
    _run(ticker, 0.02)
    first = ticker._thread
    ticker.close()
    assert not first.is_alive()
    _run(ticker, 0.02)
    assert ticker._thread is not first and ticker._thread.is_alive()
    ticker.close()


def test_a_forked_child_starts_its_own_thread(monkeypatch):
    ticker = SamplerThread()
    _run(ticker, 0.02)
    parent, parent_cond = ticker._thread, ticker._cond
    ticker._pid = -1  # as seen from a child of fork(): the parent's thread is not there
    try:
        _run(ticker, 0.02)
        assert ticker._thread is not parent and ticker._cond is not parent_cond
    finally:
        ticker.close()
        with parent_cond:  # the "parent's" thread, still in this process here: end it too
            parent_cond.notify()
        parent.join(1.0)
    assert not parent.is_alive() and ticker._pid > 0


def test_sampler_cpu_is_counted_per_cell_on_the_shared_thread():
    class Busy(Recorder):
        def sample(self, row):
            end = time.thread_time() + 0.002
            while time.thread_time() < end:
                pass

    ticker = SamplerThread()
    try:
        sampler, _ = _run(ticker, 0.1, Busy())
        assert 0.004 <= sampler.own_cpu_s <= 0.1
        again, _ = _run(ticker, 0.02, Busy())
        assert again.own_cpu_s < sampler.own_cpu_s  # not carried over from the first cell
    finally:
        ticker.close()


def test_measured_cells_use_the_kernel_thread():
    run = CellRun("x = 1\n", options=RunOptions(gpu=False), stages=[])
    run.start()
    time.sleep(0.05)
    report = run.finish()
    assert report.samples.t and shared()._thread is not None
    assert shared().serving is None


def test_a_cells_memory_change_and_peak_are_read_from_the_system(monkeypatch):
    import psutil

    from aiperf_magic.measure import run as run_module

    assert abs(run_module._rss_bytes() - psutil.Process().memory_info().rss) < 8 << 20
    ns = {}
    run = CellRun("kept = b\"x\" * (64 << 20)\n", user_ns=ns, options=RunOptions(gpu=False), stages=[])
    run.start()
    exec(compile(run.source, "<cell>", "exec"), ns)
    report = run.finish()
    assert 60 << 20 <= report.rss_delta_bytes <= 80 << 20
    assert report.peak_rss_bytes >= psutil.Process().memory_info().rss - (8 << 20)


def test_the_cells_peak_comes_from_getrusage_where_it_agreed_with_vmhwm(monkeypatch):
    from aiperf_magic.measure import run as run_module
    from aiperf_magic.measure.memory_sampling import RssReader

    run = CellRun("x = 1\n", options=RunOptions(gpu=False), stages=[])
    run.start()
    time.sleep(0.03)
    reader = run.memory.sampling.readers["host"]
    assert isinstance(reader, RssReader)
    asked = []
    monkeypatch.setattr(run_module, "_read_status_kib", lambda key: asked.append(key) or None)
    report = run.finish()
    if reader.quick:
        assert asked == [] and report.peak_rss_bytes >= report.samples.rss_bytes[-1] - (1 << 20)
    else:  # a process started from a larger one: VmHWM from the status file
        assert asked == ["VmHWM"]
