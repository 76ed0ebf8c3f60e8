"""The kernel's side of a trial's syscall filter: refusals reported as they happen, then the trial stopped.

With a plain ``EPERM`` filter, native code that ignores the error (or a library that swallows it)
would let the trial finish and Try say "equal" without a word about what was refused. So the
filter (:mod:`.seccomp`, ``notify=True``) hands each refused call to a listener instead, and the
kernel, which waits on the trial anyway, answers it: it takes the listener from the trial process
(``pidfd_getfd``), reads what the call was (the syscall, the address it connects to, the path of
the descriptor it writes, from the trial's memory and the kernel's own descriptor table), answers
``EPERM``, writes the words to the trial's folder and signals the trial, whose handler names the
cell line running at that moment and stops the run (:func:`install_handler`). A trial that does not
stop within a grace period is killed; the refusal is reported either way.

Where the kernel cannot take the listener (no ``pidfd_getfd`` before Linux 5.6, or a ptrace
restriction), the filter answers ``EPERM`` by itself and nothing is reported beyond the error.
"""

from __future__ import annotations

import contextlib
import ctypes
import errno
import os
import signal
import socket
import struct
import sys
import threading
from dataclasses import dataclass
from typing import Any

from .seccomp import FD_WRITES, machine
from .syscalls import NUMBERS

_PIDFD_OPEN, _PIDFD_GETFD = 434, 438
_NOTIF_SIZE, _RESP_SIZE = 80, 24
_IOCTL_RECV = (3 << 30) | (_NOTIF_SIZE << 16) | (ord("!") << 8) | 0
_IOCTL_SEND = (3 << 30) | (_RESP_SIZE << 16) | (ord("!") << 8) | 1
SIGNAL = signal.SIGRTMIN + 7 if hasattr(signal, "SIGRTMIN") else signal.SIGUSR2
REFUSED_FILE = "refused.txt"
GRACE_S = 2.0  # after a refusal, the trial has this long to stop by itself
# refused without a word: glibc's name-service caches (pwd.getpwuid, gethostbyname ask them first,
# then read /etc/passwd and /etc/hosts themselves when the connection fails; libuuid asks uuidd,
# then makes the UUID itself)
QUIET = frozenset(
    f"connects to {path}"
    for path in ("/var/run/nscd/socket", "/run/nscd/socket", "/var/lib/sss/pipes/nss", "/run/uuidd/request")
)


@dataclass
class Refusal:
    tid: int
    what: str  # "connects to /run/postgresql/.s.PGSQL.5432"


def _libc() -> Any:
    libc = ctypes.CDLL(None, use_errno=True)
    libc.syscall.restype = ctypes.c_long
    libc.ioctl.argtypes = (ctypes.c_int, ctypes.c_ulong, ctypes.c_void_p)
    return libc


def take(pid: int, fd: int) -> int:
    """A duplicate, in this process, of descriptor ``fd`` of process ``pid``; raises OSError."""
    libc = _libc()
    pidfd = libc.syscall(ctypes.c_long(_PIDFD_OPEN), ctypes.c_int(pid), ctypes.c_uint(0))
    if pidfd < 0:
        raise OSError(ctypes.get_errno(), "pidfd_open")
    try:
        got = libc.syscall(ctypes.c_long(_PIDFD_GETFD), ctypes.c_int(pidfd), ctypes.c_int(fd), ctypes.c_uint(0))
        if got < 0:
            raise OSError(ctypes.get_errno(), "pidfd_getfd")
        return int(got)
    finally:
        os.close(pidfd)


def available(pid: int, fd: int) -> bool:
    """Can this process take descriptors from ``pid`` (the trial template, a child like every trial)?"""
    if machine() is None:
        return False
    try:
        os.close(take(pid, fd))
    except OSError:
        return False
    return True


