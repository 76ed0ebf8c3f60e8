"""One trial run and what comes back from it, shared by the forked and the in-process paths.

A :class:`Plan` holds everything a run needs (compiled code, the user's namespace, the names to
compare); a forked trial inherits it through the fork, so nothing of the user's is ever sent to a
child. An :class:`Outcome` is plain data (numbers and strings) that travels back over a pipe.
"""

from __future__ import annotations

import contextlib
import io
import mmap
import os
import pickle
import sys
from dataclasses import dataclass, field
from types import CodeType
from typing import Any

from .compare import first_difference, short
from .observed import (
    DISPLAYED,
    PRINTED,
    Observed,
    exception_difference,
    output_difference,
    same_exception,
    without_durations,
)
from .sandbox import SHARED
from .trialfs import open_private

RECORD = "before-record.pkl"


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
    loop_names: set[str] = field(default_factory=set)  # loop variables: never compared
    # the rewritten definitions of an earlier cell's functions, run before each run of the rewrite
    # (:mod:`.rebind`), and the names they bind
    rebind: CodeType | None = None
    rebind_names: set[str] = field(default_factory=set)


@dataclass
class Outcome:
    """How one run went; plain data."""

    seconds: float = 0.0
    error: str | None = None
    timed_out: bool = False
    peak_bytes: int | None = None
    peak_how: str = ""
    cpu_wait_s: float | None = None  # of ``seconds``, waited for a CPU held by another process
    cpu_s: float | None = None  # CPU time the run's process used (every thread)
    blocked: str | None = None
    crashed: str | None = None  # the trial process died ("killed by signal 11")
    names: list[str] | None = None  # the compared names (set by the original's first run)
    equal: bool | None = None  # set by the rewrite's first run when the values could be compared
    difference: str | None = None
    uncomparable: list[str] = field(default_factory=list)  # values of the original that could not travel
    notes: list[str] = field(default_factory=list)
    uses_torch: bool = False
    observed: Observed | None = None  # printed output and the exception (first runs, and timed runs of the original)
    differs_in: str | None = None  # PRINTED when the rewrite differs only in printed output
    sandbox: list[str] = field(default_factory=list)  # what the operating system enforced in this run's process
    uncovered: list[str] = field(default_factory=list)  # and what it could not, in words


@dataclass
class Record:
    """What the original's first run leaves in the trial folder for the runs after it."""

    names: list[str] = field(default_factory=list)  # compared
    failed: list[str] = field(default_factory=list)  # whose values could not be pickled
    observed: Observed | None = None
    gone: list[str] = field(default_factory=list)  # names the original deleted


def write_record(folder: str, record: Record) -> None:
    with open_private(os.path.join(folder, RECORD), "wb") as fh:
        pickle.dump(record, fh)


def read_record(folder: str) -> Record | None:
    try:
        with open(os.path.join(folder, RECORD), "rb") as fh:
            record = pickle.load(fh)
    except (OSError, EOFError, pickle.UnpicklingError):
        return None
    return record if isinstance(record, Record) else None


def accept_raise(out: Outcome, raised: str | None, original: Record | None) -> None:
    """A run that raised what the original's first run raised ran as the cell does: not an error."""
    if (
        raised is not None
        and original is not None
        and original.observed is not None
        and same_exception(raised, original.observed.raised)
    ):
        out.error = None


def compare(
    ns_b: dict[str, Any], ns_a: dict[str, Any], names: list[str], notes: list[str], gone: list[str] | tuple = ()
) -> tuple[bool, str | None]:
    """(equal, first difference) of the names in two namespaces (and the displayed result)."""
    for name in names:
        if name not in ns_a:
            if name == DISPLAYED:
                return False, f"{DISPLAYED}: the original shows {short(ns_b.get(name))}, the rewrite shows nothing"
            return False, f"{name}: set by the original, missing after the rewrite"
        if name not in ns_b:
            return False, f"{name}: missing after the original"
        if name == DISPLAYED and _same_text_but_durations(ns_b[name], ns_a[name]):
            continue  # f'{time.time() - t:.5f} sec' as the cell's last line: text read like printed output
        diff = first_difference(ns_b[name], ns_a[name], name, notes)
        if diff is not None:
            return False, diff
    if DISPLAYED in ns_a and DISPLAYED not in names:
        return False, f"{DISPLAYED}: the original shows nothing, the rewrite shows {short(ns_a[DISPLAYED])}"
    for name in gone:
        if name in ns_a:
            return False, f"{name}: deleted by the original, still bound after the rewrite"
    return True, None


def _same_text_but_durations(before: Any, after: Any) -> bool:
    """A displayed string that differs only in the durations it shows (the rewrite is meant to change them)."""
    return (type(before) is str and type(after) is str and before != after
            and without_durations(before) == without_durations(after))


def compare_runs(
    ns_b: dict[str, Any], ns_a: dict[str, Any], record: Record, observed: Observed, out: Outcome, output: bool = True
) -> None:
    """The rewrite's first run against the original's: the exception, the names, the printed output
    (``output=False``: already compared, between fresh copies, before this run).

    Sets ``out.equal`` and ``out.difference`` (the first one found); ``out.differs_in`` is
    :data:`PRINTED` when printed output is the only difference (it may be masked later).
    """
    out.names = record.names
    before = record.observed or Observed()
    diff = exception_difference(before, observed)
    if diff is None:
        comparable = [n for n in record.names if n not in record.failed]
        equal, diff = compare(ns_b, ns_a, comparable, out.notes, record.gone)
        missing = [n for n in record.failed if n not in ns_a]
        if equal and missing:
            diff = f"{missing[0]}: set by the original, missing after the rewrite"
    if diff is None and output:
        diff = output_difference(before, observed)
        out.differs_in = PRINTED if diff else None
    if diff is None and record.failed:
        out.uncomparable = list(record.failed)  # equal so far: the rest is compared where the values live
        return
    if before.raised and diff is None:
        out.notes.append(f"both versions raised {before.raised}: compared with what they did before it")
    vacuous = diff is None and not record.names and not before.labels()
    out.equal, out.difference = diff is None and not vacuous, diff


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
    with open_private(path, "wb") as fh, open_private(path + ".buf", "wb") as bh:
        for name in names:
            if name not in ns or isinstance(ns[name], SHARED):
                continue
            buffers: list[pickle.PickleBuffer] = []
            try:
                data = _dumps((name, ns[name]), buffers)
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


class _Pickler(pickle.Pickler):
    """A view of a torch tensor pickles its whole storage (10,000 rows of one tensor unbound into a
    list would write the tensor 10,000 times): each tensor travels as a compact copy of itself."""

    def reducer_override(self, obj: Any) -> Any:
        torch = sys.modules.get("torch")
        if torch is None or type(obj) is not torch.Tensor or obj.is_cuda:
            return NotImplemented
        if obj.untyped_storage().nbytes() <= obj.element_size() * obj.nelement():
            return NotImplemented  # already compact
        with torch.no_grad():
            compact = obj.detach().clone().requires_grad_(obj.requires_grad)
        return compact.__reduce_ex__(5)


def _dumps(value: Any, buffers: list[pickle.PickleBuffer]) -> bytes:
    out = io.BytesIO()
    _Pickler(out, protocol=5, buffer_callback=buffers.append).dump(value)
    return out.getvalue()


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


def compare_with_saved(path: str, ns_after: dict[str, Any], record: Record, observed: Observed) -> Outcome:
    """The rewrite's first run: compare its namespace with the original's saved values."""
    out = Outcome(names=record.names, observed=observed)
    compare_runs(load_values(path), ns_after, record, observed, out)
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
