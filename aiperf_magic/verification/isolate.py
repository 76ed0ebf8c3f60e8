"""Cut a freshly forked copy of the kernel off from everything the kernel shares with the world.

A fork inherits the kernel's file descriptors (open files share their offset with the kernel; the
notebook's ZeroMQ sockets; a SQLite connection's database file; pipes to pool workers) and its
shared memory maps. :func:`detach` runs once in the trial process before any user code:

- stdin reads nothing; stdout/stderr go to /dev/null (C-level output too); ``sys.stdout`` and
  ``sys.stderr`` discard what Python prints; the kernel's output streams, message sending and
  ``input()`` are replaced, so nothing reaches the notebook's sockets;
- every inherited descriptor is replaced by a private, read-only one: regular files and folders
  are reopened read-only at the same offset (reads keep working, the kernel's offset never moves,
  writes fail); sockets, pipes, FIFOs, terminals, serial ports and other devices become a
  read-only /dev/null, so a write through a handle opened in an earlier cell fails in the kernel;
- shared memory maps (a writable ``np.memmap``, shared memory) become read-only in a way the trial
  cannot undo: a write kills the trial, never the shared data;
- the trial is the first candidate of the out-of-memory killer; GNU OpenMP pools, which hang after
  a fork, are bypassed by running torch on one thread.

:func:`lock_down` then runs in each trial process, last before the cell: the syscall filter of
:mod:`.seccomp`, which also refuses writes through every descriptor the trial inherited.
"""

from __future__ import annotations

import contextlib
import faulthandler
import io
import os
import stat
import sys
import threading
from typing import Any

from . import shared_memory, trialfs
from .descriptors import neutralise, open_fds
from .guard import STATE, refuse
from .runner import Discard

ENFORCED: list[str] = []  # what the operating system enforces in this copy: "landlock", "seccomp", "descriptors"
UNCOVERED: list[str] = []  # what this copy could not protect for good, in words
LANDLOCK_WHY = ""  # why Landlock is not in place, when it is not


def lock_down(keep: set[int], folder_fd: int = -1, folder: str = "", notify: bool = False) -> None:
    """The last step before a trial's code runs: the syscall filter, built for this process.

    Every descriptor open now, but the trial's own pipes (``keep``) and standard streams, counts as
    inherited: no write-like call may use it. Without Landlock (see :data:`ENFORCED`), writes by
    path are refused too, except opens relative to ``folder_fd``. With ``notify`` (the kernel can
    take the filter's listener), refusals are reported to the kernel, which signals this process to
    name the cell line and stop (:mod:`.notify`).
    """
    from . import notify as notifying
    from . import seccomp

    if seccomp.machine() is None:
        _uncovered("no syscall filter on this system")
        return
    inherited = {fd for fd in open_fds() if fd > 2 and fd not in keep and fd != folder_fd}
    paths = "landlock" not in ENFORCED
    policy = seccomp.Policy(os.getpid(), inherited, paths=paths, folder_fd=folder_fd, notify=notify)
    if notify:
        notifying.install_handler(folder)
    try:
        seccomp.install(policy)
    except OSError as exc:
        policy.notify = False  # a kernel without listeners: the filter answers EPERM by itself
        try:
            seccomp.install(policy)
        except OSError:
            _uncovered(f"the syscall filter was refused: {exc}")
            return
    ENFORCED.append("seccomp")
    if paths:  # the trial's own files now go through the folder's descriptor
        trialfs.FOLDER, trialfs.FOLDER_FD = folder, folder_fd
    if not policy.notify:
        UNCOVERED.append("what native code was refused is not reported (the error it gets is)")


def _uncovered(why: str) -> None:
    UNCOVERED.append(f"native code's connections, commands and signals ({why})")
    if LANDLOCK_WHY:
        UNCOVERED.append(f"file writes by native code, such as torch.save or a Parquet writer ({LANDLOCK_WHY})")


def detach(keep: set[int]) -> list[str]:
    """Isolate this process; ``keep`` are the descriptors the trial machinery itself uses.

    Returns notes worth showing to the user (what could not be done).
    """
    notes: list[str] = []
    _oom_first()
    _stdio()
    _patch_kernel()
    notes += shared_memory.protect(UNCOVERED)  # first: a mapped file is found again through the descriptors
    for fd in open_fds():
        if fd > 2 and fd not in keep:
            neutralise(fd)
    ENFORCED.append("descriptors")
    repair_thread_pools()
    faulthandler.disable()  # a crash report would go to the kernel's stderr: the crash is reported instead
    torch = sys.modules.get("torch")
    if torch is not None:
        with contextlib.suppress(Exception):
            torch.set_num_threads(1)
    return notes


