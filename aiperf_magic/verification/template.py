"""The template: one copy of the kernel, detached and guarded, that forks every trial process.

Runs in the process the kernel forked. It is cut off from the kernel's sockets and files
(:mod:`.isolate`), protected (Landlock and the inactive audit hook, :func:`.child.protect`), and then
only forks, on the kernel's command:

- a *trial* (``run``): a fresh copy that runs one version once, from exactly the kernel's state;
- a *comparison* (``compare``): a fresh copy that runs both versions on copies of their inputs, to
  compare values that cannot be pickled;
- a *timing worker* (``serve``): a long-lived copy for one version that runs it again and again on
  fresh copies of its inputs, putting back RNG states and the globals its functions use after each
  run, so timed runs do not pay a fork each (a fork costs more the larger the kernel).

Nothing here returns into the kernel's code: every process ends with ``os._exit``.
"""

from __future__ import annotations

import contextlib
import functools
import gc
import os
import random
import signal
import tempfile
from typing import Any

from . import child, guard, isolate
from .pipes import close_all, reap, recv, send
from .trial import Outcome, Plan


def main(plan: Plan, folder: str, cmd_r: int, rep_w: int, state: Any, workers: dict[str, tuple[int, int]]) -> None:
    """The template's loop. ``workers`` maps a side to the (command, result) pipe ends of its worker."""
    os.setpgid(0, 0)  # the notebook's interrupt reaches the kernel only; the kernel kills this group
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGCHLD, signal.SIG_DFL)
    worker_fds = {fd for pair in workers.values() for fd in pair}
    # the kernel's garbage (a socket, a file's buffer) is the kernel's: never finalised in a trial,
    # where a finaliser's write would read as the cell's; the cell's own objects are still collected
    gc.freeze()
    notes = isolate.detach(keep={cmd_r, rep_w, *worker_fds})
    os.environ["TMPDIR"] = folder
    tempfile.tempdir = folder
    notes += child.protect(plan, folder)  # Landlock and the audit hook, inherited by every trial
    # without Landlock the syscall filter refuses writes by path, but for opens relative to the folder
    folder_fd = -1 if plan.allow_io or "landlock" in isolate.ENFORCED else _folder_fd(folder)
    own = {fd for fd in (folder_fd,) if fd >= 0}
    send(rep_w, {"notes": notes})
    last = 0
    serving: list[int] = []
    while True:
        msg = recv(cmd_r)
        if last:  # the previous trial tore its copy down while the kernel read its result
            reap(last)
            last = 0
        if msg is None or msg.get("op") == "quit":
            for pid in serving:
                reap(pid)
            return
        if msg["op"] == "serve":
            cmd, res = workers[msg["side"]]
            body = functools.partial(_serve, plan, folder, msg["side"], cmd, res, state)
            pid = _fork(body, {cmd, res} | own, _all(cmd_r, rep_w, worker_fds), _lock(plan, folder, folder_fd, msg))
            serving.append(pid)
            send(rep_w, {"pid": pid})
            continue
        r, w = os.pipe()
        body = functools.partial(_one, plan, folder, msg, w, state)
        pid = _fork(body, {w} | own, _all(cmd_r, rep_w, worker_fds, r), _lock(plan, folder, folder_fd, msg))
        os.close(w)
        send(rep_w, {"pid": pid})
        out = recv(r)  # the result arrives before the trial's teardown, which need not be waited for
        os.close(r)
        status = 0
        if out is None:  # no result: the trial died; its status says how
            status = reap(pid)
        else:
            last = pid
        send(rep_w, {"status": status, "out": out})


def _all(*parts: Any) -> set[int]:
    out: set[int] = set()
    for p in parts:
        out |= set(p) if isinstance(p, set) else {p}
    return out


def _lock(plan: Plan, folder: str, folder_fd: int, msg: dict[str, Any]) -> tuple[int, str, bool] | None:
    """What a trial's lock-down gets (None: no syscall filter, when the user allowed I/O)."""
    return None if plan.allow_io else (folder_fd, folder, bool(msg.get("notify")))


def _folder_fd(folder: str) -> int:
    try:
        return os.open(folder, os.O_PATH | os.O_DIRECTORY | os.O_CLOEXEC)
    except (OSError, AttributeError):  # no O_PATH (not Linux): no syscall filter there either
        return -1


def _fork(body: Any, keep: set[int], all_fds: set[int], lock: tuple[int, str, bool] | None) -> int:  # pragma: no cover
    """A trial process running ``body``, locked down with ``lock`` (see :func:`_lock`)."""
    pid = os.fork()
    if pid == 0:
        code = 70
        try:
            close_all(*(all_fds - keep))
            os.setpgid(0, 0)
            signal.signal(signal.SIGINT, signal.SIG_DFL)
            isolate.private_files(keep=keep)
            if lock is not None:
                isolate.lock_down(keep, *lock)
            body()
            code = 0
        finally:
            os._exit(code)
    with contextlib.suppress(OSError):
        os.setpgid(pid, pid)
    return pid


def _one(plan: Plan, folder: str, msg: dict[str, Any], w: int, state: Any) -> None:  # pragma: no cover
    """A fresh trial: one run of one version (or the comparison of both); its Outcome goes to ``w``."""
    random.setstate(state)  # the random module reseeds itself in every forked child
    try:
        if msg["op"] == "compare":
            out = _compare(plan, folder)
        else:
            out = child.run_one(plan, msg["side"], msg["first"], folder, [])
    except BaseException as exc:  # report, then end this process
        out = child.crash_outcome(exc)
    out.sandbox, out.uncovered = list(isolate.ENFORCED), list(isolate.UNCOVERED)
    send(w, out)


def _in_process(plan: Plan, folder: str) -> Any:
    from .inprocess import InProcessRunner

    if not plan.allow_io:
        guard.activate()
    runner = InProcessRunner(plan, reason="", folder=folder, guarded=False)
    runner.start()
    return runner


def _compare(plan: Plan, folder: str) -> Outcome:  # pragma: no cover - child
    runner = _in_process(plan, folder)
    runner.values_only = True  # the two fresh forks compared printed output already, with nothing before them
    runner.run("before", True, None)
    return runner.run("after", True, None)  # type: ignore[no-any-return]


def _serve(plan: Plan, folder: str, side: str, cmd: int, res: int, state: Any) -> None:  # pragma: no cover
    """A timing worker: run ``side`` on each command, from fresh copies, restoring state in between."""
    from .sandbox import Refused

    random.setstate(state)
    try:
        runner = _in_process(plan, folder)
    except Refused as exc:
        send(res, {"refused": str(exc)})
        return
    send(res, {"ready": True})
    while recv(cmd) is not None:
        guard.STATE.blocked = None
        try:
            out = runner.run(side, False, None)
        except BaseException as exc:  # report, then end this process
            send(res, child.crash_outcome(exc))
            return
        send(res, out)
