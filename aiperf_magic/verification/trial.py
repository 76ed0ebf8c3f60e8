"""One trial run and what comes back from it, shared by the forked and the in-process paths.

A :class:`Plan` holds everything a run needs (compiled code, the user's namespace, the names to
compare); a forked trial inherits it through the fork, so nothing of the user's is ever sent to a
child. An :class:`Outcome` is plain data (numbers and strings) that travels back over a pipe.
"""

from __future__ import annotations

import contextlib
import mmap
import os
import pickle
import sys
from dataclasses import dataclass, field
from types import CodeType
from typing import Any

from .compare import first_difference, is_handle
from .sandbox import SHARED, data_names


@dataclass
class Plan:
    """What both versions run on, fixed before the first trial."""

    codes: dict[str, CodeType]  # "before" and "after"
    namespace: dict[str, Any]
    inputs: list[str]
    candidates: set[str]  # names worth comparing if present after the original ran
    compare: list[str] | None  # names the caller asked to compare
    allow_io: bool = False
    lines: dict[str, dict[int, str]] = field(default_factory=dict)  # per side: static I/O hints by line
    # the first run of each version traces allocations for its peak; False for a long cell: its peak is
    # then the growth of the fresh copy's resident memory, and that run is a timing sample too
    trace_first: bool = True


@dataclass
class Outcome:
    """How one run went; plain data."""

    seconds: float = 0.0
    error: str | None = None
    timed_out: bool = False
    peak_bytes: int | None = None
    peak_how: str = ""
    blocked: str | None = None
    crashed: str | None = None  # the trial process died ("killed by signal 11")
    names: list[str] | None = None  # the compared names (set by the original's first run)
    equal: bool | None = None  # set by the rewrite's first run when the values could be compared
    difference: str | None = None
    uncomparable: list[str] = field(default_factory=list)  # values of the original that could not travel
    notes: list[str] = field(default_factory=list)
    uses_torch: bool = False
    sandbox: list[str] = field(default_factory=list)  # what the operating system enforced in this run's process
    uncovered: list[str] = field(default_factory=list)  # and what it could not, in words


def compared_names(plan: Plan, ns: dict[str, Any], notes: list[str] | None = None) -> list[str]:
    """The names to compare: the caller's, or the data among the cell's writes and reads.

    Handles (open files, iterators, locks, connections, loggers, widgets, figures) are left out: they
    hold state outside the values a rewrite must preserve, and compare by identity.
    """
    if plan.compare is not None:
        return list(plan.compare)
    names = data_names(ns, plan.candidates)
    handles = [n for n in names if is_handle(ns[n])]
    if handles and notes is not None:
        notes.append(f"not compared: {', '.join(handles)} (handles: files, iterators, locks, connections, widgets)")
    return [n for n in names if n not in handles]


def compare(ns_b: dict[str, Any], ns_a: dict[str, Any], names: list[str], notes: list[str]) -> tuple[bool, str | None]:
    """(equal, first difference) of the names in two namespaces."""
    for name in names:
        if name not in ns_a:
            return False, f"{name}: set by the original, missing after the rewrite"
        if name not in ns_b:
            return False, f"{name}: missing after the original"
        diff = first_difference(ns_b[name], ns_a[name], name, notes)
        if diff is not None:
            return False, diff
    return True, None


def holds_tensors(ns: dict[str, Any], names: list[str]) -> bool:
    torch = sys.modules.get("torch")
    if torch is None:
        return False
    for name in names:
        value = ns.get(name)
        items = value if isinstance(value, (list, tuple)) else [value]
        if any(isinstance(v, (torch.Tensor, torch.nn.Module)) for v in items[:100]):
            return True
    return False


# --- values of the original's first run, written to a file in the trial folder -----------------


def save_values(path: str, ns: dict[str, Any], names: list[str]) -> list[str]:
    """Pickle each name's value into ``path``; returns the names whose values could not be pickled.

    Array data (NumPy, pandas) goes out of band into ``path + ".buf"``, so that the reader can map it
    instead of holding a second private copy of a large frame.
    """
    failed = []
    with open(path, "wb") as fh, open(path + ".buf", "wb") as bh:
        for name in names:
            if name not in ns or isinstance(ns[name], SHARED):
                continue
            buffers: list[pickle.PickleBuffer] = []
            try:
                data = pickle.dumps((name, ns[name]), protocol=5, buffer_callback=buffers.append)
                spans = []
                for buf in buffers:
                    raw = buf.raw()
                    spans.append((bh.tell(), raw.nbytes))
                    bh.write(raw)
                    bh.write(b"\0" * (-raw.nbytes % 64))  # aligned, as arrays like
            except BaseException as exc:  # a value's own __reduce__ may raise anything
                if isinstance(exc, KeyboardInterrupt):
                    raise
                failed.append(name)
                continue
            pickle.dump((data, spans), fh, protocol=5)
    return failed


def load_values(path: str) -> dict[str, Any]:
    """The values saved by :func:`save_values`; their array data stays in the mapped file (read-only)."""
    out: dict[str, Any] = {}
    size = os.path.getsize(path + ".buf")
    with open(path + ".buf", "rb") as bh:
        mapped = mmap.mmap(bh.fileno(), 0, access=mmap.ACCESS_READ) if size else None
    view = memoryview(mapped) if mapped is not None else memoryview(b"")
    with open(path, "rb") as fh:
        while True:
            try:
                data, spans = pickle.load(fh)
            except EOFError:
                return out
            name, value = pickle.loads(data, buffers=[view[off : off + n] for off, n in spans])
            out[name] = value


def compare_with_saved(path: str, ns_after: dict[str, Any], names: list[str], failed: list[str]) -> Outcome:
    """The rewrite's first run: compare its namespace with the original's saved values."""
    out = Outcome(names=names)
    before = load_values(path)
    comparable = [n for n in names if n not in failed]
    equal, out.difference = compare(before, ns_after, comparable, out.notes)
    missing = [n for n in failed if n not in ns_after]
    if equal and missing:
        equal, out.difference = False, f"{missing[0]}: set by the original, missing after the rewrite"
    if equal and failed:
        out.uncomparable = list(failed)
        return out
    out.equal = equal
    return out


# --- peak memory in a trial process -------------------------------------------------------------


def rss_now() -> int | None:
    """Resident size in KiB (Linux). In a freshly forked process the high-water mark starts at it."""
    return _status_kib("VmRSS")


def rss_peak_growth(start_kib: int | None) -> int | None:
    peak = _status_kib("VmHWM")
    if start_kib is None or peak is None:
        return None
    return max(0, peak - start_kib) * 1024


def _status_kib(key: str) -> int | None:
    with contextlib.suppress(OSError), open("/proc/self/status") as fh:
        for line in fh:
            if line.startswith(key + ":"):
                return int(line.split()[1])
    return None


def write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]
