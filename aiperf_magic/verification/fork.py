"""Trials in forked copies of the kernel: nothing a trial does reaches the kernel.

The kernel forks once, a *template*: a copy-on-write snapshot of everything (namespace, objects
behind functions, modules, RNG states, weights), detached from the kernel's sockets and files. Each
trial run is a fresh fork of the template, so every run of either version starts from exactly the
same state, even if the kernel moves on meanwhile. One trial process exists at a time. The kernel
only waits on a pipe, with a deadline (a runaway trial is killed, never the kernel), a cancel check
(Ctrl-C or a Stop button) and a memory watch (a trial that drives free memory below the floor is
killed; trials are also the out-of-memory killer's first choice).
"""

from __future__ import annotations

import contextlib
import os
import pickle
import random
import select
import shutil
import signal
import struct
import sys
import tempfile
import time
import warnings
from collections.abc import Callable
from typing import Any

from . import child, isolate
from .trial import Outcome, Plan, write_all

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
    """Runs each version in a fresh fork of one template copy of the kernel."""

    isolation = "process"

    def __init__(self, plan: Plan, cancel: Callable[[], bool] | None = None) -> None:
        self.plan = plan
        self.cancel = cancel or (lambda: False)
        self.folder = ""
        self.pid = 0
        self.cmd = self.rep = -1
        self.current = 0  # the trial process running now
        self.notes: list[str] = []

    # --- kernel side ------------------------------------------------------------------------

    def start(self) -> None:
        self.folder = os.path.realpath(tempfile.mkdtemp(prefix="aiperf-try-"))
        cmd_r, cmd_w = os.pipe()
        rep_r, rep_w = os.pipe()
        state = random.getstate()  # the random module reseeds itself in every forked child
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)  # "fork() with threads": handled by isolate
            pid = os.fork()
        if pid == 0:  # pragma: no cover - runs in the template process
            code = 70
            try:
                os.close(cmd_w)
                os.close(rep_r)
                _template(self.plan, self.folder, cmd_r, rep_w, state)
                code = 0
            finally:
                os._exit(code)
        os.close(cmd_r)
        os.close(rep_w)
        self.pid, self.cmd, self.rep = pid, cmd_w, rep_r
        ready = self._recv(time.monotonic() + 60)
        if ready is None:
            self.close()
            raise RuntimeError("the trial template did not start")
        self.notes = ready.get("notes", [])

    def run(self, side: str, first: bool, limit: float | None) -> Outcome:
        _send(self.cmd, {"op": "run", "side": side, "first": first})
        started = self._recv(time.monotonic() + 60)
        if started is None:
            raise RuntimeError("the trial template stopped answering")
        gpid = self.current = started["pid"]
        deadline = time.monotonic() + limit if limit else None
        done = self._recv(deadline, watch=gpid)
        if done is None:  # deadline: kill the trial, then collect its status
            _kill(gpid)
            self._recv(time.monotonic() + 30)
            self.current = 0
            return Outcome(timed_out=True, seconds=limit or 0.0)
        self.current = 0
        return _decode(done)

    def compare_fallback(self) -> Outcome:
        """Both versions in one trial process, on copies, with restores between: values stay there."""
        _send(self.cmd, {"op": "compare"})
        started = self._recv(time.monotonic() + 60)
        if started is None:
            raise RuntimeError("the trial template stopped answering")
        self.current = started["pid"]
        done = self._recv(None, watch=self.current)
        self.current = 0
        return _decode(done) if done is not None else Outcome(error="the comparison trial did not finish")

    def close(self) -> None:
        """End the template and every trial process; remove the trial folder."""
        if self.current:
            _kill(self.current)
            self.current = 0
        if self.pid:
            with contextlib.suppress(OSError):
                _send(self.cmd, {"op": "quit"})
            _kill(self.pid)
            with contextlib.suppress(ChildProcessError, OSError):
                os.waitpid(self.pid, 0)
            self.pid = 0
        for fd in (self.cmd, self.rep):
            with contextlib.suppress(OSError):
                os.close(fd)
        self.cmd = self.rep = -1
        if self.folder:
            shutil.rmtree(self.folder, ignore_errors=True)

    def _recv(self, deadline: float | None, watch: int = 0) -> dict[str, Any] | None:
        """The template's next message; None at the deadline. Raises Cancelled / OutOfMemory."""
        floor = _memory_floor() if watch else 0
        while True:
            try:
                wait = POLL_S if deadline is None else max(0.0, min(POLL_S, deadline - time.monotonic()))
                ready, _, _ = select.select([self.rep], [], [], wait)
            except KeyboardInterrupt:
                raise Cancelled() from None
            if ready:
                return _recv(self.rep)
            if self.cancel():
                raise Cancelled()
            if deadline is not None and time.monotonic() >= deadline:
                return None
            if watch and floor and _available() < floor:
                _kill(watch)
                self._recv(time.monotonic() + 30)
                raise OutOfMemory(
                    f"a trial was stopped: free memory fell below {floor >> 20} MiB (the kernel is untouched)"
                )


