"""The body of one forked trial: guard this disposable process, run one version, report plain data.

Runs in a process forked from the trial template (itself forked from the kernel and detached from
its sockets and files by :mod:`.isolate`). The cell runs directly in the copy's namespace, exactly
as it ran in the kernel: functions see their own globals, RNG streams are where the kernel left
them. Nothing here returns to the caller: the process always ends with ``os._exit``.
"""

from __future__ import annotations

import errno
import os
import traceback

from . import guard, isolate, landlock, sqlite_guard
from .observed import Observed
from .rebind import rebinding
from .runner import run
from .touched import compared_names, deleted, ids, new_names, prepare, rebound
from .trial import (
    Outcome,
    Plan,
    Record,
    accept_raise,
    compare_with_saved,
    holds_tensors,
    read_record,
    rss_now,
    rss_peak_growth,
    save_values,
    write_record,
)

VALUES = "before-values.pkl"


def protect(plan: Plan, folder: str) -> list[str]:
    """In the template: Landlock and the (inactive) audit hook, once for every trial forked from it.

    Returns notes on what could not be done. Nothing is installed when the user allowed I/O.
    """
    if plan.allow_io:
        return []
    notes = []
    why = landlock.restrict(folder)
    if why is None:
        isolate.ENFORCED.append("landlock")
    else:  # the syscall filter then refuses every write by path, even to the trial's temporary folder
        isolate.LANDLOCK_WHY = why
    guard.install_in_child(folder)
    sqlite_guard.patch()
    return notes


def run_one(plan: Plan, side: str, first: bool, folder: str, notes: list[str]) -> Outcome:
    """Run ``side`` once in this process; the first run of each side also gives values and memory."""
    ns = plan.namespace
    guard.STATE.blocked = None  # a refusal recorded in the kernel by an earlier in-process Try is not ours
    rss_peak = first and (holds_tensors(ns, plan.inputs) or not plan.trace_first)
    start_rss = rss_now() if rss_peak else None  # a fresh fork's high-water mark starts here
    before = ids(ns) if first else {}
    if not plan.allow_io:
        guard.activate()
    with rebinding(plan.rebind if side == "after" else None, ns) as failed:
        if failed is not None:  # the rewritten definitions raised, or the guard refused what they did
            blocked = guard.STATE.blocked
            return Outcome(error=None if blocked else failed, notes=notes,
                           blocked=f"the rewritten definitions: {blocked}" if blocked else None)
        result = run(plan.codes[side], ns, None, trace_memory=first and not rss_peak)
    out = Outcome(seconds=result.seconds, error=result.error, notes=notes, observed=result.observed,
                  cpu_wait_s=result.cpu_wait_s, cpu_s=result.cpu_s)
    out.blocked = guard.STATE.blocked or _native_refusal(result.error, plan, side)
    if out.blocked:
        out.error = None
        return out
    if first:
        if rss_peak:
            out.peak_bytes, out.peak_how = rss_peak_growth(start_rss), "rss"
        else:
            out.peak_bytes, out.peak_how = result.peak_bytes, "tracemalloc"
    raised = result.observed.raised
    if not first:
        accept_raise(out, raised, read_record(folder) if raised else None)
        return out
    path = os.path.join(folder, VALUES)
    if side == "before":
        out.error = None  # what the original raises is compared, like what it binds
        names = compared_names(plan.compare, plan.candidates | rebound(ns, before, plan.loop_names), ns, out.notes)
        prepare(ns, names, out.notes)
        out.uncomparable = _save(path, ns, names, result.observed, deleted(before, ns, plan.candidates))
        out.names = names + result.observed.labels()
        out.uses_torch = holds_tensors(ns, [*names, *plan.inputs])
        return out
    record = _read_plan(folder)
    if record.observed is not None and record.observed.raised:
        out.error = None  # the original raised too: the two exceptions are compared
    if out.error:
        return out  # the rewrite raised where the original did not: its traceback says why
    prepare(ns, record.names)
    compared = compare_with_saved(path, ns, record, result.observed)
    compared.seconds, compared.peak_bytes, compared.peak_how = out.seconds, out.peak_bytes, out.peak_how
    compared.cpu_s, compared.cpu_wait_s = out.cpu_s, out.cpu_wait_s
    compared.notes = notes + compared.notes + new_names(ns, before, plan, record)
    return compared


def _save(path: str, ns: dict, names: list[str], observed: Observed, gone: list[str]) -> list[str]:
    failed = save_values(path, ns, names)
    write_record(os.path.dirname(path), Record(names, failed, observed, gone))
    return failed


def _read_plan(folder: str) -> Record:
    return read_record(folder) or Record()


def _native_refusal(error: str | None, plan: Plan, side: str) -> str | None:
    """An error that the trial's protections caused (Landlock, files reopened read-only), in words."""
    if not error or plan.allow_io:
        return None
    last = error.strip().splitlines()[-1]
    if "disk I/O error" in last or "readonly database" in last:
        what = "writes to a SQLite database through a connection opened before the cell"
    elif "Bad file descriptor" in last:
        what = "writes through a file, socket or pipe opened before the cell"
    elif os.strerror(errno.EACCES) in last or "Permission denied" in last:
        what = "writes to a file or connects to the network from native code"
    elif os.strerror(errno.EPERM) in last:
        what = "makes a call the trial's syscall filter refuses (a connection, a command, a signal or a write)"
    else:
        return None
    line = _last_cell_line(error, side)
    what = plan.lines.get(side, {}).get(line or 0) or what
    whose = "the rewrite's " if side == "after" else ""
    return f"{whose}line {line} {what}" if line else f"{'the rewrite' if whose else 'the cell'} {what}"


def _last_cell_line(error: str, side: str) -> int | None:
    found = None
    for text in error.splitlines():
        text = text.strip()
        if text.startswith(f'File "<aiperf {side}>"'):
            try:
                found = int(text.split("line ", 1)[1].split(",", 1)[0])
            except (IndexError, ValueError):
                continue
    return found


def crash_outcome(exc: BaseException) -> Outcome:
    """The trial's own machinery failed: say so instead of hiding it."""
    text = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))
    return Outcome(error="aiperf's trial process failed:\n" + text)
