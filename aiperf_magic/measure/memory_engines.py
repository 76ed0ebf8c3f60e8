"""``%%aiperf --memory``: every allocation the cell made, given to the cell line that made it.

Two engines (docs/runtime.md, "Memory per line" says why this order):

- ``MemrayEngine``, when memray is installed (Linux, macOS): memray's tracker records each
  ``malloc``, ``mmap`` and their frees with the Python stack that made them (native code included:
  NumPy buffers, torch CPU tensors, the arenas that hold Python's small objects) into a capture
  file, which is read back after the cell and removed.
- ``TracemallocEngine`` elsewhere: the standard library's tracer, which sees Python's objects and
  the buffers NumPy reports to it, not torch's or other native libraries' memory. Its traced bytes
  are read at each sample (:mod:`.memory_sampling`) and given to the lines as the default mode gives
  resident memory: exact bytes, without pages, arenas or other processes' noise, but sampled lines.

Each allocation goes to the innermost frame of the cell's own code on its stack (a function the
cell defines counts at its own lines, as for the hot lines; one from an earlier cell or a library
counts at the cell line that called it). ``tally`` does the accounting on plain events, in order.
"""

from __future__ import annotations

import itertools
import shutil
import tempfile
import time
import tracemalloc
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from .memory_counter import Peak

Frame = tuple[str, str, int]  # (function, file, line), innermost first
MAX_RECORDS = 5_000_000  # allocations read back from one capture; past it, a note
FIXED_NOTE_S = 0.05  # memray's start and stop together worth a note past this


@dataclass
class Tracked:
    """Per cell line: the most its allocations held at once (``allocated``), how many allocations,
    bytes still held at the end and at the peak."""

    allocated: dict[int, float] = field(default_factory=dict)
    count: dict[int, int] = field(default_factory=dict)
    net: dict[int, float] = field(default_factory=dict)
    peak_held: dict[int, float] = field(default_factory=dict)
    peak: float = 0.0  # the most the tracked allocations held at once (above the start)
    peak_line: int | None = None
    notes: list[str] = field(default_factory=list)


def tally(events: Iterable[tuple[bool, int, int, int | None]]) -> Tracked:
    """``events`` in order: (is an allocation, address, bytes, cell line or None). A free of an
    address allocated before tracking began changes nothing; an unmap may release part of a map.

    A line's ``allocated`` is the most its allocations held at once, not their sum: a loop that
    makes and frees a 1 MB temporary a thousand times, or a list grown by reallocation, needed
    its largest size, which is what the line cost the process."""
    out = Tracked()
    peak = Peak(0.0, near_bytes=0, coalesce_bytes=64 * 1024)  # exact bytes: no page noise to allow for
    live: dict[int, tuple[int, int | None]] = {}
    held: dict[int, float] = {}
    current = 0.0
    last_line: int | None = None
    for alloc, address, size, line in events:
        if alloc:
            live[address] = (size, line)
            current += size
            if line is not None:
                out.count[line] = out.count.get(line, 0) + 1
                held[line] = held.get(line, 0.0) + size
                out.allocated[line] = max(out.allocated.get(line, 0.0), held[line])
                last_line = line
            if current > out.peak:
                out.peak = current
                peak.offer(current, line if line is not None else last_line,
                           lambda: {k: v for k, v in held.items() if v > 0})
            continue
        entry = live.pop(address, None)
        if entry is None:
            continue
        had, owner = entry
        freed = had if size <= 0 or size >= had else size
        if freed < had:
            live[address + freed] = (had - freed, owner)  # the rest of a partly unmapped region
        current -= freed
        peak.observe(current)
        if owner is not None:
            held[owner] -= freed
    out.net = {k: v for k, v in held.items() if v > 0}
    out.peak_line, out.peak_held = peak.line, peak.held
    return out


def cell_line(stack: Sequence[Frame], cell_file: str | None, line_offset: int) -> int | None:
    """The body line of the innermost frame of the cell's file on ``stack``."""
    for _, file, line in stack:
        if file == cell_file:
            body = line - line_offset
            return body if body >= 1 else None
    return None


def cell_file_of(stack: Sequence[Frame]) -> str | None:
    """The cell's compiled file: the frame IPython's ``run_code`` ran (for a cell too short for the
    sampler to have learnt it)."""
    for inner, outer in itertools.pairwise(stack):
        if outer[0] == "run_code" and outer[1].endswith(_SHELL) and inner[0] == "<module>":
            return inner[1]
    return None


_SHELL = str(Path("IPython", "core", "interactiveshell.py"))


