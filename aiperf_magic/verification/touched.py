"""Which names a run is compared on: every name the cell binds or changes, not only those it assigns.

Besides the cell's own writes and reads (:func:`.sandbox.reads_and_writes`), a function the cell
calls may change a global the cell never names (``cache.append(x)`` inside ``helper()``) or rebind
one (``global total``). So the compared names also hold the globals that the functions the cell can
reach name (:func:`reachable_globals`, on the walk of :mod:`.reach`), and every name whose object changed
identity during the run (:func:`rebound`: a fork keeps ids, so comparing them is cheap). Loop
variables stay out. Iterators among them are read out in the disposable copy (:func:`drain`), so a
``map`` or ``zip`` compares by the items it yields.
"""

from __future__ import annotations

import io
import re
import time
import types
from types import CodeType
from typing import Any

from .compare import HANDLE_MODULES, Drained, is_handle, is_iterator, type_name
from .observed import DISPLAYED
from .reach import Reach
from .sandbox import SHARED, data_names

DRAIN_ITEMS = 10_000
DRAIN_S = 1.0
IPYTHON_NAMES = re.compile(r"_+|_i+|_i?\d+|In|Out|_oh|_ih|_dh|_exit_code|exit|quit|get_ipython")


class _Named(Reach):
    """The globals of one namespace that reachable functions name (the cell's own names aside)."""

    def __init__(self, namespace: dict[str, Any]) -> None:
        super().__init__()
        self.namespace = namespace
        self.names: set[str] = set()

    def found_global(self, globals_: dict[str, Any], name: str, top: bool) -> None:
        if not top and globals_ is self.namespace:
            self.names.add(name)


def reachable_globals(namespace: dict[str, Any], codes: list[CodeType]) -> set[str]:
    """Names of ``namespace`` that the functions the cell can call name: they may change them."""
    walk = _Named(namespace)
    for code in codes:
        walk.code(code, namespace, top=True)
    return {n for n in walk.names if not n.startswith("__")}


def ids(ns: dict[str, Any]) -> dict[str, int]:
    return {k: id(v) for k, v in ns.items()}


def rebound(ns: dict[str, Any], before: dict[str, int], skip: set[str]) -> set[str]:
    """Names bound to another object than before the run, or new (IPython's own and ``skip`` aside)."""
    return {
        k
        for k, v in ns.items()
        if before.get(k) != id(v)
        and k not in skip
        and k != DISPLAYED
        and not k.startswith("__")
        and not IPYTHON_NAMES.fullmatch(k)
    }


def deleted(before: dict[str, int], ns: dict[str, Any], candidates: set[str]) -> list[str]:
    """Names the run deleted (they existed before it and are gone)."""
    return sorted(n for n in candidates if n in before and n not in ns)


def compared_names(
    compare: list[str] | None, candidates: set[str], ns: dict[str, Any], notes: list[str] | None = None
) -> list[str]:
    """The names to compare: the caller's, or the data among the candidates, and the displayed result.

    Iterators stay (:func:`prepare` reads them out: they compare by their items). Other handles
    (open files, locks, connections, loggers, widgets, figures) are left out: they hold
    state outside the values a rewrite must preserve, and compare by identity.
    """
    shown = [DISPLAYED] if DISPLAYED in ns else []
    if compare is not None:
        return [*compare, *shown]
    names = data_names(ns, candidates)
    handles = [n for n in names if is_handle(ns[n]) and not drainable(ns[n])]
    if handles and notes is not None:
        notes.append(f"not compared: {', '.join(handles)} (handles: files, locks, connections, widgets)")
    return [*(n for n in names if n not in handles), *shown]


def prepare(ns: dict[str, Any], names: list[str], notes: list[str] | None = None) -> None:
    """Make ``names`` comparable in place in a disposable namespace: iterators are read out, and a
    displayed module, function or class becomes the text IPython would show."""
    for n in names:
        if n in ns and drainable(ns[n]):
            ns[n] = drain(ns[n])
    if DISPLAYED in ns and isinstance(ns[DISPLAYED], SHARED):
        ns[DISPLAYED] = repr(ns[DISPLAYED])
    partial = [n for n in names if isinstance(ns.get(n), Drained) and not ns[n].complete]
    if partial and notes is not None:
        notes.append(f"compared by their first items only: {', '.join(partial)} (iterators are read up to a bound)")


def drainable(value: Any) -> bool:
    """An iterator (``map``, ``zip``, a generator) whose items can be read in a disposable copy."""
    if isinstance(value, io.IOBase) or type(value).__module__.split(".")[0] in HANDLE_MODULES:
        return False
    return isinstance(value, types.GeneratorType) or is_iterator(value)


def drain(it: Any) -> Drained:
    """The items ``it`` yields, at most :data:`DRAIN_ITEMS` of them or for :data:`DRAIN_S` seconds."""
    out = Drained(type_name(it))
    start = time.perf_counter()
    try:
        for item in it:
            out.items.append(item)
            if len(out.items) >= DRAIN_ITEMS or time.perf_counter() - start > DRAIN_S:
                out.complete = False
                break
    except Exception as exc:  # the iterator's own error is part of what it does
        out.error = f"{type(exc).__qualname__}: {exc}"
    return out


def new_names(ns: dict[str, Any], before: dict[str, int], plan: Any, record: Any) -> list[str]:
    """A note naming what only the rewrite binds (new names: helpers it introduced), or none."""
    fresh = sorted(n for n in rebound(ns, before, plan.loop_names) if n not in before and n not in record.names)
    return [f"names only the rewrite binds (new, not compared): {', '.join(fresh)}"] if fresh else []
