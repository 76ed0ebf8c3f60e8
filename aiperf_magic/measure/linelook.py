"""Reading what a hot line's names hold, from the sampler's thread, while the cell runs.

Values are read from the frame the line runs in: a cell's own (module-level) frame keeps its names in
the user's namespace dict, read as a dict; globals and builtins likewise; attributes (``self.arrays``)
only from the object's own ``__dict__``, so no property or ``__getattr__`` of the user's runs. The
locals of a *function's* frame are another matter (docs/runtime.md, "Reading a hot line's names"):

- Python 3.13+ (PEP 667) gives a view on the frame's variables: reading one name copies nothing.
- Python 3.11 and 3.12 build a snapshot dict inside the frame (``PyFrame_FastToLocals``) on each
  ``frame.f_locals``. Under a Python-level trace function (a debugger), that snapshot is written
  back into the frame after each trace event, which made writes from other threads get lost
  (CPython issue 74929). Refreshing it replaces the values a previous read left there, and dropping
  the last reference to one runs its finalizer inside that C-level read: a finalizer that hands
  the GIL over (a ``__del__`` that sleeps, closes a file, ends a generator) lets the function
  return while the read goes on in its freed frame, which crashed the kernel (reproduced with a
  ``__del__`` that sleeps). So the snapshot is copied and emptied at once after each read: the next
  read replaces nothing, and the frame no longer keeps the user's objects alive until it returns.
  A function that asks for its own namespace (``locals()``, ``vars()``, ``exec``, ``eval``,
  ``sys._getframe``, ``inspect.currentframe``) may hold that very dict: its locals are not read.
  A function's locals are read only when its frame has no trace function, never on a
  free-threaded build (another thread's locals are not safe to read there, CPython issue 144446),
  and only at the few samples of a hot line that ``hotspots.READ_AT`` names; otherwise only its
  globals are read. The sampler holds the garbage collector off meanwhile (:mod:`.stacks`).

Sizes come from :func:`aiperf_magic.sizing.describe` without running the user's methods. What a loop
walks is measured from the live objects its header names (the length of ``values`` for
``range(len(values))``, the rows of ``df`` for ``df.iterrows()``, the sequence behind a
comprehension's iterator), never guessed from the code alone.
"""

from __future__ import annotations

import builtins
import inspect
import operator
import sys
import weakref
from dataclasses import dataclass, field
from types import FrameType
from typing import Any

from ..sizing import Described, describe, kind
from .lineinfo import LineFacts, Ref, Walk

MAX_NAMES = 8  # names described per line
_MISSING = object()
_WHAT = {"len": "the length of", "rows": "the rows of", "columns": "the columns of"}
_SEQ_ITERATORS = ("list_iterator", "tuple_iterator", "range_iterator", "longrange_iterator")


@dataclass
class Looked:
    """What one read of a line found."""

    names: dict[str, Described] = field(default_factory=dict)
    loop_count: int | None = None
    loop: str | None = None  # "range(len(values)): 1,000,000 iterations, the length of values"
    locals_read: bool = False  # whether a function's locals were read (see the module's docstring)
    # datasets and loaders whose size only the user's own ``__len__`` knows: asked after the cell, on
    # the cell's thread, if the object still lives (weak references: nothing is kept alive)
    later: dict[str, weakref.ref[Any]] = field(default_factory=dict)
    loop_later: tuple[weakref.ref[Any], Walk, str] | None = None


# Python 3.13+ (PEP 667): a function's f_locals is a view on its variables, not a snapshot dict.
_LOCALS_VIEW = sys.version_info >= (3, 13)
# names a function uses to reach its own namespace dict (the snapshot a read refreshes)
_ASKS_LOCALS = frozenset({"locals", "vars", "exec", "eval", "_getframe", "currentframe"})


