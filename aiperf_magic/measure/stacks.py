"""One thread's stack, read at one sample: which user lines it is on and what each of them called.

The *user lines* of a stack are the current lines of its frames that run user code
(:func:`aiperf_magic.usercode.is_user_code`: the measured cell, functions of earlier cells, the
user's own modules), innermost first. Each gets the sample; a function's line is counted once
however deep the recursion. The *cell line* is the innermost line of the measured cell itself
(its compiled file); on the cell's own thread only frames inside IPython's ``run_code`` count, so
whatever runs the shell (a script, a test harness) never does. A line's *callee* is the first
library frame on the stack inward from it (``DataFrame.iterrows``, ``_LocIndexer.__getitem__``,
``_BaseDataLoaderIter.__next__``): what its time went into outside user code; ``via`` the user
function it called directly, when there is one.

Reading another thread's frames is safe under the GIL only while this thread runs no Python code in
the middle of one C-level read. On CPython 3.11 and 3.12 three such reads allocate frame objects or
dicts (``sys._current_frames()``, ``frame.f_back``, ``frame.f_locals``); an allocation can start
the garbage collector, whose finalizers (a ``__del__``, a weak reference's callback) are Python
code, and Python code can hand the GIL to the thread being read, which may then return from the
very frame the read is half-way through: the read goes on in freed memory (a crash, or a
``tuple`` where a frame should be, seen in tests). :class:`gc_paused` holds the collector off
while a sample reads frames; the locals are read as :mod:`.linelook` says.
"""

from __future__ import annotations

import dis
import gc
import weakref
from dataclasses import dataclass, field
from types import CodeType, FrameType

from ..usercode import is_user_file


@dataclass(slots=True)
class UserLine:
    frame: FrameType
    key: int | tuple[str, int]  # a cell line (int, 1-based in the body) or (file, line) of a function
    callee: str | None  # the first library frame inward, "DataFrame.iterrows"
    via: str | None  # the user function this line called, when the stack went on into one
    innermost: bool  # no other user line inward of it: the sample is its own
    # the frame that called this lambda from the same line: the names that line reads are split
    # between the two frames
    outer: FrameType | None = None


@dataclass
class Attribution:
    lines: list[UserLine] = field(default_factory=list)  # innermost first
    cell: UserLine | None = None  # the measured cell's innermost line on this stack


class gc_paused:  # lower case: used as a context manager, like contextlib's
    """The garbage collector held off while this thread reads other threads' frames (see the
    module's docstring); a collector already disabled (by the user) is left so."""

    __slots__ = ("_was_on",)

    def __enter__(self) -> None:
        self._was_on = gc.isenabled()
        if self._was_on:
            gc.disable()

    def __exit__(self, *exc: object) -> None:
        if self._was_on:
            gc.enable()


def label(code: CodeType) -> str:
    # co_qualname (3.11+) names methods with their class: "DataFrame.iterrows".
    return getattr(code, "co_qualname", code.co_name)


def user_stack(frame: FrameType, root: CodeType | None, cell_file: str | None = None) -> list[FrameType] | None:
    """The frames worth reading, innermost first: on the cell's thread (``root`` given) those inside
    ``run_code``; None when that thread is not running a cell at all. A cell that awaits at its top
    level (``await asyncio.gather(*[fetch(u) for u in urls])``) is suspended inside ``run_code``
    while the event loop runs the coroutines it made, each from the loop's own frames: there, the
    frames up to the outermost of the measured cell's own code (``cell_file``) are the cell's."""
    stack: list[FrameType] = []
    f: FrameType | None = frame
    while f is not None:
        if root is not None and f.f_code is root:
            return stack
        stack.append(f)
        f = f.f_back
    if root is None:
        return stack
    if cell_file is not None:
        outermost = max((i for i, g in enumerate(stack) if g.f_code.co_filename == cell_file), default=None)
        if outermost is not None:
            return stack[: outermost + 1]
    return None


