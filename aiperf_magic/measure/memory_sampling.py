"""Memory per line from the sampler: the counters it reads at each tick, given to the lines running.

Each reader returns the counter's value now and its high-water mark (None where the system keeps
none), or None when it cannot be read at this moment:

- ``RssReader``: the process's resident memory and Linux's ``VmHWM`` (which ``%%aiperf`` resets at
  the start of the cell), from ``/proc/self/status`` at the cell's first reading and then, where
  ``getrusage``'s peak agreed with it, from ``/proc/self/statm`` and ``getrusage`` (a few µs instead
  of 10 to 50), through descriptors kept open, the GIL kept; psutil's RSS, without a mark, elsewhere.
- ``CudaReader``: torch's CUDA allocator, allocated bytes and their peak, summed over the devices;
  only once the user's process has imported torch and initialised CUDA (never imported here).
- ``TracedReader``: tracemalloc's traced bytes and their peak (``--memory`` without memray).
- ``MallocReader``: the bytes glibc's allocator has handed out and not taken back (``mallinfo2``),
  without a mark. It walks every free block of the heap: a few µs on a tidy heap, 0.1 ms and more
  on a fragmented one whose blocks the cell's work has pushed out of the CPU's caches. It keeps the
  GIL: handed back, the user's thread went on meanwhile and asked for the next line's memory before
  the walk read the counter, which then went to the line the sampler had seen (a torch tensor's
  160 MB given to the line before it); ``LineMemory`` reads it every few ticks only when a walk
  costs far more. Resident memory misses what the allocator hands out again from memory the process
  already holds (a cell re-run after its arrays were deleted), this counter misses Python's small
  objects (in arenas of their own) and memory not yet touched: the default mode reads both and gives
  each line the larger (``memory_lines.py``).

``LineMemory`` reads them after each tick's line sampling and feeds one ``CounterLines`` per counter
(:mod:`.memory_counter`). Every reader here keeps the GIL, so the user's thread has not moved since
its lines were read; one that handed it back (``releases_gil``) would be read after the others. A
reader that fails is turned off with a note; the others go on.
"""

from __future__ import annotations

import math
import os
import sys
import time
import tracemalloc
from collections.abc import Callable
from typing import Any, Protocol

from .memory_counter import CounterLines, Lines
from .probes.procfs import pread_keeping_gil

Reading = tuple[int, "int | None"]
MAX_DEVICES = 16
# A counter whose cost grows with the heap is read at most at this share of the sampling period's
# time (2 % of 20 ms: 0.4 ms); one that costs more is read every few ticks, at most every MAX_STRIDE-th.
COST_SHARE = 0.02
MAX_STRIDE = 8


class Reader(Protocol):
    label: str
    starts_at_zero: bool  # a counter first read during the cell counted nothing before (CUDA)
    at_request: bool  # it moves when memory is asked for, not as pages are touched (memory_counter.py)
    releases_gil: bool  # the user's thread runs during the read: read after the others

    def read(self) -> Reading | None: ...

    def close(self) -> None: ...


