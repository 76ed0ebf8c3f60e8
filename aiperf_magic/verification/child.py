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

from . import guard, isolate, landlock
from .runner import run
from .trial import (
    Outcome,
    Plan,
    compare_with_saved,
    compared_names,
    holds_tensors,
    rss_now,
    rss_peak_growth,
    save_values,
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
        isolate.UNCOVERED.append(f"writes to the trial's temporary folder ({why}: they are refused too)")
    guard.install_in_child(folder)
    return notes


def run_one(plan: Plan, side: str, first: bool, folder: str, notes: list[str]) -> Outcome:
    """Run ``side`` once in this process; the first run of each side also gives values and memory."""
    ns = plan.namespace
    guard.STATE.blocked = None  # a refusal recorded in the kernel by an earlier in-process Try is not ours
    rss_peak = first and (holds_tensors(ns, plan.inputs) or not plan.trace_first)
    start_rss = rss_now() if rss_peak else None  # a fresh fork's high-water mark starts here
    if not plan.allow_io:
        guard.activate()
    result = run(plan.codes[side], ns, None, trace_memory=first and not rss_peak)
    out = Outcome(seconds=result.seconds, error=result.error, notes=notes)
    out.blocked = guard.STATE.blocked or _native_refusal(result.error, plan, side)
    if out.blocked:
        out.error = None
        return out
    if first:
        if rss_peak:
            out.peak_bytes, out.peak_how = rss_peak_growth(start_rss), "rss"
        else:
            out.peak_bytes, out.peak_how = result.peak_bytes, "tracemalloc"
    if result.error or not first:
        return out
    path = os.path.join(folder, VALUES)
    if side == "before":
        out.names = compared_names(plan, ns, out.notes)
        out.uncomparable = _save(path, ns, out.names)
        out.uses_torch = holds_tensors(ns, [*out.names, *plan.inputs])
    else:
        names, failed = _read_plan(folder)
        compared = compare_with_saved(path, ns, names, failed)
        compared.seconds, compared.peak_bytes, compared.peak_how = out.seconds, out.peak_bytes, out.peak_how
        compared.notes = notes + compared.notes
        return compared
    return out


def _save(path: str, ns: dict, names: list[str]) -> list[str]:
    failed = save_values(path, ns, names)
    with open(path + ".names", "w") as fh:
        fh.write("\n".join(names) + "\n\n" + "\n".join(failed))
    return failed


def _read_plan(folder: str) -> tuple[list[str], list[str]]:
    with open(os.path.join(folder, VALUES + ".names")) as fh:
        names, _, failed = fh.read().partition("\n\n")
    return [n for n in names.split("\n") if n], [n for n in failed.split("\n") if n]


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