def attribute(stack: list[FrameType], *, cell_file: str | None, line_offset: int) -> Attribution:
    """The user lines of ``stack`` (innermost first), up to and including the measured cell's."""
    out = Attribution()
    seen: set[int | tuple[str, int]] = set()
    library: CodeType | None = None  # the nearest library frame inward of the frame looked at
    inner_user: CodeType | None = None  # the user frame just inward of it, if the frame there is one
    for i, f in enumerate(stack):
        code = f.f_code
        name = code.co_filename
        if name != cell_file and not is_user_file(name):
            library, inner_user = code, None  # named only if a user line needs it: most frames are not
            continue
        if name == cell_file:
            line = frame_line(f) - line_offset
            if line < 1:
                break  # the cell's code before its first line: nothing of the user's yet
            key: int | tuple[str, int] = line
        else:
            key = (name, frame_line(f))
        entry = UserLine(f, key, label(library) if library is not None else None,
                         label(inner_user) if inner_user is not None else None, innermost=not seen)
        if key not in seen:
            seen.add(key)
            out.lines.append(entry)
            entry.outer = _caller_on(f, stack[i + 1] if i + 1 < len(stack) else None)
        if name == cell_file:
            out.cell = entry
            break  # outer frames of the cell (its module frame calling its own function) are the same cell
        inner_user = code
    return out


# Per code object: the line of each instruction that has none of its own (see frame_line).
_LINELESS: weakref.WeakKeyDictionary[CodeType, dict[int, int]] = weakref.WeakKeyDictionary()


def _caller_on(frame: FrameType, back: FrameType | None) -> FrameType | None:
    """The caller of a lambda when it runs the same file's same line (``min(xs, key=lambda n: d[n])``).
    A comprehension's caller is left alone: the names it reads on that line are what the
    comprehension walks, which its own iterator measures, not values the line computes with.
    ``back`` is the next frame of the stack already walked (a C function such as ``min`` makes no
    frame between them): another thread's ``f_back`` is not read again."""
    if back is None or frame.f_code.co_name != "<lambda>" or back.f_code.co_filename != frame.f_code.co_filename:
        return None
    return back if frame_line(back) == frame_line(frame) else None


def frame_line(frame: FrameType) -> int:
    """The frame's current line. CPython 3.11 gives ``f_lineno`` None at an instruction that has no
    line of its own, such as the jump back to a loop's header, which is where a thread looping in
    pure Python most often gives up the GIL, so where other threads see it: such an instruction
    counts for the line it jumps to (the loop's header), or else for the line before it."""
    line = frame.f_lineno
    if line is not None:
        return line
    code = frame.f_code
    table = _LINELESS.get(code)
    if table is None:
        table = _LINELESS[code] = _lineless(code)
    return table.get(frame.f_lasti, code.co_firstlineno)


def _lineless(code: CodeType) -> dict[int, int]:
    out: dict[int, int] = {}
    try:
        instructions = list(dis.get_instructions(code))
    except Exception:  # bytecode this dis cannot read: the function's first line
        return out
    lines = {i.offset: line for i in instructions if (line := _position_line(i)) is not None}
    previous = code.co_firstlineno
    for i in instructions:
        line = lines.get(i.offset)
        if line is not None:
            previous = line
            continue
        target = lines.get(i.argval) if i.opcode in dis.hasjrel or i.opcode in dis.hasjabs else None
        out[i.offset] = target if target is not None else previous
    return out


def _position_line(ins: dis.Instruction) -> int | None:
    positions = getattr(ins, "positions", None)  # Python 3.11+
    return getattr(positions, "lineno", None)


def find_cell_file(frame: FrameType, root: CodeType | None) -> str | None:
    """The measured cell's file: the module-level frame run_code called (not its other callees,
    showtraceback...)."""
    f: FrameType | None = frame
    while f is not None:
        parent = f.f_back
        if parent is not None and parent.f_code is root and f.f_code.co_name == "<module>":
            return f.f_code.co_filename
        f = parent
    return None
