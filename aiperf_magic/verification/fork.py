"""Trials in forked copies of the kernel, kernel side: nothing a trial does reaches the kernel.

The kernel forks once, a *template* (:mod:`.template`): a copy-on-write snapshot of everything
(namespace, objects behind functions, modules, RNG states, weights), detached from the kernel's
sockets and files. The first run of each version, whose values are compared, is a fresh fork of the
template, so both start from exactly the kernel's state, even if the kernel moves on meanwhile. The
timed runs go to one long-lived forked worker per version, which runs it on fresh copies of its
inputs and puts state back in between (a fork per run would cost more the larger the kernel);
where its inputs cannot be copied or are large, each timed run is a fresh fork too. One trial runs at a time.
The kernel only waits on pipes, with a deadline (a runaway trial is killed, never the kernel), a
cancel check (Ctrl-C or a Stop button) and a memory watch (a trial that drives free memory below
the floor is killed; trials are also the out-of-memory killer's first choice).
"""

from __future__ import annotations

import contextlib
import os
import random
import select
import shutil
import signal
import sys
import tempfile
import time
import warnings
from collections.abc import Callable
from typing import Any

from . import notify, template
from .notify import Supervisor
from .pipes import close_all, kill, reaped_within, recv, send
from .trial import Outcome, Plan

POLL_S = 0.05
MEMORY_FLOOR = 256 << 20  # a trial is stopped when free memory falls below this (or 3 % of the total)


class Cancelled(Exception):
    """The user stopped the trials (Ctrl-C or cancel)."""


class OutOfMemory(Exception):
    """A trial was stopped because free memory ran out; ``str()`` says so."""


def fork_available() -> tuple[bool, str]:
    """(True, "") when trials can run in forked copies, else (False, why not)."""
    if not hasattr(os, "fork"):
        return False, "this system cannot fork processes"
    torch = sys.modules.get("torch")
    if torch is not None:
        try:
            if torch.cuda.is_initialized():
                return False, "CUDA is initialised in this kernel and does not survive a fork"
        except Exception:
            return False, "torch's CUDA state could not be read"
    return True, ""


