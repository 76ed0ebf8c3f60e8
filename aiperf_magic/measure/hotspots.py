"""Hotspots: where every thread of the process was, sampled from the sampler's thread.

Each tick reads the stacks of all threads (``sys._current_frames()``) and gives the tick's time to
the user lines they are on (:mod:`.stacks`): the measured cell's lines (``hotspots``) and the
lines of functions defined elsewhere, in earlier cells or the user's own modules
(``function_lines``), whose time also goes to the cell line that called them. Threads that run no
user code (the kernel's IOPub, heartbeat and control threads, IPython's history saver, aiperf's
own) are left out by what they run, not by their names.

How a tick's time is shared (docs/runtime.md, "Hot lines of every thread"): when one thread runs
user code, it gets the tick. When several do, the threads that used CPU since the last tick share it
by the CPU they used, so a main thread waiting in ``join()`` gets nothing while its workers compute;
when none used CPU (all wait: sleeps, sockets), the cell's threads share it equally. A worker that
runs a function of an earlier cell (a thread pool's) has no cell line of its own: its time goes to
the cell line its cell's thread is on (the ``pool.map`` or ``join`` waiting for it). Threads that
already ran user code before the cell started (a background job of an earlier cell) are not the
cell's: their lines show in ``function_lines`` with the CPU they used, never in the cell's lines.
"""

from __future__ import annotations

import functools
import linecache
import re
import sys
import threading
import weakref
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from types import CodeType, FrameType
from typing import TYPE_CHECKING, Any

from ..report import Hotspot
from .awaiting import awaiting_stack
from .probes.threads import ThreadCpuReader
from .shares import ThreadShares
from .stacks import Attribution, UserLine, attribute, find_cell_file, frame_line, gc_paused, label, user_stack

if TYPE_CHECKING:
    from ..sizing import Described
    from .lineinfo import CodeFacts, Walk

MAX_FUNCTION_LINES = 50
# A line's samples at which its names are read (see .linelook): it has proved hot, and once more later.
# Here, not in .linelook, which loads only when a line gets that hot (or with the warm-up).
READ_AT = (2, 8)
_NOTHING = object()  # no await seen (an awaited None is a value)
MAX_THREADS = 64  # other threads' stacks read per tick (in turn, when there are more)
# Sample every thread (False: the cell's own thread only, as aiperf did before; benchmarks compare)
SAMPLE_ALL_THREADS = True
_INPUT = re.compile(r"^<ipython-input-(\d+)-")


class _Line:
    """What the run saw on one line."""

    def __init__(self, code: CodeType, lineno: int) -> None:
        self.code, self.lineno = code, lineno
        self.seconds = self.own_seconds = 0.0
        self.samples = 0
        self.callees: Counter[str] = Counter()
        self.via: Counter[str] = Counter()
        self.threads: set[int] = set()
        self.names: dict[str, Described] = {}
        self.loop_line: int | None = None
        self.loop_count: int | None = None
        self.loop: str | None = None
        self.ops: list[str] = []
        self.function: str = label(code)
        self.where: str | None = None
        self.later: dict[str, weakref.ref[Any]] = {}  # sizes asked after the cell (see linelook.Looked)
        self.loop_later: tuple[weakref.ref[Any], Walk, str] | None = None


def _reading_frames(method: Callable[..., Any]) -> Callable[..., Any]:
    """A LineSampler method that reads other threads' frames runs with the collector held off
    (:class:`.stacks.gc_paused`)."""
    @functools.wraps(method)
    def run(self: Any, *args: Any, **kwargs: Any) -> Any:
        with gc_paused():
            return method(self, *args, **kwargs)

    return run


