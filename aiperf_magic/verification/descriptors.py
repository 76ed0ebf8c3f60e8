"""What a trial does with the descriptors it inherited from the kernel: each becomes private and read-only.

A forked copy shares every open file description with the kernel: an offset, a socket to the
notebook, a pipe to a pool worker, a serial port opened in an earlier cell, an epoll set. Writing,
reading or even changing flags through one of them would act on the kernel's side too.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import stat


def open_fds() -> list[int]:
    try:
        listed = sorted(int(n) for n in os.listdir("/proc/self/fd"))
    except OSError:  # not Linux: probe the usual range
        listed = list(range(3, 256))
    return [fd for fd in listed if _is_open(fd)]  # the listing's own descriptor is closed by now


def _is_open(fd: int) -> bool:
    try:
        os.fstat(fd)
    except OSError:
        return False
    return True


# character devices a trial may keep reading from: /dev/null, zero, full, random, urandom (major 1)
_HARMLESS_DEVICES = {(1, 3), (1, 5), (1, 7), (1, 8), (1, 9)}


def neutralise(fd: int) -> None:
    """Replace ``fd`` by a private, read-only equivalent; nothing written through it can leave.

    Regular files, directories and the harmless devices are reopened read-only (their own offset,
    the same content); everything else a trial could reach the world or the kernel through
    (sockets, pipes, FIFOs, terminals and serial ports, other devices, event and epoll descriptors)
    becomes a read-only /dev/null. The number stays taken, so objects holding it never write to a
    file the trial opens later.
    """
    try:
        info = os.fstat(fd)
    except OSError:
        return
    replacement = -1
    try:
        mode = info.st_mode
        device = (os.major(info.st_rdev), os.minor(info.st_rdev)) if stat.S_ISCHR(mode) else None
        if stat.S_ISREG(mode) or stat.S_ISDIR(mode) or device in _HARMLESS_DEVICES:
            replacement = _reopen(fd, info)
        if replacement < 0:
            replacement = os.open(os.devnull, os.O_RDONLY | os.O_CLOEXEC)
        os.dup2(replacement, fd, inheritable=False)
    except OSError:
        pass
    finally:
        if replacement >= 0:
            os.close(replacement)


def _reopen(fd: int, info: os.stat_result) -> int:
    """The same file opened read-only at the same offset, or -1."""
    flags = os.O_RDONLY | os.O_CLOEXEC | (os.O_DIRECTORY if stat.S_ISDIR(info.st_mode) else 0)
    for path in (f"/proc/self/fd/{fd}", _path_of(fd)):
        if not path:
            continue
        try:
            new = os.open(path, flags)
        except OSError:
            continue
        same = os.fstat(new)
        if (same.st_dev, same.st_ino) != (info.st_dev, info.st_ino):
            os.close(new)
            continue
        if stat.S_ISREG(info.st_mode):
            with contextlib.suppress(OSError):
                os.lseek(new, os.lseek(fd, 0, os.SEEK_CUR), os.SEEK_SET)
        return new
    return -1


def _path_of(fd: int) -> str:
    with contextlib.suppress(OSError):
        return os.readlink(f"/proc/self/fd/{fd}")
    getpath = getattr(fcntl, "F_GETPATH", None)  # macOS: no /proc, the descriptor knows its path
    if getpath is not None:
        with contextlib.suppress(OSError):
            return os.fsdecode(fcntl.fcntl(fd, getpath, bytes(1024)).split(b"\0", 1)[0])
    return ""