class ForkRunner:
    """Runs each version in forked copies of one template copy of the kernel."""

    isolation = "process"

    def __init__(self, plan: Plan, cancel: Callable[[], bool] | None = None, workers: bool = True) -> None:
        self.plan = plan
        self.cancel = cancel or (lambda: False)
        self.use_workers = workers
        self.folder = ""
        self.pid = 0
        self.cmd = self.rep = -1
        self.current = 0  # the trial process running now
        self.workers: dict[str, tuple[int, int, int]] = {}  # side -> (pid, command fd, result fd); pid 0: none
        self.notes: list[str] = []
        self.tick: Callable[[], None] | None = None  # called about every 50 ms while the kernel waits on a trial
        self.sandbox: list[str] = []  # what the operating system enforced in the trials
        self.uncovered: list[str] = []  # what it could not, in words
        self.supervisor: Supervisor | None = None  # answers the refusals of the trials' syscall filters
        self.cpu: int | None = None  # with pin_timed_runs: the CPU every timed run runs on

    def start(self) -> None:
        self.folder = os.path.realpath(tempfile.mkdtemp(prefix="aiperf-try-"))
        cmd_r, cmd_w = os.pipe()
        rep_r, rep_w = os.pipe()
        pipes = {side: (os.pipe(), os.pipe()) for side in ("before", "after")}  # (command, result) per worker
        theirs = {side: (c[0], r[1]) for side, (c, r) in pipes.items()}
        state = random.getstate()  # the random module reseeds itself in every forked child
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)  # "fork() with threads": handled by isolate
            pid = os.fork()
        if pid == 0:  # pragma: no cover - runs in the template process
            code = 70
            try:
                close_all(cmd_w, rep_r, *(fd for c, r in pipes.values() for fd in (c[1], r[0])))
                template.main(self.plan, self.folder, cmd_r, rep_w, state, theirs)
                code = 0
            finally:
                os._exit(code)
        close_all(cmd_r, rep_w, *(fd for pair in theirs.values() for fd in pair))
        self.pid, self.cmd, self.rep = pid, cmd_w, rep_r
        self.workers = {side: (0, c[1], r[0]) for side, (c, r) in pipes.items()}
        ready = self._wait(self.rep, time.monotonic() + 60)
        if ready is None:
            self.close()
            raise RuntimeError("the trial template did not start")
        self.notes = ready.get("notes", [])
        if not self.plan.allow_io and notify.available(pid, cmd_r):  # cmd_r: the template's own end
            self.supervisor = Supervisor(self.folder)

    def run(self, side: str, first: bool, limit: float | None) -> Outcome:
        if not first and self.use_workers and self._worker(side):
            return self._timed(side, limit)
        send(self.cmd, {"op": "run", "side": side, "first": first, "notify": self.supervisor is not None})
        return self._trial(limit)

    def compare_fallback(self) -> Outcome:
        """Both versions in one trial process, on copies, with restores between: values stay there."""
        send(self.cmd, {"op": "compare", "notify": self.supervisor is not None})
        return self._trial(None)

    def _trial(self, limit: float | None) -> Outcome:
        started = self._wait(self.rep, time.monotonic() + 60)
        if started is None:
            raise RuntimeError("the trial template stopped answering")
        gpid = self.current = started["pid"]
        deadline = time.monotonic() + limit if limit else None
        done = self._wait(self.rep, deadline, watch=gpid)
        if done is None:  # deadline: kill the trial, then collect its status
            kill(gpid)
            with contextlib.suppress(RuntimeError):
                self._wait(self.rep, time.monotonic() + 30)
            self.current = 0
            return Outcome(timed_out=True, seconds=limit or 0.0)
        self.current = 0
        out = self._refusal(gpid, _decode(done))
        if out.sandbox and not self.sandbox:  # what the operating system enforced, the same in every trial
            self.sandbox, self.uncovered = list(out.sandbox), list(out.uncovered)
        if out.crashed and "SIGSEGV" in out.crashed and any("read-only in the trials" in n for n in self.notes):
            out.blocked, out.crashed = "the cell writes to memory shared with a file or another process", None
        return out

    def _worker(self, side: str) -> bool:
        """Start the timing worker of ``side`` on first use; False when its inputs cannot be copied."""
        pid, cmd, res = self.workers[side]
        if pid > 0:
            return True
        if pid < 0:
            return False
        send(self.cmd, {"op": "serve", "side": side, "notify": self.supervisor is not None})
        started = self._wait(self.rep, time.monotonic() + 60)
        if started is None:
            raise RuntimeError("the trial template stopped answering")
        self.workers[side] = (started["pid"], cmd, res)
        ready = self._wait(res, time.monotonic() + 600, watch=started["pid"])
        if not ready or "refused" in ready:
            kill(started["pid"])
            self.workers[side] = (-1, cmd, res)
            return False
        return True

    def pin_timed_runs(self) -> bool:
        """From now on, every timed run of both versions runs on one CPU, the same: the CPUs of a
        machine can differ in speed (on one shared machine one ran the same loop 1.8x slower than the
        other), and each version's timed runs share one process, which stays where it was placed, so
        an identical rewrite was called 1.9x faster. Only for cells that use one core: pinning a
        parallel cell's main thread would also pin the threads it starts. False where affinity
        cannot be set or there is one CPU anyway."""
        try:
            cpus = sorted(os.sched_getaffinity(0))
        except (AttributeError, OSError):
            return False
        self.cpu = cpus[0] if len(cpus) > 1 else None
        return self.cpu is not None

    def _pin(self, pid: int) -> None:
        if self.cpu is not None:
            with contextlib.suppress(OSError):
                os.sched_setaffinity(pid, {self.cpu})

    def _timed(self, side: str, limit: float | None) -> Outcome:
        pid, cmd, res = self.workers[side]
        self._pin(pid)
        send(cmd, {"op": "run"})
        self.current = pid
        deadline = time.monotonic() + limit if limit else None
        try:
            out = self._wait(res, deadline, watch=pid, eof_ok=True)
        finally:
            self.current = 0
        if isinstance(out, Outcome):
            return self._refusal(pid, out)
        kill(pid)
        self.workers[side] = (-1, cmd, res)
        if out is None and deadline is not None and time.monotonic() >= deadline:
            return Outcome(timed_out=True, seconds=limit or 0.0)
        return self._refusal(pid, Outcome(crashed="the trial process ended without a result"))

    def _refusal(self, pid: int, out: Outcome) -> Outcome:
        """The outcome of trial ``pid``, marked blocked when its syscall filter refused a call."""
        sup = self.supervisor
        if sup is None:
            return out
        found = sup.refused.pop(pid, None)
        sup.first_at.pop(pid, None)
        if not any(w[0] == pid for w in self.workers.values()):
            sup.release(pid)  # a one-run trial: its listener is done with
        if found is None:
            return out
        out.blocked = out.blocked or f"code started by the cell {found.what} (refused by the operating system)"
        out.error = out.crashed = None
        out.timed_out = False
        return out

    def close(self) -> None:
        """End the template and every trial process; remove the trial folder (a second Ctrl-C waits)."""
        try:
            self._close()
        except KeyboardInterrupt:
            self._close()

    def _close(self) -> None:
        kill(self.current)
        self.current = 0
        for side, (pid, cmd, res) in list(self.workers.items()):
            kill(pid)
            close_all(cmd, res)
            self.workers[side] = (-1, -1, -1)
        if self.pid:
            with contextlib.suppress(OSError):
                send(self.cmd, {"op": "quit"})  # the template reaps its trials, then ends
            if not reaped_within(self.pid, 1.0):
                kill(self.pid)
                with contextlib.suppress(ChildProcessError, OSError):
                    os.waitpid(self.pid, 0)
            self.pid = 0
        close_all(self.cmd, self.rep)
        self.cmd = self.rep = -1
        if self.supervisor is not None:
            self.supervisor.close()
        if self.folder:
            shutil.rmtree(self.folder, ignore_errors=True)
            self.folder = ""

    def _wait(self, fd: int, deadline: float | None, watch: int = 0, eof_ok: bool = False) -> Any:
        """The next message on ``fd``; None at the deadline (or at end of file when ``eof_ok``).

        Raises Cancelled (Ctrl-C, cancel) and OutOfMemory; end of file otherwise means the
        template died, a RuntimeError.
        """
        floor = _memory_floor() if watch else 0
        sup = self.supervisor
        while True:
            if sup is not None and watch:
                sup.adopt(watch)  # the trial installs its filter just after it starts
            try:
                wait = POLL_S if deadline is None else max(0.0, min(POLL_S, deadline - time.monotonic()))
                ready, _, _ = select.select([fd, *(sup.fds() if sup else ())], [], [], wait)
            except KeyboardInterrupt:
                raise Cancelled() from None
            for listener in (r for r in ready if r != fd):
                sup.handle(listener, time.monotonic())  # type: ignore[union-attr]
            if sup is not None and watch and sup.overdue(watch, time.monotonic()):
                kill(watch)  # refused, and did not stop by itself: its outcome says what was refused
            if fd in ready:
                msg = recv(fd)
                if msg is None and not eof_ok:
                    raise RuntimeError("the trial template ended unexpectedly")
                return msg
            if ready:
                continue
            if self.cancel():
                raise Cancelled()
            if self.tick is not None:
                self.tick()
            if deadline is not None and time.monotonic() >= deadline:
                return None
            if watch and floor and _available() < floor:
                kill(watch)
                raise OutOfMemory(
                    f"a trial was stopped: free memory fell below {floor >> 20} MiB (the kernel is untouched)"
                )


def _decode(done: dict[str, Any]) -> Outcome:
    status, out = done["status"], done.get("out")
    if isinstance(out, Outcome):
        return out
    if os.WIFSIGNALED(status):
        sig = os.WTERMSIG(status)
        name = signal.Signals(sig).name if sig in signal.Signals._value2member_map_ else str(sig)
        if sig == signal.SIGSEGV:
            return Outcome(crashed=f"the trial process crashed ({name}): the cell may write to read-only shared memory")
        return Outcome(crashed=f"the trial process was killed ({name}), most likely by the system for lack of memory")
    return Outcome(crashed=f"the trial process ended without a result (exit status {os.WEXITSTATUS(status)})")


def _available() -> int:
    import psutil

    return int(psutil.virtual_memory().available)


def _memory_floor() -> int:
    try:
        import psutil

        return max(MEMORY_FLOOR, int(psutil.virtual_memory().total * 0.03))
    except Exception:
        return 0