class LineSampler:
    def __init__(self, thread_id: int, root_code: CodeType | None, *, line_offset: int = 0,
                 filename: str | None = None, all_threads: bool = True, read_names: bool = True,
                 frames: Callable[[], Mapping[int, FrameType]] = sys._current_frames,
                 threads: Callable[[], Iterable[threading.Thread]] = threading.enumerate,
                 thread_cpu: ThreadCpuReader | None = None,
                 cell_files: Mapping[str, int] | None = None) -> None:
        self._thread_id = thread_id
        self._root_code = root_code
        self._line_offset = line_offset
        self.filename = filename  # the cell's compiled file name, learnt from the first sample
        self.all_threads = all_threads
        self.read_names = read_names
        self._frames = frames
        self.shares = ThreadShares(threads, thread_cpu)
        self._cell_files = cell_files if cell_files is not None else {}
        self._lines: dict[int | tuple[str, int], _Line] = {}  # cell lines by number, others by (file, line)
        self._facts: dict[CodeType, CodeFacts] = {}
        self.outside_s = 0.0  # time no thread of the cell was on its lines (IPython's own work...)
        self.tick_lines: list[tuple[int, float]] = []  # the last tick's cell lines and their shares of it
        self.thread_samples: Counter[int] = Counter()  # ident -> samples on user lines
        self.notes: list[str] = []
        self._resolved = False
        self._turn = 0  # where the next tick starts reading, when there are too many threads
        self._at_start: set[int] = set()  # the threads alive when the cell started
        self._files_before: set[str] = set()  # the shell's cell files when the cell started
        self._mark: tuple[int, int] | None = None  # the cell thread's frame and instruction at the last sample
        # no other thread ran user code at the start and none was started since (see .gil_switch)
        self.one_thread = True

    # -- lifecycle ---------------------------------------------------------------------------------
    @_reading_frames
    def start(self) -> None:
        """Note which threads already run user code (not the cell's) and prime their CPU clocks."""
        me = threading.get_ident()
        frames = self._others(me)
        self._at_start = set(frames) | {me, self._thread_id}
        self._files_before = set(self._cell_files)  # the cell's own file is compiled after this
        if not self.all_threads:
            return
        running_user_code = set()
        for ident, frame in frames.items():
            if ident in (me, self._thread_id):
                continue
            stack = user_stack(frame, None)
            if stack and attribute(stack, cell_file=None, line_offset=0).lines:
                running_user_code.add(ident)
        self.shares.start(set(frames), running_user_code)
        self.one_thread = not running_user_code

    # -- one tick ----------------------------------------------------------------------------------
    @_reading_frames
    def sample(self, dt: float, interval: float | None = None) -> None:
        """Attribute the time since the last tick to where the threads are now.

        A tick that came late (the machine was busy, or C code held the GIL) is capped at two
        intervals: the threads were probably elsewhere for most of that gap, so it must not all go
        to the lines they happen to be on now (typically ones that released the GIL).
        """
        if interval is not None:
            dt = min(dt, 2 * interval)
        found = self._attributions()
        weights = self.shares.weights([ident for ident, _ in found], dt)
        main_cell = next((a.cell for ident, a in found if ident == self._thread_id and a.cell), None)
        counted = 0.0
        self.tick_lines = []
        for (ident, a), w in zip(found, weights, strict=True):
            if w <= 0:
                continue
            self.thread_samples[ident] += 1
            for entry in a.lines:
                if entry is not a.cell:
                    self._add(self._line(entry), entry, w, ident)
            if ident in self.shares.background:
                continue
            cell = a.cell
            if cell is None and main_cell is not None and ident != self._thread_id:
                # a worker running a function from elsewhere: its time is the wait of the cell's line
                outer = a.lines[-1]
                cell = UserLine(main_cell.frame, main_cell.key, a.lines[0].callee, label(outer.frame.f_code),
                                innermost=False)
            if cell is None:
                continue
            self._add(self._line(cell), cell, w, ident)
            if isinstance(cell.key, int):
                self.tick_lines.append((cell.key, w))
            counted += w
        self.outside_s += max(0.0, dt - counted)

    @_reading_frames
    def moved(self) -> list[tuple[int, float]] | None:
        """The cell's line now, when the cell's thread, its user code alone, has gone on since this
        tick's sample (the sampler was made to hand the GIL over between its reads, which the short
        switch interval of :mod:`.gil_switch` allows); None when it has not, or with other threads."""
        if not self.one_thread or self._mark is None:
            return None
        frame = self._others(threading.get_ident()).get(self._thread_id)
        if frame is None or (id(frame), getattr(frame, "f_lasti", -1)) == self._mark:
            return None
        stack = user_stack(frame, self._root_code, self.filename)
        cell = attribute(stack, cell_file=self.filename, line_offset=self._line_offset).cell if stack else None
        return [(cell.key, 1.0)] if cell is not None and isinstance(cell.key, int) else []

    def _attributions(self) -> list[tuple[int, Attribution]]:
        me = threading.get_ident()
        found = []
        frames = self._others(me)
        if self.one_thread and not frames.keys() <= self._at_start:
            self.one_thread = False  # the cell started a thread
        if self.filename is None and self._thread_id in frames:
            # learnt from the cell's own thread first: other threads may already run its functions
            self.filename = find_cell_file(frames[self._thread_id], self._root_code)
        self._mark = None
        for ident, frame in self._some(frames):
            if ident == me:
                continue
            main = ident == self._thread_id
            if main:
                self._mark = (id(frame), getattr(frame, "f_lasti", -1))
            if not main and not self.all_threads:
                continue
            stack = user_stack(frame, self._root_code, self.filename) if main else user_stack(frame, None)
            if main and stack is None and self.filename is None:
                self.filename = self._awaited_file(frame)  # the cell awaits: its coroutines run from the loop
                stack = user_stack(frame, self._root_code, self.filename) if self.filename else None
            awaited = _NOTHING
            if main and stack is None:
                stack, awaited = self._suspended()  # the cell waits at an await: where it is suspended
            if not stack:
                continue
            a = attribute(stack, cell_file=self.filename, line_offset=self._line_offset)
            if awaited is not _NOTHING and a.lines:  # what the line awaits: "await to_thread", "await Future"
                a.lines[0].callee = f"await {a.lines[0].callee or type(awaited).__name__}"
            if a.lines:
                found.append((ident, a))
        return found

    def _suspended(self) -> tuple[list[FrameType] | None, Any]:
        """The frames of the cell's coroutines suspended at an ``await`` (innermost first, up to
        ``run_code``), and what the innermost awaits; (None, _NOTHING) when the cell has none."""
        def is_cell(name: str) -> bool:
            return name == self.filename if self.filename is not None else (
                name in self._cell_files and name not in self._files_before)

        found = awaiting_stack(is_cell)
        if found is None:
            return None, _NOTHING
        frames, awaited = found
        if self.filename is None:
            self.filename = next(f.f_code.co_filename for f in frames if is_cell(f.f_code.co_filename))
        cut = next((i for i, f in enumerate(frames) if f.f_code is self._root_code), len(frames))
        return frames[:cut], awaited

    def _awaited_file(self, frame: FrameType) -> str | None:
        """The measured cell's file, found on a stack of the cell's thread outside ``run_code``: a
        file the shell compiled since the cell started (a coroutine of a cell suspended at a top-level
        ``await``, run by the event loop), when no sample saw the cell's own module frame first."""
        f: FrameType | None = frame
        while f is not None:
            name = f.f_code.co_filename
            if name in self._cell_files and name not in self._files_before:
                return name
            f = f.f_back
        return None

    def _others(self, me: int) -> dict[int, FrameType]:
        """Every thread's current frame but this one's. This thread's own frame is the caller's, which
        would hold the dict, and through it every frame read, in a reference cycle: those frames, and
        the arrays their functions had made, would then outlive them until the next garbage
        collection (a 160 MB array deleted by the cell stayed held until the cell ended)."""
        frames = dict(self._frames())
        frames.pop(me, None)
        return frames

    def _some(self, frames: Mapping[int, FrameType]) -> list[tuple[int, FrameType]]:
        """Every thread, or when there are more than MAX_THREADS, the cell's and a different
        MAX_THREADS of the others at each tick, in turn: a process with hundreds of threads must not
        make each tick walk hundreds of stacks."""
        items = list(frames.items())
        if len(items) <= MAX_THREADS:
            return items
        main = [(i, f) for i, f in items if i == self._thread_id]
        others = [(i, f) for i, f in items if i != self._thread_id]
        start = self._turn % len(others)
        self._turn += MAX_THREADS
        return main + (others[start:] + others[:start])[:MAX_THREADS]

    # -- per line ----------------------------------------------------------------------------------
    def _line(self, entry: UserLine) -> _Line:
        """The record of a cell line (an int key) or of a function's line ((file, line) key)."""
        line = self._lines.get(entry.key)
        if line is None:
            line = self._lines[entry.key] = _Line(entry.frame.f_code, frame_line(entry.frame))
            if not isinstance(entry.key, int):
                line.where = self._where(entry.frame)
        return line

    def _add(self, line: _Line, entry: UserLine, w: float, ident: int) -> None:
        line.seconds += w
        line.samples += 1
        line.threads.add(ident)
        if entry.innermost:
            line.own_seconds += w
        if entry.callee:
            line.callees[entry.callee] += 1
        if entry.via:
            line.via[entry.via] += 1
        if self.read_names and line.samples in READ_AT and entry.frame.f_code is line.code:
            try:
                self._look(line, entry.frame)
                if entry.outer is not None:
                    self._look(line, entry.outer, names_only=True)
            except Exception as exc:  # what a line holds is extra: its time still counts
                self.read_names = False
                self.notes.append(f"names on hot lines not read: {type(exc).__name__}: {exc}")

    def _look(self, line: _Line, frame: FrameType, *, names_only: bool = False) -> None:
        """Read the line's names in ``frame``; with ``names_only``, the frame that called the line's
        lambda from the same line, whose names the lambda does not see as its own."""
        from .lineinfo import code_facts
        from .linelook import look

        facts = code_facts(self._facts, frame.f_code).line(line.lineno)
        found = look(frame, facts)
        for name, described in found.names.items():
            old = line.names.get(name)
            if old is None or (described.size or 0) >= (old.size or 0):
                line.names[name] = described
        if names_only:
            return
        line.ops = facts.ops
        line.later.update(found.later)
        line.loop_line = facts.loop_line
        if found.loop is not None:
            line.loop = found.loop
            line.loop_count = found.loop_count if found.loop_count is not None else line.loop_count
        elif found.loop_later is not None:
            line.loop_later = found.loop_later

    def _after_cell(self) -> None:
        """Sizes only the user's own ``__len__`` knows, asked once, on the cell's thread, after it."""
        if self._resolved:
            return
        self._resolved = True
        if not any(line.later or line.loop_later for line in self._lines.values()):
            return
        from .linelook import after_cell

        for line in self._lines.values():
            for name, ref in line.later.items():
                obj = ref()
                described = after_cell(obj)[0] if obj is not None else None
                if described is not None:
                    line.names[name] = described
            if line.loop_later is not None and line.loop is None:
                ref, walk, name = line.loop_later
                obj = ref()
                if obj is not None:
                    _, line.loop_count, line.loop = after_cell(obj, walk, name)
            line.later, line.loop_later = {}, None

    def _where(self, frame: FrameType) -> str:
        name = frame.f_code.co_filename
        number = self._cell_files.get(name)
        match = _INPUT.match(name)
        if number is None and match:
            number = int(match.group(1))
        if number is not None:
            return f"cell [{number}]"
        module = frame.f_globals.get("__name__")
        if name.startswith("<") or not isinstance(module, str) or module == "__main__":
            return name.rsplit("/", 1)[-1]
        return module

    # -- results -----------------------------------------------------------------------------------
    def _scale(self, wall_s: float) -> float:
        self._after_cell()
        # Weights are scaled to the measured wall time, since capping late ticks lost some of it.
        total = sum(line.seconds for key, line in self._lines.items() if isinstance(key, int)) + self.outside_s
        return wall_s / total if total > 0 and wall_s > 0 else 1.0

    def hotspots(self, wall_s: float, source_lines: list[str] | None = None) -> list[Hotspot]:
        """Cell lines by time, largest first. ``share`` is the fraction of the cell's wall time."""
        scale = self._scale(wall_s)
        out = []
        for number, line in self._lines.items():
            if not isinstance(number, int):
                continue
            text = source_lines[number - 1].strip() if source_lines and 1 <= number <= len(source_lines) else ""
            loop_line = line.loop_line - self._line_offset if line.loop_line is not None else None
            out.append(_hotspot(number, line, scale, wall_s, text, loop_line))
        out.sort(key=lambda h: (-h.seconds, h.line))
        return out

    def function_lines(self, wall_s: float) -> list[Hotspot]:
        """Lines of functions defined elsewhere, by time, largest first (at most MAX_FUNCTION_LINES)."""
        scale = self._scale(wall_s)
        out = []
        for key, line in self._lines.items():
            if isinstance(key, int):
                continue
            file, number = key
            h = _hotspot(number, line, scale, wall_s, linecache.getline(file, number).strip(), line.loop_line)
            h.function, h.where, h.file = line.function, line.where, file
            out.append(h)
        out.sort(key=lambda h: (-h.seconds, h.where or "", h.line))
        return out[:MAX_FUNCTION_LINES]


def _hotspot(number: int, line: _Line, scale: float, wall_s: float, text: str, loop_line: int | None) -> Hotspot:
    seconds = line.seconds * scale
    share = seconds / wall_s if wall_s > 0 else 0.0
    return Hotspot(
        line=number, seconds=seconds, share=min(share, 1.0),
        callee=line.callees.most_common(1)[0][0] if line.callees else None,
        samples=line.samples, text=text, threads=max(1, len(line.threads)),
        callees=dict(line.callees.most_common(8)),
        locals={name: d.text for name, d in line.names.items()},
        sizes={name: d.size for name, d in line.names.items() if d.size is not None},
        units={name: d.unit for name, d in line.names.items() if d.unit is not None},
        types={name: d.type for name, d in line.names.items()},
        own_seconds=line.own_seconds * scale, via=dict(line.via.most_common(8)), ops=list(line.ops),
        loop_line=loop_line, loop_count=line.loop_count, loop=line.loop,
    )
