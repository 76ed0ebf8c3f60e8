"""Where a cell waits at an ``await``: the frames of its suspended coroutines.

A cell that awaits at its top level (``results = await fetch_all(urls)``) is suspended while what it
awaits runs elsewhere (``asyncio.to_thread`` in a worker thread, a socket the event loop watches).
The cell's thread then sits in the event loop's ``select``, with no frame of the cell on its stack,
and a sample there would go to no line. The suspended coroutines still hold their frames: each
task's coroutine, followed through what it awaits (``cr_await``), down to the innermost coroutine of
the cell, which is suspended on the line that awaits. Read from the sampler's thread, under the GIL:
asyncio's set of tasks is a ``WeakSet`` that may change while it is copied; such a sample is skipped.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from types import FrameType
from typing import Any

MAX_DEPTH = 64  # coroutines followed down one chain of awaits


def awaiting_stack(is_cell: Callable[[str], bool]) -> tuple[list[FrameType], Any] | None:
    """The frames of the first task whose chain of awaits reaches code for which ``is_cell(file)``
    holds, innermost first, and what its innermost coroutine awaits (a Future); None when none does."""
    tasks = sys.modules.get("asyncio.tasks")
    live = getattr(tasks, "_all_tasks", None) or getattr(tasks, "_scheduled_tasks", None)
    if live is None:
        return None
    try:
        every = list(live)
    except RuntimeError:  # the set changed while it was copied
        return None
    for task in every:
        try:
            if task.done():
                continue
            frames, awaited = _chain(task.get_coro())
        except Exception:  # a task object of another kind: not ours to insist on
            continue
        if any(is_cell(f.f_code.co_filename) for f in frames):
            return frames[::-1], awaited
    return None


def _chain(coro: Any) -> tuple[list[FrameType], Any]:
    """The frames of ``coro`` and of the coroutines it awaits, outermost first, and the last awaited."""
    frames: list[FrameType] = []
    awaited = None
    for _ in range(MAX_DEPTH):
        frame = getattr(coro, "cr_frame", None) or getattr(coro, "gi_frame", None)
        if frame is None:
            break
        frames.append(frame)
        nxt = getattr(coro, "cr_await", None)
        if nxt is None:
            nxt = getattr(coro, "gi_yieldfrom", None)
        if nxt is None or not (hasattr(nxt, "cr_frame") or hasattr(nxt, "gi_frame")):
            awaited = nxt
            break
        coro = nxt
    return frames, awaited