def locals_readable(frame: FrameType) -> bool:
    """Whether this function frame's locals may be read from another thread (see the docstring)."""
    code = frame.f_code
    if not code.co_flags & inspect.CO_OPTIMIZED:
        return True  # module or class body: its locals are a plain dict
    gil = getattr(sys, "_is_gil_enabled", None)
    if gil is not None and not gil():
        return False
    if not _LOCALS_VIEW and not _ASKS_LOCALS.isdisjoint(code.co_names):
        return False
    return frame.f_trace is None


def _function_locals(frame: FrameType) -> Any:
    """The frame's locals for one read: on 3.11 and 3.12 a copy of the snapshot, which is emptied
    (see the docstring); the view itself on 3.13+ and the namespace of a module or class body."""
    got = frame.f_locals
    if _LOCALS_VIEW or not frame.f_code.co_flags & inspect.CO_OPTIMIZED:
        return got
    copy = dict(got)
    got.clear()  # every value is still the frame's own or the copy's: no finalizer runs here
    return copy


class _Scope:
    """Lookups in one frame; the function's locals are taken at most once per read, on demand."""

    def __init__(self, frame: FrameType, allow_locals: bool) -> None:
        self.frame = frame
        self.allow_locals = allow_locals
        self._locals: Any = None
        self.locals_read = False

    def _local(self, name: str) -> Any:
        if self._locals is None:
            if not self.allow_locals or not locals_readable(self.frame):
                return _MISSING
            self._locals = _function_locals(self.frame)
            self.locals_read = bool(self.frame.f_code.co_flags & inspect.CO_OPTIMIZED)
        try:
            return self._locals[name]
        except KeyError:
            return _MISSING

    def value(self, ref: Ref) -> Any:
        if ref.scope == "global":
            obj = self.frame.f_globals.get(ref.name, _MISSING)
            if obj is _MISSING:
                obj = getattr(builtins, ref.name, _MISSING)
        else:
            obj = self._local(ref.name)
            if obj is _MISSING and ref.scope == "name":
                obj = self.frame.f_globals.get(ref.name, _MISSING)
        for attr in ref.attrs:
            if obj is _MISSING:
                break
            obj = _own_attr(obj, attr)
        return obj


def look(frame: FrameType, facts: LineFacts, *, allow_locals: bool = True) -> Looked:
    """Describe the names on the line and measure its loop, from ``frame`` (the line's own)."""
    scope = _Scope(frame, allow_locals)
    out = Looked()
    refs = list(facts.names)
    if facts.walk is not None:
        refs += [r for r in facts.walk.refs if r not in refs and not r.name.startswith(".")]
    for ref in refs:
        if len(out.names) >= MAX_NAMES:
            break
        obj = scope.value(ref)
        if obj is _MISSING:
            continue
        described = describe(obj, user_code=False)
        if described is not None:
            out.names[ref.label] = described
            if described.size is None and kind(obj) in ("loader", "dataset"):
                _defer(out.later, ref.label, obj)
    if facts.walk is not None:
        out.loop_count, out.loop = _measure_walk(scope, facts.walk)
        if out.loop is None and len(facts.walk.refs) == 1 and facts.walk.how == "iter":
            obj = scope.value(facts.walk.refs[0])
            if kind(obj) in ("loader", "dataset"):
                deferred: dict[str, weakref.ref[Any]] = {}
                _defer(deferred, "", obj)
                if deferred:
                    out.loop_later = (deferred[""], facts.walk, facts.walk.refs[0].label)
    out.locals_read = scope.locals_read
    return out


def after_cell(obj: Any, walk: Walk | None = None, label: str = "") -> tuple[Described | None, int | None, str | None]:
    """On the cell's thread, after it ended: the object described with its own ``__len__``, and the
    loop over it measured (its iterations and how that was measured)."""
    described = describe(obj, user_code=True)
    if walk is None:
        return described, None, None
    n = _count_known(obj, described)
    if n is None:
        return described, None, None
    held = f" ({described.text})" if described is not None else ""
    return described, n, f"{walk.text}: {n:,} iterations, what iterating walks in {label}{held}, sized after the cell"


def _defer(into: dict[str, weakref.ref[Any]], label: str, obj: Any) -> None:
    try:
        into[label] = weakref.ref(obj)
    except TypeError:  # not weakly referable: not asked later
        pass


