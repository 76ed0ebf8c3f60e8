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

from . import guard, sqlite_guard
from .compare import is_handle
from .rebind import rebinding
from .restore import Snapshot
from .runner import run
from .sandbox import Refused, copy_value, sandbox
from .touched import compared_names, deleted, ids, new_names, prepare, rebound
from .trial import RECORD, Outcome, Plan, Record, accept_raise, compare_runs, holds_tensors, read_record, write_record

SNAPSHOT_LIMIT = 1 << 30
IN_PROCESS_UNCOVERED = (
    "native code (C extensions, ctypes): its writes, connections and commands are not refused in this kernel",
    "objects the cell changes other than through the globals of its functions are not put back",
    "writes through descriptors held as plain numbers (os.write(fd, ...) on a descriptor opened earlier)",
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
        self.record: Record | None = None  # what the original's first run bound, showed and raised
        self.notes_before: list[str] = []
        self.notes_after: list[str] = []
        self.compared: Outcome | None = None  # the rewrite's first run against the original's
        self.values_only = False  # True where the forked first runs compared output and exception already
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
        before, kernel_before = (ids(ns), ids(self.plan.namespace)) if first else ({}, {})
        try:
            with self._guard(), rebinding(self.plan.rebind if side == "after" else None, self.plan.namespace, ns,
                                          self.plan.rebind_names) as failed:
                if failed is not None:  # the rewritten definitions raised, or the guard refused them
                    blocked = guard.STATE.blocked
                    return Outcome(error=None if blocked else failed,
                                   blocked=f"the rewritten definitions: {blocked}" if blocked else None)
                result = run(self.plan.codes[side], ns, limit, trace_memory=trace)
                if first and not result.timed_out:  # inside the guard: reading iterators runs user code
                    try:
                        self._capture(side, ns, before, kernel_before, result.observed)
                    except Exception as exc:  # aiperf's own failure: verify reports it, never the user's
                        raise RuntimeError(f"the run's names could not be taken ({type(exc).__name__}: {exc})") from exc
        finally:
            if self.snapshot is not None:
                self.snapshot.restore()
        out = Outcome(seconds=result.seconds, error=result.error, timed_out=result.timed_out,
                      cpu_wait_s=result.cpu_wait_s)
        out.observed = result.observed
        out.blocked = guard.STATE.blocked
        if out.blocked:
            out.error = None
            return out
        if first:
            if cuda_peak and torch is not None:
                out.peak_bytes, out.peak_how = int(torch.cuda.max_memory_allocated()), "cuda"
            elif trace:
                out.peak_bytes, out.peak_how = result.peak_bytes, "tracemalloc"
        if not first:
            accept_raise(out, result.observed.raised, self.record or read_record(self.folder))
            return out
        if result.timed_out:
            return out
        if side == "before":
            out.error = None  # what the original raises is compared, like what it binds
            assert self.record is not None
            out.names = self.record.names + result.observed.labels()
            out.notes += self.notes_before
            out.uses_torch = holds_tensors(ns, [*self.record.names, *self.plan.inputs])
        elif self.ns_before is not None and self.record is not None:
            if self.record.observed is not None and self.record.observed.raised:
                out.error = None  # the original raised too: the two exceptions are compared
            if not out.error and self.compared is not None:
                c = self.compared
                out.names, out.equal, out.difference, out.differs_in = c.names, c.equal, c.difference, c.differs_in
                out.uncomparable, out.notes = c.uncomparable, out.notes + c.notes + self.notes_after
            self.ns_before = self.compared = None
        return out

    def _capture(
        self, side: str, ns: dict[str, Any], before: dict[str, int], kernel_before: dict[str, int], observed: Any
    ) -> None:
        """Right after a first run, still guarded and before the snapshot puts the kernel back: the names
        to compare, with copies of the kernel's globals that the cell's functions changed or rebound;
        after the rewrite's run, the comparison itself."""
        kernel = self.plan.namespace
        outside = (self.plan.candidates | rebound(kernel, kernel_before, self.plan.loop_names)) - set(ns)
        for name in sorted(outside):
            if name in kernel and not is_handle(kernel[name]):
                with contextlib.suppress(Refused):
                    ns[name] = copy_value(kernel[name], {})
        if side == "before":
            notes: list[str] = []
            extra = rebound(ns, before, self.plan.loop_names) | outside
            names = compared_names(self.plan.compare, self.plan.candidates | extra, ns, notes)
            prepare(ns, names, notes)
            self.ns_before, self.notes_before = ns, notes
            self.record = Record(names, [], observed, deleted(before, ns, self.plan.candidates))
            if self.own_folder or not os.path.exists(os.path.join(self.folder, RECORD)):
                write_record(self.folder, self.record)  # for timing workers: what the original raised
        elif self.record is not None:
            prepare(ns, self.record.names)
            fresh = {n: 0 for n in kernel}  # "new" means new to the kernel's namespace, not to this copy
            self.notes_after = new_names(ns, {**fresh, **before}, self.plan, self.record)
            if self.ns_before is not None:  # compared here, guarded: a value's own __eq__ is user code too
                self.compared = Outcome()
                compare_runs(self.ns_before, ns, self.record, observed, self.compared, output=not self.values_only)

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
        sqlite_guard.patch()
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