class RssReader:
    """Resident memory and its high-water mark.

    The first reading of a cell reads both from ``/proc/self/status`` (10 to 50 µs: the kernel writes
    out some fifty fields). The later ones read resident memory from ``/proc/self/statm`` and the
    mark from ``getrusage`` (a few µs together) when, at that first reading, ``getrusage``'s peak was
    the status file's ``VmHWM``: the kernel's ``ru_maxrss`` is the larger of that mark and the peak
    the process had when one of its threads ended (or when it was started from another process: a
    kernel keeps its notebook server's peak until it grows past it), which stays above the mark after
    a peak that the cell's reset cleared. Then it is not used for the cell: the status file is read at
    every sample, as where no ``getrusage`` is.
    """

    label = "resident memory"
    starts_at_zero = False
    at_request = False
    releases_gil = False
    AGREE_BYTES = 256 * 1024  # the two marks read a moment apart: pages the process touched meanwhile

    def __init__(self, status_path: str = "/proc/self/status", psutil_module: Any = None,
                 statm_path: str = "/proc/self/statm", maxrss: Any = None) -> None:
        self._path = status_path
        self._statm_path = statm_path
        self._fd: int | None = None
        self._statm: int | None = None
        self._psutil = psutil_module
        self._process: Any = None
        self.linux = psutil_module is None and os.path.exists(status_path)
        self._maxrss = maxrss if maxrss is not None else _ru_maxrss
        self.quick: bool | None = None  # statm and getrusage since the first reading; None before it

    def read(self) -> Reading | None:
        if not self.linux:
            if self._process is None:
                ps: Any = self._psutil
                if ps is None:
                    import psutil

                    ps = psutil
                self._process = ps.Process()
            return int(self._process.memory_info().rss), None
        if self.quick:
            if self._statm is None:
                self._statm = os.open(self._statm_path, os.O_RDONLY)
            resident = int(pread_keeping_gil(self._statm, 256).split()[1]) * _PAGE
            return resident, self.peak()
        if self._fd is None:
            self._fd = os.open(self._path, os.O_RDONLY)
        data = pread_keeping_gil(self._fd)
        rss, hwm = _kib(data, b"VmRSS:"), _kib(data, b"VmHWM:")
        if self.quick is None:
            self.quick = False
            if hwm is not None and os.path.exists(self._statm_path):
                try:
                    peak = self._maxrss()
                except (OSError, ValueError, AttributeError):
                    peak = None
                self.quick = peak is not None and abs(peak - hwm) <= self.AGREE_BYTES
        return (rss, hwm) if rss is not None else None

    def peak(self) -> int:
        return int(self._maxrss())

    def close(self) -> None:
        for fd in (self._fd, self._statm):
            if fd is not None:
                try:
                    os.close(fd)
                except OSError:
                    pass
        self._fd = self._statm = None


def _ru_maxrss() -> int:
    import resource

    return int(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss) * 1024  # KiB on Linux


_PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096


def _kib(data: bytes, key: bytes) -> int | None:
    start = data.find(key)
    if start < 0:
        return None
    end = data.find(b"\n", start)
    fields = data[start + len(key) : end if end >= 0 else None].split()
    return int(fields[0]) * 1024 if fields else None


class CudaReader:
    label = "CUDA allocator"
    starts_at_zero = True
    at_request = True
    releases_gil = False

    def __init__(self, torch_module: Any = None) -> None:
        self._torch = torch_module

    def read(self) -> Reading | None:
        torch = self._torch if self._torch is not None else sys.modules.get("torch")
        cuda = getattr(torch, "cuda", None)
        if cuda is None or not cuda.is_initialized():
            return None
        current = peak = 0
        for device in range(min(int(cuda.device_count()), MAX_DEVICES)):
            stats = cuda.memory_stats(device)
            current += int(stats.get("allocated_bytes.all.current", 0))
            peak += int(stats.get("allocated_bytes.all.peak", 0))
        return current, peak

    def close(self) -> None:
        pass


class TracedReader:
    label = "traced memory"
    starts_at_zero = False
    at_request = True
    releases_gil = False

    def read(self) -> Reading | None:
        if not tracemalloc.is_tracing():
            return None
        current, peak = tracemalloc.get_traced_memory()
        return current, peak

    def close(self) -> None:
        pass


class MallocReader:
    label = "C allocator"
    starts_at_zero = False
    at_request = True
    releases_gil = False
    may_skip = True  # its cost grows with the heap's free blocks (LineMemory reads it less often then)

    def __init__(self, mallinfo: Any = None) -> None:
        self._mallinfo = mallinfo if mallinfo is not None else _mallinfo2()

    @property
    def available(self) -> bool:
        return self._mallinfo is not None

    def read(self) -> Reading | None:
        if self._mallinfo is None:
            return None
        info = self._mallinfo()
        return int(info.uordblks) + int(info.hblkhd), None  # in use in the heaps, and in mapped blocks

    def close(self) -> None:
        pass


_MALLINFO: Any = None  # glibc's mallinfo2 once looked up; False where there is none


