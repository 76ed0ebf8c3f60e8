"""Memory per line for one cell: what measures it, and what goes into the Report.

By default the sampler's counters (:mod:`.memory_sampling`): resident memory and glibc's
allocator (each line gets the larger of the two), and torch's CUDA allocator when the cell uses
CUDA. With ``--memory`` an engine (:mod:`.memory_engines`) counts every allocation: memray's
tracker, or tracemalloc where memray is not installed, whose traced bytes
the sampler then reads beside the other two. ``MemoryRun.fill`` writes
``Report.memory_lines``, ``peak_line``, ``memory_peak_bytes``, ``memory_mode`` and
``cuda_peak_line``, or a note saying why they are empty.
"""

from __future__ import annotations

from typing import Any

from ..report import MemoryLine, Report
from .memory_counter import CounterLines
from .memory_engines import MemrayEngine, TracemallocEngine, Tracked, engine_for_memory
from .memory_sampling import (
    CudaReader,
    LineMemory,
    MallocReader,
    Reader,
    RssReader,
    TracedReader,
    WithoutTracemalloc,
)

MIN_BYTES = 64 * 1024  # a line that took less is not listed (page and arena noise)
MAX_LINES = 50
NOTICED_BYTES = 1024**2  # memory the cell changed by this much deserves a word when not attributed
PEAK_MARGIN = 1.0  # another counter's peak names the line when it rose more than resident memory's
HOST_COUNTERS = ("host", "malloc", "traced")  # resident memory first


class MemoryRun:
    def __init__(self, *, precise: bool = False, hotspots: bool = True, gpu: bool = True,
                 engine: Any = None, readers: dict[str, Reader] | None = None) -> None:
        self.notes: list[str] = []
        self.precise = precise
        self.hotspots = hotspots
        self.engine: Any = None
        self._stopped: Any = None  # the engine once stopped
        if precise:
            self.engine = engine
            if engine is None:
                self.engine, note = engine_for_memory()
                if note:
                    self.notes.append(note)
        if readers is None:
            readers = {}
            if hotspots and not isinstance(self.engine, MemrayEngine):
                readers.update(host_readers(traced=isinstance(self.engine, TracemallocEngine)))
            if gpu:
                readers["cuda"] = CudaReader()
        # with an engine, the sampler's side exists even when empty: if the engine cannot start,
        # the host counters are added to it
        self.sampling = LineMemory(readers) if readers or self.engine is not None else None

    @property
    def mode(self) -> str:
        return self.engine.name if self.engine is not None else "sampled"

    @property
    def starts_first(self) -> bool:
        """The engine starts before the sampler and stops after it (tracemalloc: the sampler reads its
        counter); memray's tracker starts after the sampler and stops before it, so that none of
        aiperf's own starting and stopping runs under it (every Python call it traces costs)."""
        return not isinstance(self.engine, MemrayEngine)

    def start(self) -> None:
        """Start the engine (for tracemalloc before the sampler's first reading, which needs it)."""
        if self.engine is None:
            return
        try:
            self.engine.start()
        except Exception as exc:
            failed = self.engine
            self.engine = None
            self.notes.append(f"--memory: {failed.name} could not start ({type(exc).__name__}: {exc}); "
                              "memory per line was sampled instead")
            if self.sampling is not None:
                self.sampling.readers.pop("traced", None)
                self.sampling.counters.pop("traced", None)
                if self.hotspots:
                    for name, reader in host_readers(traced=False).items():
                        self.sampling.add(name, reader)

    def resident_peak(self) -> int | None:
        """The process's resident high-water mark now, from ``getrusage`` when the sampler's resident
        memory reader found it to be ``VmHWM`` this cell (a few µs); None otherwise."""
        reader = self.sampling.readers.get("host") if self.sampling is not None else None
        if isinstance(reader, RssReader) and reader.quick:
            return reader.peak()
        return None

    def stop_engine(self) -> None:
        engine = self.engine
        if engine is not None and self._stopped is not engine:
            self._stopped = engine
            try:
                engine.stop()
            except Exception as exc:
                self.notes.append(f"--memory: {engine.name} did not stop cleanly: {type(exc).__name__}: {exc}")

    def stop(self) -> None:
        self.stop_engine()
        if self.sampling is not None:
            self.sampling.stop()

    def fill(self, report: Report, cell_file: str | None, line_offset: int) -> None:
        sampled = self.sampling.counters if self.sampling is not None else {}
        tracked: Tracked | None = None
        if self.engine is not None:
            self.notes.extend(self.engine.notes)
            try:
                tracked = self.engine.result(cell_file, line_offset)
            except Exception as exc:
                self.notes.append(f"--memory: {self.engine.name}'s record not read: {type(exc).__name__}: {exc}")
            if tracked is not None:
                self.notes.extend(tracked.notes)
        lines: dict[int, MemoryLine] = {}
        if tracked is not None:  # memray: each allocation with its line
            _add(lines, tracked.allocated, tracked.net, tracked.peak_held, tracked.count)
            report.peak_line, report.memory_peak_bytes = tracked.peak_line, round(tracked.peak)
        elif self._lines_seen() and any(name in sampled for name in HOST_COUNTERS):
            # resident memory, the allocator and (--memory without memray) tracemalloc, sampled: each
            # line gets the most any of them gave it, and the counter that rose most names the peak's
            # line (resident memory on a tie: its high-water mark sees a peak between two samples)
            peak = None
            for name in HOST_COUNTERS:
                counter = sampled.get(name)
                if counter is None:
                    continue
                _add(lines, counter.allocated, counter.net, counter.peak_held, None, larger=peak is not None)
                if peak is None or counter.peak - counter.start > PEAK_MARGIN * (peak.peak - peak.start):
                    peak = counter
            assert peak is not None
            report.peak_line, report.memory_peak_bytes = peak.peak_line, round(peak.peak - peak.start)
        cuda = sampled.get("cuda")
        if cuda is not None and self._lines_seen():
            _add_cuda(lines, cuda)
            report.cuda_peak_line = cuda.peak_line if cuda.peak > cuda.start else None
        source = report.source.splitlines()
        for m in lines.values():
            m.text = source[m.line - 1].strip() if 1 <= m.line <= len(source) else ""
        kept = [m for m in lines.values() if max(m.allocated_bytes, m.cuda_allocated_bytes or 0) >= MIN_BYTES]
        kept.sort(key=lambda m: (-m.allocated_bytes, -(m.cuda_allocated_bytes or 0), m.line))
        report.memory_lines = kept[:MAX_LINES]
        if report.memory_lines or report.peak_line is not None or tracked is not None:
            report.memory_mode = self.mode
        else:
            report.memory_peak_bytes = None
            self._why_not(report)
        if self.sampling is not None:
            self.notes.extend(self.sampling.notes)
        report.notes.extend(n for n in self.notes if n not in report.notes)

    def _lines_seen(self) -> bool:
        return self.sampling is not None and self.sampling.samples > 0

    def _why_not(self, report: Report) -> None:
        changed = max(abs(report.rss_delta_bytes or 0), _rose(report))
        if changed < NOTICED_BYTES and not self.precise:
            return
        if not self.hotspots and self.engine is None:
            self.notes.append("memory per line not measured: --no-hotspots samples no line "
                              "(%%aiperf --memory counts each allocation without it)")
        elif self.engine is None and (self.sampling is None
                                      or not any(n in self.sampling.counters for n in HOST_COUNTERS)):
            self.notes.append("memory per line not measured: this system's resident memory could not be read")
        elif not self._lines_seen():
            counts = ("memray counts each allocation (pip install memray)" if self.engine is not None
                      else "%%aiperf --memory counts each allocation")
            self.notes.append(f"memory per line not measured: the cell ended before the sampler saw one of its "
                              f"lines (every {report.interval_ms:g} ms); {counts}")