class Supervisor:
    """Answers the refused calls of the trial processes the kernel waits on."""

    def __init__(self, folder: str) -> None:
        self.folder = folder
        self.listeners: dict[int, int] = {}  # trial pid -> listener descriptor here
        self.refused: dict[int, Refusal] = {}  # trial pid -> its first refusal
        self.first_at: dict[int, float] = {}
        self.names = {v: k for k, v in NUMBERS.get(machine() or "", {}).items()}
        self.libc = _libc()

    def adopt(self, pid: int) -> None:
        """Take the listener of trial ``pid`` once it has installed its filter."""
        if pid <= 0 or pid in self.listeners:
            return
        try:
            entries = os.listdir(f"/proc/{pid}/fd")
        except OSError:
            return
        for name in entries:
            with contextlib.suppress(OSError):
                if os.readlink(f"/proc/{pid}/fd/{name}") == "anon_inode:seccomp notify":
                    self.listeners[pid] = take(pid, int(name))
                    return

    def fds(self) -> list[int]:
        return list(self.listeners.values())

    def release(self, pid: int) -> None:
        fd = self.listeners.pop(pid, -1)
        if fd >= 0:
            os.close(fd)

    def close(self) -> None:
        for pid in list(self.listeners):
            self.release(pid)

    def handle(self, fd: int, now: float) -> None:
        """Answer one refused call waiting on listener ``fd``."""
        pid = next((p for p, f in self.listeners.items() if f == fd), 0)
        buf = ctypes.create_string_buffer(_NOTIF_SIZE)
        if self.libc.ioctl(fd, _IOCTL_RECV, buf) != 0:
            if ctypes.get_errno() in (errno.ENOENT, errno.EBADF, errno.EINVAL):  # the trial is gone
                self.release(pid)
            return
        ident, tid, _flags, nr, _arch, _ip = struct.unpack_from("=QIIiIQ", buf.raw)
        args = struct.unpack_from("=6Q", buf.raw, 32)
        what = self.describe(tid, nr, args)
        resp = ctypes.create_string_buffer(struct.pack("=QqiI", ident, 0, -errno.EPERM, 0), _RESP_SIZE)
        self.libc.ioctl(fd, _IOCTL_SEND, resp)
        if what in QUIET:  # the C library asking a name service, which falls back to local files
            return
        if pid and pid not in self.refused:
            self.refused[pid] = Refusal(tid, what)
            self.first_at[pid] = now
            self._tell(pid, tid, what)

    def overdue(self, pid: int, now: float) -> bool:
        return pid in self.first_at and now - self.first_at[pid] > GRACE_S

    def _tell(self, pid: int, tid: int, what: str) -> None:
        with contextlib.suppress(OSError):
            with open(os.path.join(self.folder, f"{REFUSED_FILE}.{pid}"), "w") as fh:
                fh.write(f"{tid}\n{what}")
            os.kill(pid, SIGNAL)

    def describe(self, tid: int, nr: int, args: tuple[int, ...]) -> str:
        name = self.names.get(nr, f"#{nr}")
        if name in ("connect", "bind"):
            verb = "connects to" if name == "connect" else "listens on"
            return f"{verb} {self._address(tid, args[1], args[2])}"
        if name in ("sendto", "sendmsg", "sendmmsg"):
            where = self._address(tid, args[4], args[5]) if name == "sendto" and args[4] else "a socket"
            return f"sends a message to {where}" if name == "sendto" else "sends a message over a socket"
        if name in ("execve", "execveat"):
            return f"runs the program {self._string(tid, args[0] if name == 'execve' else args[1])}"
        if name in ("kill", "tgkill", "tkill", "rt_sigqueueinfo", "rt_tgsigqueueinfo", "pidfd_send_signal"):
            return f"sends a signal to process {ctypes.c_int32(args[0]).value}"
        if name in ("open", "openat", "creat"):
            return f"writes to {self._string(tid, args[1] if name == 'openat' else args[0])}"
        if name in _FD_ARG:
            verb = _FD_VERBS.get(name, "writes to")
            return f"{verb} {self._descriptor(ctypes.c_int32(args[_FD_ARG[name]]).value)}"
        if name == "listen":
            return "listens on a socket"
        return f"makes the system call {name}"

    def _descriptor(self, fd: int) -> str:
        """What the kernel's own descriptor of that number is (the trial inherited it)."""
        try:
            target = os.readlink(f"/proc/self/fd/{fd}")
        except OSError:
            return f"descriptor {fd}, opened before the cell"
        for prefix, words in (("socket:", "a socket"), ("pipe:", "a pipe"), ("anon_inode:", "a kernel object")):
            if target.startswith(prefix):
                return f"{words} opened before the cell"
        return f"{target}, opened before the cell"

    def _read(self, tid: int, address: int, size: int) -> bytes:
        if not address or size <= 0:
            return b""
        try:
            with open(f"/proc/{tid}/mem", "rb", buffering=0) as mem:
                mem.seek(address)
                return mem.read(min(size, 4096))
        except (OSError, OverflowError, ValueError):
            return b""

    def _string(self, tid: int, address: int) -> str:
        raw = self._read(tid, address, 4096)
        return os.fsdecode(raw.split(b"\0", 1)[0]) or "a path"

    def _address(self, tid: int, address: int, size: int) -> str:
        return sockaddr(self._read(tid, address, size))


def sockaddr(raw: bytes) -> str:
    """A ``struct sockaddr`` in words: a Unix path, ``the abstract socket @name``, ``host:port``."""
    if len(raw) < 2:
        return "an address"
    family = struct.unpack_from("=H", raw)[0]
    if family == socket.AF_UNIX:
        path = raw[2:]
        if path[:1] == b"\0":
            return "the abstract socket @" + os.fsdecode(path[1:].rstrip(b"\0"))
        return os.fsdecode(path.split(b"\0", 1)[0])
    if family == socket.AF_INET and len(raw) >= 8:
        port = struct.unpack_from("!H", raw, 2)[0]
        return f"{socket.inet_ntop(socket.AF_INET, raw[4:8])}:{port}"
    if family == socket.AF_INET6 and len(raw) >= 24:
        port = struct.unpack_from("!H", raw, 2)[0]
        return f"[{socket.inet_ntop(socket.AF_INET6, raw[8:24])}]:{port}"
    return "an address"


_FD_VERBS = {
    "epoll_ctl": "changes the event set of",
    "accept": "accepts a connection on",
    "accept4": "accepts a connection on",
    "fchmod": "changes the permissions of",
    "fchown": "changes the owner of",
    "ftruncate": "truncates",
    "mmap": "maps for writing",
}
_FD_ARG = {name: i for i, names in FD_WRITES.items() for name in names} | {"mmap": 4}  # call -> its descriptor


# --- the trial's side ----------------------------------------------------------------------------


def install_handler(folder: str) -> None:
    """In the trial: when the kernel signals a refusal, name the cell line and stop the run."""
    from . import guard

    def on_refusal(signum: int, frame: Any) -> None:
        try:
            with open(os.path.join(folder, f"{REFUSED_FILE}.{os.getpid()}")) as fh:
                tid_text, _, what = fh.read().partition("\n")
        except OSError:
            return
        running = _frame_of(int(tid_text or 0)) or frame
        text = guard.where_from(running, f"{what} (refused by the operating system)")
        if guard.STATE.blocked is None:
            guard.STATE.blocked = text
        raise guard.Blocked(text)

    signal.signal(SIGNAL, on_refusal)


def _frame_of(tid: int) -> Any:
    for thread in threading.enumerate():
        if thread.native_id == tid and thread.ident is not None:
            return sys._current_frames().get(thread.ident)
    return None
