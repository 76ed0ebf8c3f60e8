"""Framed messages over pipes between the kernel and its trial processes, and killing/reaping them.

Messages are length-prefixed pickles of plain data (commands, :class:`~.trial.Outcome`); the user's
values never travel this way. A writer that dies mid-message reads as end of file.
"""

from __future__ import annotations

import contextlib
import os
import pickle
import signal
import struct
import time
from typing import Any

from .trial import write_all


def send(fd: int, obj: Any) -> None:
    data = pickle.dumps(obj)
    write_all(fd, struct.pack("!Q", len(data)) + data)


def recv(fd: int) -> Any:
    """The next message; None at end of file or when the writer died mid-message."""
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


def kill(pid: int) -> None:
    """SIGKILL a trial process and its process group (whatever it started)."""
    if pid <= 0:
        return
    for sender in (os.killpg, os.kill):
        with contextlib.suppress(ProcessLookupError, PermissionError, OSError):
            sender(pid, signal.SIGKILL)


def reap(pid: int) -> int:
    """Wait for a child, then kill anything it left running in its group; returns its wait status."""
    status = 0
    with contextlib.suppress(ChildProcessError):
        _, status = os.waitpid(pid, 0)
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pid, signal.SIGKILL)
    return status


def reaped_within(pid: int, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            if os.waitpid(pid, os.WNOHANG) != (0, 0):
                return True
        except ChildProcessError:
            return True
        time.sleep(0.005)
    return False


def close_all(*fds: int) -> None:
    for fd in fds:
        if fd >= 0:
            with contextlib.suppress(OSError):
                os.close(fd)
