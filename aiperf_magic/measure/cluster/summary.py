"""Fold a cluster's task stream into a ClusterInfo in bounded memory, whatever its length.

One pass over the tasks keeps: per worker, its busy seconds and a busy share per time bin (at
most ``MAX_BINS`` bins: when a task ends past the last bin, the bins double in width and pairs
merge); per function, its total seconds (at most ``MAX_FUNCTIONS`` names, the rest count as
"other"); and a log-scale histogram of task durations for the median. A million tasks cost the
same memory as a thousand: no task is kept.
"""

from __future__ import annotations

import math
from collections import defaultdict

from ...report import ClusterInfo, WorkerHotspot

MAX_BINS = 120
FIRST_BIN_S = 0.05
MAX_FUNCTIONS = 256
TOP_FUNCTIONS = 8
HIST_PER_DECADE = 20
HIST_LOW_S = 1e-6  # durations below a microsecond count as one
OTHER = "other"


class DurationHistogram:
    """Log-spaced counts of durations: the median to within 6 % (20 bins per decade)."""

    def __init__(self) -> None:
        self.counts: dict[int, int] = defaultdict(int)
        self.total = 0

    def add(self, seconds: float) -> None:
        index = math.floor(HIST_PER_DECADE * math.log10(max(seconds, HIST_LOW_S) / HIST_LOW_S))
        self.counts[index] += 1
        self.total += 1

    def quantile(self, q: float) -> float | None:
        if not self.total:
            return None
        rank = q * (self.total - 1)
        seen = 0
        for index in sorted(self.counts):
            seen += self.counts[index]
            if seen > rank:
                # the geometric middle of the bin
                return float(HIST_LOW_S * 10 ** ((index + 0.5) / HIST_PER_DECADE))
        return None


class TaskStreamSummary:
    """Tasks folded as they come: ``add`` each, then ``info`` once.

    Times are seconds on the engine's clock; ``origin`` is when the cell started on that clock and
    ``end`` when it ended: work outside the cell is clipped off.
    """

    def __init__(self, engine: str, origin: float, end: float, threads: dict[str, int] | None = None) -> None:
        self.engine = engine
        self.origin = origin
        self.end = end
        self.threads = dict(threads or {})
        self.bin_s = FIRST_BIN_S
        self.bins: dict[str, list[float]] = {}
        self.busy: dict[str, float] = defaultdict(float)
        self.functions: dict[str, float] = defaultdict(float)
        self.durations = DurationHistogram()
        self.tasks = 0
        self.task_seconds = 0.0
        self.first: float | None = None
        self.last: float | None = None
        self.transfer_s = 0.0
        self.spill_s = 0.0
        self.spilled_bytes = 0

    def add(self, worker: str, function: str, start: float, stop: float) -> None:
        """One task that computed on ``worker`` from ``start`` to ``stop``."""
        start, stop = max(start, self.origin), min(stop, self.end)
        if stop < start:
            return
        seconds = stop - start
        self.tasks += 1
        self.task_seconds += seconds
        self.durations.add(seconds)
        self.busy[worker] += seconds
        if function not in self.functions and len(self.functions) >= MAX_FUNCTIONS:
            function = OTHER
        self.functions[function] += seconds
        self.first = start if self.first is None else min(self.first, start)
        self.last = stop if self.last is None else max(self.last, stop)
        self._spread(worker, start - self.origin, stop - self.origin)

    def add_transfer(self, seconds: float) -> None:
        self.transfer_s += max(0.0, seconds)

    def add_spill(self, seconds: float, nbytes: int = 0) -> None:
        self.spill_s += max(0.0, seconds)
        self.spilled_bytes += max(0, nbytes)

    def _spread(self, worker: str, a: float, b: float) -> None:
        while b > self.bin_s * MAX_BINS:
            self._coarsen()
        row = self.bins.setdefault(worker, [0.0] * MAX_BINS)
        first, last = int(a // self.bin_s), min(MAX_BINS - 1, int(b // self.bin_s))
        for i in range(first, last + 1):
            lo, hi = max(a, i * self.bin_s), min(b, (i + 1) * self.bin_s)
            if hi > lo:
                row[i] += hi - lo

    def _coarsen(self) -> None:
        self.bin_s *= 2
        for worker, row in self.bins.items():
            self.bins[worker] = [row[i] + row[i + 1] for i in range(0, MAX_BINS, 2)] + [0.0] * (MAX_BINS // 2)

    def info(self) -> ClusterInfo:
        """The summary as the Report keeps it (shares, top functions, the median task)."""
        span = (self.last - self.first) if self.first is not None and self.last is not None else 0.0
        workers = sorted(set(self.threads) | set(self.busy))
        threads = {w: max(1, self.threads.get(w, 1)) for w in workers}
        busy = {w: round(min(1.0, self.busy.get(w, 0.0) / (threads[w] * span)), 4) if span > 0 else 0.0
                for w in workers}
        used = max((i for row in self.bins.values() for i, v in enumerate(row) if v > 0), default=-1) + 1
        empty = [0.0] * MAX_BINS
        bins = {w: [round(min(1.0, v / (threads[w] * self.bin_s)), 3) for v in self.bins.get(w, empty)[:used]]
                for w in workers}
        top = sorted(self.functions.items(), key=lambda kv: -kv[1])[:TOP_FUNCTIONS]
        total = self.task_seconds or 1.0
        median = self.durations.quantile(0.5)
        slots = sum(threads.values())
        return ClusterInfo(
            engine=self.engine,
            workers=len(workers),
            threads=slots,
            tasks=self.tasks,
            task_seconds=round(self.task_seconds, 6),
            median_task_ms=round(1000 * median, 4) if median is not None else None,
            spilled_bytes=self.spilled_bytes,
            worker_busy=busy,
            worker_hotspots=[WorkerHotspot(f, round(s, 6), round(s / total, 4)) for f, s in top],
            span_s=round(span, 6),
            transfer_s=round(self.transfer_s, 6),
            spill_s=round(self.spill_s, 6),
            start_s=0.0,
            bin_s=self.bin_s,
            busy_bins=bins,
            worker_threads=threads,
            per_task_ms=round(1000 * span * slots / self.tasks, 4) if self.tasks and span > 0 else None,
        )