def _measure_walk(scope: _Scope, walk: Walk) -> tuple[int | None, str | None]:
    if walk.how == "range":
        bounds = [scope.value(b) if isinstance(b, Ref) else b for b in walk.bounds]
        if not all(_is_int(b) for b in bounds) or (len(bounds) == 3 and int(bounds[2]) == 0):
            return None, None
        n = len(range(*(int(b) for b in bounds)))
        return n, f"{walk.text}: {n:,} iterations"
    if walk.how == "iterator":
        return _iterator_count(scope.value(walk.refs[0]), walk.text)
    counts = []
    for ref in walk.refs:
        obj = scope.value(ref)
        count = _count(obj, walk.how) if obj is not _MISSING else None
        if count is None:
            return None, None
        counts.append((count, ref, obj))
    if not counts:
        return None, None
    n, ref, obj = min(counts, key=lambda c: c[0])
    what = _WHAT.get(walk.how, "what iterating walks in")
    described = describe(obj, user_code=False)
    held = f" ({described.text})" if described is not None else ""
    return n, f"{walk.text}: {n:,} iterations, {what} {ref.label}{held}"


def _count(obj: Any, how: str) -> int | None:
    """How many times a loop of shape ``how`` over ``obj`` runs, from sizes only."""
    return _count_known(obj, describe(obj, user_code=False), how)


def _count_known(obj: Any, d: Described | None, how: str = "iter") -> int | None:
    k = kind(obj)
    size = d.size if d is not None else None  # rows of a frame, items of a container (None: unknown)
    try:
        if how == "rows":
            return size if k in ("frame", "series") else None
        if how == "columns" and k == "frame":
            return int(obj.shape[1]) if size is not None else None
        if k in ("array", "tensor"):
            return int(obj.shape[0]) if obj.shape else None  # the first axis, whatever the shape
        if k == "frame" and how in ("iter", "columns"):
            return int(obj.shape[1]) if size is not None else None  # iterating a frame walks its columns
        if k == "loader":
            return _batches(obj, size) if how == "iter" else None
        return size if k in ("frame", "series", "container", "dataset") else None
    except Exception:
        return None


def _batches(loader: Any, size: int | None) -> int | None:
    batch = getattr(loader, "batch_size", None)
    if size is None or not isinstance(batch, int) or batch <= 0:
        return None
    return size // batch if getattr(loader, "drop_last", False) else -(-size // batch)


def _iterator_count(it: Any, text: str) -> tuple[int | None, str | None]:
    """A comprehension's iterator: the sequence behind a list, tuple or range iterator, measured."""
    if it is _MISSING:
        return None, None
    if type(it).__name__ in _SEQ_ITERATORS and type(it).__module__ == "builtins":
        try:
            seq = it.__reduce__()[1][0]  # (iter, (sequence,), position): the sequence, not a copy
            n = len(seq)
        except Exception:
            return None, None
        if n == 0:
            return None, None  # an exhausted iterator reduces to an empty tuple, whatever it walked
        described = describe(seq, user_code=False)
        held = described.text if described is not None else type(seq).__name__
        return n, f"{text}: {n:,} iterations, the length of a {held}"
    if type(it).__module__ == "builtins":
        left = operator.length_hint(it, -1)
        if left >= 0:
            return None, f"{text}: {left:,} iterations still to go at this sample"
    return None, None


def _own_attr(obj: Any, attr: str) -> Any:
    """``obj.attr`` from the object's own ``__dict__`` (a module's, a class's, an instance's) only."""
    try:
        own = object.__getattribute__(obj, "__dict__")
    except Exception:
        return _MISSING
    try:
        return own.get(attr, _MISSING) if isinstance(own, dict) else own[attr]
    except Exception:
        return _MISSING


def _is_int(value: Any) -> bool:
    if isinstance(value, bool):
        return False
    return isinstance(value, int) or (hasattr(value, "__index__") and type(value).__module__ == "numpy")
