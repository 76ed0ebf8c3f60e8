"""Cut a freshly forked copy of the kernel off from everything the kernel shares with the world.

A fork inherits the kernel's file descriptors (open files share their offset with the kernel; the
notebook's ZeroMQ sockets; a SQLite connection's database file; pipes to pool workers) and its
shared memory maps. :func:`detach` runs once in the trial process before any user code:

- stdin reads nothing; stdout/stderr go to /dev/null (C-level output too); ``sys.stdout`` and
  ``sys.stderr`` discard what Python prints; the kernel's output streams, message sending and
  ``input()`` are replaced, so nothing reaches the notebook's sockets;
- every inherited regular file is reopened read-only at the same offset (reads keep working, the
  kernel's offset never moves, writes fail); inherited sockets and pipes become a read-only
  /dev/null (a write fails);
- writable shared memory maps (a writable ``np.memmap``, shared memory) become read-only: a write
  kills the trial, never the shared data;
- the trial is the first candidate of the out-of-memory killer; GNU OpenMP pools, which hang after
  a fork, are bypassed by running torch on one thread.
"""

from __future__ import annotations

import contextlib
import ctypes
import io
import os
import stat
import sys
from typing import Any

from .guard import STATE, refuse
from .runner import Discard


def detach(keep: set[int]) -> list[str]:
    """Isolate this process; ``keep`` are the descriptors the trial machinery itself uses.

    Returns notes worth showing to the user (what could not be done).
    """
    notes: list[str] = []
    _oom_first()
    _stdio()
    _patch_kernel()
    for fd in _fds():
        if fd > 2 and fd not in keep:
            _neutralise(fd)
    notes += _protect_shared_maps()
    torch = sys.modules.get("torch")
    if torch is not None:
        with contextlib.suppress(Exception):
            torch.set_num_threads(1)
    return notes


def private_files(keep: set[int]) -> None:
    """Give this process its own offset in every inherited regular file (one per trial process)."""
    for fd in _fds():
        if fd > 2 and fd not in keep:
            with contextlib.suppress(OSError):
                if stat.S_ISREG(os.fstat(fd).st_mode):
                    _neutralise(fd)


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


def _fds() -> list[int]:
    try:
        return sorted(int(n) for n in os.listdir("/proc/self/fd"))
    except OSError:  # not Linux: probe the usual range
        return [fd for fd in range(3, 256) if _is_open(fd)]


def _is_open(fd: int) -> bool:
    try:
        os.fstat(fd)
    except OSError:
        return False
    return True


def _neutralise(fd: int) -> None:
    try:
        info = os.fstat(fd)
    except OSError:
        return
    replacement = -1
    try:
        if stat.S_ISREG(info.st_mode):
            path = os.readlink(f"/proc/self/fd/{fd}") if os.path.isdir("/proc/self/fd") else ""
            try:
                replacement = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
                if os.fstat(replacement).st_ino != info.st_ino:
                    raise OSError("replaced")
                os.lseek(replacement, os.lseek(fd, 0, os.SEEK_CUR), os.SEEK_SET)
            except OSError:
                if replacement >= 0:
                    os.close(replacement)
                replacement = os.open(os.devnull, os.O_RDONLY | os.O_CLOEXEC)
        elif stat.S_ISSOCK(info.st_mode) or stat.S_ISFIFO(info.st_mode):
            replacement = os.open(os.devnull, os.O_RDONLY | os.O_CLOEXEC)
        else:
            return  # directories, devices, event fds: nothing the trial could change through them
        os.dup2(replacement, fd, inheritable=False)
    except OSError:
        pass
    finally:
        if replacement >= 0:
            os.close(replacement)


def _protect_shared_maps() -> list[str]:
    """Make writable shared mappings read-only; returns a note per mapping protected."""
    try:
        with open("/proc/self/maps") as fh:
            lines = fh.read().splitlines()
    except OSError:
        return []
    libc = ctypes.CDLL(None, use_errno=True)
    libc.mprotect.argtypes = (ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int)
    protected = []
    for line in lines:
        parts = line.split(None, 5)
        if len(parts) < 5 or parts[1][1] != "w" or parts[1][3] != "s":
            continue
        lo, hi = (int(x, 16) for x in parts[0].split("-"))
        if libc.mprotect(lo, hi - lo, 1) == 0:  # PROT_READ
            protected.append(parts[5].strip() if len(parts) > 5 else "anonymous shared memory")
    if protected:
        names = ", ".join(sorted(set(protected))[:3])
        return [f"memory shared with files or processes was read-only in the trials ({names})"]
    return []