def _mallinfo2() -> Any:
    global _MALLINFO
    if _MALLINFO is None:
        _MALLINFO = False
        if sys.platform.startswith("linux"):
            try:
                import ctypes

                class Info(ctypes.Structure):
                    _fields_ = [(name, ctypes.c_size_t) for name in (
                        "arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks", "fsmblks", "uordblks",
                        "fordblks", "keepcost")]

                call = ctypes.PyDLL(None).mallinfo2  # glibc 2.33 and later; PyDLL keeps the GIL
                call.restype = Info
                call.argtypes = ()
                _MALLINFO = call
            except (ImportError, OSError, AttributeError):
                pass
    return _MALLINFO or None


class WithoutTracemalloc:
    """Another reader's counter less what tracemalloc holds for its own records (about as much again
    as the small objects it traces), for ``--memory`` without memray, where both are read."""

    def __init__(self, reader: Reader) -> None:
        self.reader = reader
        self.label = reader.label
        self.starts_at_zero = reader.starts_at_zero
        self.at_request = reader.at_request
        self.releases_gil = getattr(reader, "releases_gil", False)
        self.may_skip = getattr(reader, "may_skip", False)

    def read(self) -> Reading | None:
        reading = self.reader.read()
        if reading is None or not tracemalloc.is_tracing():
            return reading
        own = tracemalloc.get_tracemalloc_memory()
        value, high = reading
        return value - own, (high - own if high is not None else None)

    def close(self) -> None:
        self.reader.close()