def host_readers(*, traced: bool) -> dict[str, Reader]:
    """Resident memory and glibc's allocator; with tracemalloc tracing, less what it holds for itself,
    and its traced bytes (Python's objects exactly, which the other two miss)."""
    out: dict[str, Reader] = {}
    malloc = MallocReader()
    for name, reader in (("host", RssReader()), ("malloc", malloc if malloc.available else None)):
        if reader is not None:
            out[name] = WithoutTracemalloc(reader) if traced else reader
    if traced:
        out["traced"] = TracedReader()
    return out


def _rose(report: Report) -> int:
    rss = [v for v in report.samples.rss_bytes if v is not None]
    return (report.peak_rss_bytes or 0) - rss[0] if rss else 0


def _add(lines: dict[int, MemoryLine], allocated: dict[int, float], net: dict[int, float],
         peak: dict[int, float], count: dict[int, int] | None, *, larger: bool = False) -> None:
    """Each line's bytes from one counter; ``larger``: keep what another counter gave where it is more."""
    for line in set(allocated) | set(net):
        kept = round(net.get(line, 0.0))
        took = max(round(allocated.get(line, 0.0)), kept)  # what it holds, it allocated
        m = lines.setdefault(line, MemoryLine(line=line))
        if larger:
            kept, took = max(kept, m.net_bytes), max(took, m.allocated_bytes)
        m.allocated_bytes = took
        m.net_bytes = kept
        m.peak_bytes = min(max(round(peak.get(line, 0.0)), m.peak_bytes if larger else 0), m.allocated_bytes)
        if count is not None:
            m.allocations = count.get(line, 0)


def _add_cuda(lines: dict[int, MemoryLine], cuda: CounterLines) -> None:
    net = cuda.net
    for line, allocated in cuda.allocated.items():
        m = lines.setdefault(line, MemoryLine(line=line))
        m.cuda_allocated_bytes = round(allocated)
        m.cuda_net_bytes = min(round(net.get(line, 0.0)), m.cuda_allocated_bytes)
