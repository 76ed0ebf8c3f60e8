"""Trials in the kernel's own process, where a fork is not possible (CUDA initialised, Windows).

Isolation here is partial and said so: each run gets copies of the cell's inputs (:mod:`.sandbox`),
the audit guard refuses external side effects of this thread and of threads it starts, SQLite
connections the cell's functions reach refuse writes, and after every run :class:`.restore.Snapshot`
puts back RNG states and the globals the cell's functions reach. Objects reached in other ways
(through attributes of library objects, C extensions) are not restored. Also used inside a forked
trial to compare values that cannot be pickled: both versions then run in one disposable process.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import sys
import tempfile
from collections.abc import Iterator
from typing import Any

from . import guard
from .restore import Snapshot
from .runner import run
from .sandbox import sandbox
from .trial import Outcome, Plan, compare, compared_names, holds_tensors

SNAPSHOT_LIMIT = 1 << 30
IN_PROCESS_UNCOVERED = (
    "native code (C extensions, ctypes): its writes, connections and commands are not refused in this kernel",
    "objects the cell changes other than through the globals of its functions are not put back",
)
_SQL_WRITES = frozenset({*range(1, 19), 23, 24, 26, 27, 28, 29, 30})  # create/drop/insert/update/delete/attach/alter


class InProcessRunner:
    """Runs each version in this process on copies, guarded, restoring state after each run."""

    isolation = "in-process"

    def __init__(self, plan: Plan, reason: str, folder: str = "", guarded: bool = True) -> None:
        self.plan = plan
        self.folder = folder
        self.own_folder = not folder
        self.guarded = guarded  # False inside a forked trial, which is guarded for good already
        self.snapshot: Snapshot | None = None
        self.ns_before: dict[str, Any] | None = None
        self.names: list[str] = []
        self.connections: list[Any] = []
        self.sandbox: list[str] = []  # nothing is enforced by the operating system in this process
        self.uncovered = list(IN_PROCESS_UNCOVERED) if reason else []
        self.notes = (
            [
                f"isolation is partial: the trials ran in this kernel because {reason}; RNG states and the "
                "globals the cell's functions use were restored after each run, other objects were not"
            ]
            if reason
            else []
        )

    def start(self) -> None:
        if self.own_folder:
            self.folder = os.path.realpath(tempfile.mkdtemp(prefix="aiperf-try-"))
        sandbox(self.plan.namespace, self.plan.inputs)  # refuses uncopyable inputs before anything runs
        self.snapshot = Snapshot(self.plan.namespace, list(self.plan.codes.values()), SNAPSHOT_LIMIT)
        seen = [ref for _g, _n, _h, ref, _s in self.snapshot.slots] + [ref for _c, ref, _s in self.snapshot.cells]
        sqlite3 = sys.modules.get("sqlite3")  # no connection exists unless the user imported it
        if sqlite3 is not None:
            self.connections = [c for c in seen if isinstance(c, sqlite3.Connection) and _is_file_db(c)]

    def run(self, side: str, first: bool, limit: float | None) -> Outcome:
        ns = sandbox(self.plan.namespace, self.plan.inputs)
        cuda_peak = first and _cuda_used() and holds_tensors(ns, self.plan.inputs)
        torch = sys.modules.get("torch")
        if cuda_peak and torch is not None:
            torch.cuda.reset_peak_memory_stats()
        trace = first and self.plan.trace_first and not cuda_peak and not holds_tensors(ns, self.plan.inputs)
        try:
            with self._guard():
                result = run(self.plan.codes[side], ns, limit, trace_memory=trace)
        finally:
            if self.snapshot is not None:
                self.snapshot.restore()
        out = Outcome(seconds=result.seconds, error=result.error, timed_out=result.timed_out)
        out.blocked = guard.STATE.blocked
        if out.blocked:
            out.error = None
            return out
        if first:
            if cuda_peak and torch is not None:
                out.peak_bytes, out.peak_how = int(torch.cuda.max_memory_allocated()), "cuda"
            elif trace:
                out.peak_bytes, out.peak_how = result.peak_bytes, "tracemalloc"
        if not first or result.error or result.timed_out:
            return out
        if side == "before":
            self.ns_before, self.names = ns, compared_names(self.plan, ns, out.notes)
            out.names = self.names
            out.uses_torch = holds_tensors(ns, [*self.names, *self.plan.inputs])
        elif self.ns_before is not None:
            out.names = self.names
            out.equal, out.difference = compare(self.ns_before, ns, self.names, out.notes)
            self.ns_before = None
        return out

    def compare_fallback(self) -> Outcome:  # values never leave this process
        return Outcome(error="nothing to compare")

    def close(self) -> None:
        self.ns_before = None
        if self.snapshot is not None:
            self.snapshot.restore()
        if self.own_folder and self.folder:
            shutil.rmtree(self.folder, ignore_errors=True)

    @contextlib.contextmanager
    def _guard(self) -> Iterator[None]:
        if not self.guarded:
            yield
            return
        previous = tempfile.tempdir
        tempfile.tempdir = self.folder
        os.environ["TMPDIR"] = self.folder  # the snapshot puts the environment back
        for con in self.connections:
            con.set_authorizer(_deny_writes)
        try:
            with guard.guarding(self.folder):
                yield
        finally:
            for con in self.connections:
                with contextlib.suppress(Exception):
                    con.set_authorizer(None)
            tempfile.tempdir = previous


def _deny_writes(action: int, arg1: str | None, arg2: str | None, db: str | None, source: str | None) -> int:
    if action in _SQL_WRITES and guard.STATE.active:
        if guard.STATE.blocked is None:
            guard.STATE.blocked = guard.where("writes to a SQLite database through an open connection")
        return 1  # SQLITE_DENY
    return 0  # SQLITE_OK


def _is_file_db(con: Any) -> bool:
    try:
        return any(row[2] for row in con.execute("PRAGMA database_list"))
    except Exception:
        return False


def _cuda_used() -> bool:
    torch = sys.modules.get("torch")
    return bool(torch is not None and torch.cuda.is_available() and torch.cuda.is_initialized())