class LineMemory:
    """The sampler's side of memory per line: one counter per reader, fed after each tick.

    A reader whose cost grows with the heap (``may_skip``: the allocator's, ``mallinfo2`` walks every
    free block) and whose reading cost more than ``COST_SHARE`` of the sampling period is read every
    2nd, 3rd... tick instead
    (at most every ``MAX_STRIDE``-th), so that it costs about that share; the lines of the ticks it
    skipped are kept and its next rise is shared among them by how much resident memory (the
    ``guide``) rose at each, what resident memory did not show going to the last (``_since``; by their
    time where it rose at none), and ``flush`` (the cell's end) reads any counter a skipped tick
    left behind. Its cost is measured in CPU time at every
    reading, so a heap that becomes tidy is read at every tick again.
    """

    def __init__(self, readers: dict[str, Reader], interval_s: float = 0.02, guide: str = "host") -> None:
        self.guide = guide  # the counter whose rise at each tick shares a skipping counter's rise
        self.readers = self._ordered(readers)
        self.counters: dict[str, CounterLines] = {}
        self.notes: list[str] = []
        self.samples = 0  # readings that found a cell line running
        self.interval_s = interval_s  # the sampler's period (it sets it)
        self._before: dict[str, Lines] = {}  # each counter's lines at its last reading
        # the ticks a counter skipped: the lines of each, and how far the guide rose and fell at it
        self._pending: dict[str, list[tuple[Lines, float, float]]] = {}
        self._guide = (0.0, 0.0)  # how far the guide rose and fell at this tick
        self._skip: dict[str, int] = {}  # ticks each counter skips before its next reading
        self.strides: dict[str, int] = {}  # every how many ticks each counter was last read

    def start(self) -> None:
        for name in list(self.readers):
            reading = self._read(name)
            if reading is not None:
                self.counters[name] = CounterLines(*reading, at_request=self.readers[name].at_request)

    def add(self, name: str, reader: Reader) -> None:
        """A reader joining after ``start`` (the engine that was to count could not start): read now."""
        self.readers = self._ordered({**self.readers, name: reader})
        reading = self._read(name)
        if reading is not None:
            self.counters[name] = CounterLines(*reading, at_request=reader.at_request)

    def sample(self, lines: Lines, *, light: bool = False, moved: Callable[[], Lines | None] | None = None) -> None:
        """One tick: ``lines`` are the cell lines the sampler found running, with their shares.
        ``light``: a tick between the sampler's regular ones (its dense start); the counters whose
        cost grows with the heap keep its lines for their next reading instead of being read.
        ``moved``: asked once the counters are read, the cell's lines now if its thread went on
        meanwhile (the sampler was made to hand the GIL over between its reads); the counters' rises
        are then its."""
        lines = tuple(lines)
        if lines:
            self.samples += 1
        self._guide = (0.0, 0.0)
        read: list[tuple[str, Reading]] = []
        skipped: list[str] = []
        for name in list(self.readers):
            costly = light and getattr(self.readers[name], "may_skip", False)
            if costly or self._skip.get(name, 0) > 0:
                if not costly:
                    self._skip[name] -= 1
                skipped.append(name)
                continue
            reading = self._read(name)
            if reading is not None:
                read.append((name, reading))
        now = moved() if moved is not None else None
        if now is not None:
            lines = tuple(now)
        for name, reading in read:
            self._feed(name, lines, reading)
        for name in skipped:  # its lines kept, with how far the guide rose at them
            self._pending.setdefault(name, []).append((lines, *self._guide))

    def flush(self) -> None:
        """Read each counter that skipped the last ticks (the cell ended): its end is counted too."""
        for name in list(self.readers):
            if name in self._pending:
                reading = self._read(name)
                if reading is not None:
                    self._feed(name, (), reading)

    def _feed(self, name: str, lines: Lines, reading: Reading) -> None:
        pending = self._pending.pop(name, None)
        counter = self.counters.get(name)
        since = lines
        if pending:  # every line since its last reading
            rise = reading[0] - counter.value if counter is not None else 0.0
            since = _since([*pending, (lines, *self._guide)], rise)
        if counter is None:  # first readable now (CUDA initialised by the cell)
            start = 0 if self.readers[name].starts_at_zero else reading[0]
            counter = self.counters[name] = CounterLines(start, 0 if start == 0 else reading[1],
                                                         at_request=self.readers[name].at_request)
        counter.update(reading[0], reading[1], self._before.get(name, ()), since)
        self._before[name] = lines if lines else since
        if name == self.guide:
            self._guide = (counter.last_rise, counter.last_fall)

    def _ordered(self, readers: dict[str, Reader]) -> dict[str, Reader]:
        """Those that keep the GIL first (read at the moment the lines were), the guide first of them."""
        return dict(sorted(readers.items(),
                           key=lambda item: (getattr(item[1], "releases_gil", False), item[0] != self.guide)))

    def stop(self) -> None:
        for reader in self.readers.values():
            reader.close()

    def _read(self, name: str) -> Reading | None:
        reader = self.readers[name]
        cpu0 = time.thread_time()
        try:
            reading = reader.read()
        except Exception as exc:  # one counter that fails costs only itself
            del self.readers[name]
            self.counters.pop(name, None)
            self._pending.pop(name, None)
            reader.close()
            self.notes.append(f"memory per line: {reader.label} not read: {type(exc).__name__}: {exc}")
            return None
        if not getattr(reader, "may_skip", False):
            return reading
        cost = time.thread_time() - cpu0
        stride = min(MAX_STRIDE, max(1, math.ceil(cost / (COST_SHARE * self.interval_s))))
        self.strides[name] = stride
        self._skip[name] = stride - 1
        return reading


def _since(ticks: list[tuple[Lines, float, float]], rise: float) -> Lines:
    """The lines of the ticks since a counter's last reading, weighted for sharing the counter's
    ``rise``: each tick by how far the guide (resident memory) rose at it, and what the guide's rises
    leave unexplained by the last tick (memory asked for and not yet touched: an allocator's counter
    moves at the request, resident memory as the pages are filled); by the lines' time where the guide
    did not rise (memory the process held already, handed out again)."""
    weights = [max(0.0, guide) for _, guide, _ in ticks]
    if sum(weights) <= 0:
        return tuple(item for lines, _, _ in ticks for item in lines)
    weights[-1] += max(0.0, rise - sum(weights))
    out: list[tuple[int, float]] = []
    for (lines, _, _), weight in zip(ticks, weights, strict=True):
        total = sum(w for _, w in lines if w > 0)
        if weight > 0 and total > 0:
            out.extend((line, weight * w / total) for line, w in lines if w > 0)
    return tuple(out) if out else tuple(item for lines, _, _ in ticks for item in lines)
