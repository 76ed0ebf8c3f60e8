"""The session's sampling thread: ticks the watched sampler, never after unwatch, joined by close."""

from __future__ import annotations

import time

from aiperf_magic.auto.ticker import TickedSampler, Ticker
from aiperf_magic.measure.sampler import live_threads


class CountingProbe:
    def __init__(self) -> None:
        self.notes: list[str] = []
        self.count = 0

    def start(self) -> None:
        pass

    def sample(self, row) -> None:
        self.count += 1
        row["rss_bytes"] = self.count

    def stop(self) -> None:
        pass


def wait_for(predicate, limit_s: float = 10.0) -> bool:
    deadline = time.monotonic() + limit_s
    while not predicate() and time.monotonic() < deadline:
        time.sleep(0.005)
    return predicate()


def test_ticker_samples_the_watched_cell_only_and_stops_cleanly():
    ticker = Ticker(interval_s=0.01)
    ticker.start()
    try:
        assert [t.name for t in live_threads()] == ["aiperf-auto"]
        probe = CountingProbe()
        sampler = TickedSampler(ticker, [probe])
        sampler.start()
        assert not sampler.running  # no thread of its own
        assert wait_for(lambda: probe.count >= 3)
        samples = sampler.stop()
        after_stop = probe.count
        assert len(samples) == len(samples.rss_bytes) >= 3
        time.sleep(0.05)
        assert probe.count == after_stop  # unwatched: the ticker leaves it alone

        other = CountingProbe()
        second = TickedSampler(ticker, [other])
        second.start()
        assert wait_for(lambda: other.count >= 2)
        second.stop()
        assert probe.count == after_stop
    finally:
        ticker.close()
    assert live_threads() == []


def test_a_short_cell_still_gets_one_reading():
    ticker = Ticker(interval_s=60.0)
    ticker.start()
    try:
        probe = CountingProbe()
        sampler = TickedSampler(ticker, [probe])
        sampler.start()
        samples = sampler.stop()
    finally:
        ticker.close()
    assert probe.count == 1 and len(samples) == 1


def test_ticker_only_probes_are_never_read_on_the_cells_thread():
    import threading

    from aiperf_magic.ipython.commands.auto import KeptProbe

    gpu = KeptProbe(CountingProbe(), ticker_only=True)
    host = KeptProbe(CountingProbe())
    row: dict = {}
    gpu.sample(row)
    host.sample(row)
    assert (gpu.probe.count, host.probe.count) == (0, 1)
    reader = threading.Thread(target=gpu.sample, args=(row,))
    reader.start()
    reader.join()
    assert gpu.probe.count == 1


def test_host_counters_are_sampled_only_where_the_peak_rss_cannot_be_reset(monkeypatch):
    import os

    from aiperf_magic.ipython.commands import auto

    names = lambda: [type(p.probe).__name__ for p in auto.default_probes()]  # noqa: E731
    monkeypatch.setattr(os, "access", lambda path, mode: True)
    assert names() == ["GpuProbe"]
    monkeypatch.setattr(os, "access", lambda path, mode: False)
    assert names() == ["GpuProbe", "HostProbe"]
    assert all(p.ticker_only for p in auto.default_probes())