def repair_thread_pools() -> None:
    """Thread pools made before the fork start fresh threads in this copy instead of waiting forever.

    A ``ThreadPoolExecutor`` counts the threads it started; none of them exists in a forked copy, so
    it would queue work for threads that never come. Its dead threads are forgotten (and the idle
    count reset) before it decides whether to start one: the work then runs here, inside the trial.
    """
    thread = sys.modules.get("concurrent.futures.thread")
    if thread is None:
        return
    original = thread.ThreadPoolExecutor._adjust_thread_count

    def adjust(self: Any) -> None:
        alive = {t for t in self._threads if t.is_alive()}
        if len(alive) != len(self._threads):
            self._threads = alive
            self._idle_semaphore = threading.Semaphore(0)
        original(self)

    thread.ThreadPoolExecutor._adjust_thread_count = adjust


def private_files(keep: set[int]) -> None:
    """Give this process its own offset in every inherited regular file (one per trial process)."""
    for fd in open_fds():
        if fd > 2 and fd not in keep:
            with contextlib.suppress(OSError):
                if stat.S_ISREG(os.fstat(fd).st_mode):
                    neutralise(fd)


def _oom_first() -> None:
    with contextlib.suppress(OSError), open("/proc/self/oom_score_adj", "w") as fh:
        fh.write("1000")


def _stdio() -> None:
    null_r = os.open(os.devnull, os.O_RDONLY)
    null_w = os.open(os.devnull, os.O_WRONLY)
    os.dup2(null_r, 0)
    os.dup2(null_w, 1)
    os.dup2(null_w, 2)
    os.close(null_r)
    os.close(null_w)
    for name in ("stdout", "stderr", "__stdout__", "__stderr__"):
        stream = getattr(sys, name, None)
        if stream is not None and type(stream).__module__.startswith("ipykernel"):
            _silence(stream)
    sys.stdout, sys.stderr = Discard(), Discard()
    sys.stdin = io.StringIO()


def _silence(stream: Any) -> None:
    """A kernel output stream kept by someone (a logging handler) must not send from the copy."""
    for attr, value in (("write", lambda s: len(s)), ("flush", lambda: None), ("writelines", lambda lines: None)):
        with contextlib.suppress(Exception):
            setattr(stream, attr, value)


def _patch_kernel() -> None:
    """No message from the trial may reach the notebook's sockets: the copy has no IO threads."""
    session = sys.modules.get("jupyter_client.session")
    if session is not None:
        session.Session.send = lambda *a, **k: None
    iostream = sys.modules.get("ipykernel.iostream")
    if iostream is not None:
        iostream.OutStream.write = lambda self, s: len(s)  # type: ignore[method-assign]
        iostream.OutStream.flush = lambda self: None  # type: ignore[method-assign]
        iostream.IOPubThread.schedule = lambda self, f: None  # type: ignore[method-assign]
        iostream.IOPubThread.send_multipart = lambda self, *a, **k: None  # type: ignore[method-assign]
    zmq_socket = sys.modules.get("zmq.sugar.socket")
    if zmq_socket is not None:
        for name in ("send", "send_multipart", "send_string", "send_pyobj", "send_json"):
            setattr(zmq_socket.Socket, name, _refuse_zmq)
    import builtins

    builtins.input = _refuse_input
    ipython = sys.modules.get("IPython")
    shell = ipython.get_ipython() if ipython is not None else None
    if shell is not None:
        for name in ("system", "system_piped", "system_raw", "getoutput"):
            original = getattr(shell, name, None)
            if original is not None:
                setattr(shell, name, _shell_escape(original))


def _refuse_zmq(*args: Any, **kwargs: Any) -> None:
    refuse("sends a ZeroMQ message")


def _refuse_input(prompt: object = "") -> str:
    refuse("waits for keyboard input")
    return ""


def _shell_escape(original: Any) -> Any:
    def run(cmd: str, *args: Any, **kwargs: Any) -> Any:
        if STATE.active:
            refuse(f"runs the shell command `{cmd}`")
        return original(cmd, *args, **kwargs)

    return run