# --- template side -----------------------------------------------------------------------------


def _template(plan: Plan, folder: str, cmd_r: int, rep_w: int, state: object) -> None:  # pragma: no cover
    os.setpgid(0, 0)  # the notebook's interrupt reaches the kernel only; the kernel kills this group
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGCHLD, signal.SIG_DFL)
    notes = isolate.detach(keep={cmd_r, rep_w})
    os.environ["TMPDIR"] = folder
    tempfile.tempdir = folder
    notes += child.protect(plan, folder)  # Landlock and the audit hook, inherited by every trial
    _send(rep_w, {"notes": notes})
    last = 0
    while True:
        msg = _recv(cmd_r)
        if last:  # the previous trial tore its copy down while the kernel read its result
            _reap(last)
            last = 0
        if msg is None or msg.get("op") == "quit":
            return
        r, w = os.pipe()
        pid = os.fork()
        if pid == 0:
            code = 70
            try:
                os.close(r)
                os.close(cmd_r)
                os.close(rep_w)
                isolate.private_files(keep={w})
                signal.signal(signal.SIGINT, signal.SIG_DFL)
                random.setstate(state)  # type: ignore[arg-type]
                out = _trial(plan, folder, msg)
                _send(w, out)
                code = 0
            except BaseException as exc:  # report, then end this process
                with contextlib.suppress(BaseException):
                    _send(w, child.crash_outcome(exc))
            finally:
                os._exit(code)
        with contextlib.suppress(OSError):
            os.setpgid(pid, pid)
        os.close(w)
        _send(rep_w, {"pid": pid})
        out = _recv(r)  # the result arrives before the trial's teardown, which need not be waited for
        os.close(r)
        status = 0
        if out is None:  # no result: the trial died; its status says how
            status = _reap(pid)
        else:
            last = pid
        _send(rep_w, {"status": status, "out": out})


def _trial(plan: Plan, folder: str, msg: dict[str, Any]) -> Outcome:  # pragma: no cover - child
    os.setpgid(0, 0)
    if msg["op"] == "compare":
        from . import guard
        from .inprocess import InProcessRunner

        if not plan.allow_io:
            guard.activate()
        runner = InProcessRunner(plan, reason="", folder=folder, guarded=False)
        runner.start()
        runner.run("before", True, None)
        return runner.run("after", True, None)
    return child.run_one(plan, msg["side"], msg["first"], folder, [])


def _reap(pid: int) -> int:
    """Wait for a trial process, then kill anything it left running; returns its wait status."""
    status = 0
    with contextlib.suppress(ChildProcessError):
        _, status = os.waitpid(pid, 0)
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pid, signal.SIGKILL)
    return status


# --- plumbing ----------------------------------------------------------------------------------


def _decode(done: dict[str, Any]) -> Outcome:
    status, out = done["status"], done.get("out")
    if isinstance(out, Outcome):
        return out
    if os.WIFSIGNALED(status):
        sig = os.WTERMSIG(status)
        name = signal.Signals(sig).name if sig in signal.Signals._value2member_map_ else str(sig)
        if sig == signal.SIGSEGV:
            return Outcome(crashed=f"the trial process crashed ({name}): the cell may write to read-only shared memory")
        return Outcome(crashed=f"the trial process was killed ({name})")
    return Outcome(crashed=f"the trial process ended without a result (exit status {os.WEXITSTATUS(status)})")


def _send(fd: int, obj: Any) -> None:
    data = pickle.dumps(obj)
    write_all(fd, struct.pack("!Q", len(data)) + data)


def _recv(fd: int) -> Any:
    """The next framed message; None at end of file or when the writer died mid-message."""
    head = _read_exact(fd, 8)
    if head is None:
        return None
    body = _read_exact(fd, struct.unpack("!Q", head)[0])
    if body is None:
        return None
    try:
        return pickle.loads(body)
    except Exception:  # a message the trial could not finish
        return None


def _read_exact(fd: int, n: int) -> bytes | None:
    chunks, got = [], 0
    while got < n:
        chunk = os.read(fd, min(n - got, 1 << 20))
        if not chunk:
            return None
        chunks.append(chunk)
        got += len(chunk)
    return b"".join(chunks)


def _kill(pid: int) -> None:
    for kill in (os.killpg, os.kill):
        with contextlib.suppress(ProcessLookupError, PermissionError, OSError):
            kill(pid, signal.SIGKILL)


def _available() -> int:
    import psutil

    return int(psutil.virtual_memory().available)


def _memory_floor() -> int:
    try:
        import psutil

        return max(MEMORY_FLOOR, int(psutil.virtual_memory().total * 0.03))
    except Exception:
        return 0
