"""Hotspots: which line of the cell the main thread was on, sampled from another thread.

The cell's own code is recognised by its parent frame: IPython runs each cell's code from one
function (``run_code``), so the frame just below it is the cell, and every frame compiled from the
same file (functions the cell defined) is the cell too. Each sample goes to the innermost cell line
on the stack; the frame it called into (``DataFrame.iterrows``, ``json.loads``...) is its callee.
"""

from __future__ import annotations

import sys
from collections import Counter, defaultdict
from types import CodeType, FrameType

from ..report import Hotspot


class LineSampler:
    def __init__(self, thread_id: int, root_code: CodeType | None, *, line_offset: int = 0,
                 filename: str | None = None) -> None:
        self._thread_id = thread_id
        self._root_code = root_code
        self._line_offset = line_offset
        self.filename = filename  # the cell's compiled file name, learnt from the first sample
        self.seconds: defaultdict[int, float] = defaultdict(float)
        self.samples: Counter[int] = Counter()
        self.callees: defaultdict[int, Counter[str]] = defaultdict(Counter)
        self.outside_s = 0.0  # time the thread was not in the cell (IPython's own work, other threads)

    def sample(self, dt: float, interval: float | None = None) -> None:
        """Attribute the time since the last tick to where the thread is now.

        A tick that came late (the machine was busy, or C code held the GIL) is capped at two
        intervals: the thread was probably somewhere else for most of that gap, so it must not all
        go to the line where the thread happens to be now (typically one that released the GIL).
        """
        if interval is not None:
            dt = min(dt, 2 * interval)
        frame = sys._current_frames().get(self._thread_id)
        if frame is None:
            return
        line, callee = self._attribute(frame)
        if line is None:
            self.outside_s += dt
            return
        self.seconds[line] += dt
        self.samples[line] += 1
        if callee:
            self.callees[line][callee] += 1

    def _attribute(self, frame: FrameType) -> tuple[int | None, str | None]:
        if self.filename is None:
            self.filename = self._find_cell_file(frame)
            if self.filename is None:
                return None, None
        inner: FrameType | None = None
        f: FrameType | None = frame
        while f is not None:
            if f.f_code.co_filename == self.filename:
                line = f.f_lineno - self._line_offset
                return (line if line >= 1 else None), (_label(inner.f_code) if inner is not None else None)
            inner = f
            f = f.f_back
        return None, None

    def _find_cell_file(self, frame: FrameType) -> str | None:
        f: FrameType | None = frame
        while f is not None:
            parent = f.f_back
            # The cell is module-level code; run_code's other callees (showtraceback...) are not.
            if parent is not None and parent.f_code is self._root_code and f.f_code.co_name == "<module>":
                return f.f_code.co_filename
            f = parent
        return None

    def hotspots(self, wall_s: float, source_lines: list[str] | None = None) -> list[Hotspot]:
        """Lines by time, largest first. ``share`` is the fraction of the cell's wall time."""
        out = []
        # Weights are scaled to the measured wall time, since capping late ticks lost some of it.
        total = sum(self.seconds.values()) + self.outside_s
        scale = wall_s / total if total > 0 and wall_s > 0 else 1.0
        for line, weight in self.seconds.items():
            seconds = weight * scale
            callees = self.callees.get(line)
            callee = callees.most_common(1)[0][0] if callees else None
            text = ""
            if source_lines and 1 <= line <= len(source_lines):
                text = source_lines[line - 1].strip()
            share = seconds / wall_s if wall_s > 0 else 0.0
            out.append(Hotspot(line=line, seconds=seconds, share=min(share, 1.0), callee=callee,
                               samples=self.samples[line], text=text))
        out.sort(key=lambda h: (-h.seconds, h.line))
        return out


def _label(code: CodeType) -> str:
    # co_qualname (3.11+) names methods with their class: "DataFrame.iterrows".
    return getattr(code, "co_qualname", code.co_name)