class MemrayEngine:
    name = "memray"

    def __init__(self, memray_module: Any = None) -> None:
        if memray_module is None:
            import memray as memray_module
        self._memray = memray_module
        self._dir: str | None = None
        self._tracker: Any = None
        self._switched: tuple[SimpleNamespace, SimpleNamespace] | None = None
        self._started = self._fixed_s = 0.0
        self.notes: list[str] = []

    def start(self) -> None:
        self._started = time.perf_counter()
        self._dir = tempfile.mkdtemp(prefix="aiperf-memray-")
        path = Path(self._dir) / "cell.bin"
        self._tracker = self._memray.Tracker(path, memory_interval_ms=1000)
        try:
            self._tracker.__enter__()
        except BaseException:
            self._tracker = None
            self._clean()
            raise
        # Started from inside the cell hook, memray's record of this thread's Python stack loses
        # track when the hook's frames return: every later allocation of the cell then has no stack.
        # It rebuilds that record from the frames now on the stack on a greenlet switch, which this
        # call announces (the cell's allocations then carry their lines; tests check it).
        switch = getattr(getattr(self._memray, "_memray", None), "greenlet_trace_function", None)
        if switch is not None:
            self._switched = (SimpleNamespace(), SimpleNamespace())  # the two "greenlets" (memray marks them)
            switch("switch", self._switched)
        self._fixed_s = time.perf_counter() - self._started

    def stop(self) -> None:
        if self._tracker is not None:
            tracker, self._tracker = self._tracker, None
            t0 = time.perf_counter()
            tracker.__exit__(None, None, None)
            self._fixed_s += time.perf_counter() - t0
            if self._fixed_s >= FIXED_NOTE_S:
                self.notes.append(f"--memory: memray took {self._fixed_s * 1000:.0f} ms to start and stop (it "
                                  "hooks the allocator in every native library loaded, torch's are large)")

    def result(self, cell_file: str | None, line_offset: int) -> Tracked | None:
        if self._dir is None:
            return None
        try:
            reader = self._memray.FileReader(Path(self._dir) / "cell.bin")
            try:
                return self._read(reader, cell_file, line_offset)
            finally:
                reader.close()
        finally:
            self._clean()

    def _read(self, reader: Any, cell_file: str | None, line_offset: int) -> Tracked:
        kinds = self._memray.AllocatorType
        frees = {int(kinds.FREE), int(kinds.MUNMAP), int(kinds.PYMALLOC_FREE)}
        lines: dict[int, int | None] = {}  # stack id -> cell line
        file: list[str | None] = [cell_file]  # learnt from the first stack when the sampler did not
        read = [0]

        def line_of(record: Any) -> int | None:
            stack_id = record.stack_id
            if stack_id not in lines:
                stack = record.stack_trace()
                if file[0] is None:
                    file[0] = cell_file_of(stack)
                lines[stack_id] = cell_line(stack, file[0], line_offset) if file[0] else None
            return lines[stack_id]

        def events() -> Iterable[tuple[bool, int, int, int | None]]:
            for record in reader.get_allocation_records():
                read[0] += 1
                if read[0] > MAX_RECORDS:
                    return
                if record.allocator in frees:
                    yield False, record.address, record.size, None
                else:
                    yield True, record.address, record.size, line_of(record)

        out = tally(events())
        if read[0] > MAX_RECORDS:
            out.notes.append(f"memory per line: only the first {MAX_RECORDS:,} allocations were read back")
        return out

    def _clean(self) -> None:
        if self._dir is not None:
            shutil.rmtree(self._dir, ignore_errors=True)
            self._dir = None


class TracemallocEngine:
    """tracemalloc as an exact counter of the bytes Python and NumPy allocate, read by the sampler.

    One frame a traceback: in a notebook each further frame costs a lookup of its line in IPython's
    own large functions at every allocation (400,000 dict appends: 0.13 s plain, 0.86 s with one
    frame, 10 s with four), and the cell's frame is rarely the innermost one anyway.
    """

    name = "tracemalloc"

    def __init__(self) -> None:
        self._ours = False
        self.notes: list[str] = []

    def start(self) -> None:
        if tracemalloc.is_tracing():  # the user's own tracing: kept as it is, not stopped after the cell
            self.notes.append("memory per line: tracemalloc was already tracing; it was left on after the cell")
        else:
            tracemalloc.start(1)
            self._ours = True
        tracemalloc.reset_peak()

    def stop(self) -> None:
        if self._ours:
            tracemalloc.stop()
            self._ours = False

    def result(self, cell_file: str | None, line_offset: int) -> Tracked | None:
        return None  # every byte per line comes from the sampler's readings of the counter


def engine_for_memory() -> tuple[Any, str | None]:
    """The engine ``--memory`` uses here, and a note when it is not memray."""
    try:
        return MemrayEngine(), None
    except ImportError:
        return TracemallocEngine(), ("memory per line: memray is not installed (pip install memray, Linux and macOS), "
                                     "so tracemalloc traced the cell: Python's objects and NumPy's buffers exactly, "
                                     "other memory from the samples, lines as sampled; it slows allocation-heavy code")
