"""Shared memory maps of a trial, made read-only in a way the trial cannot undo.

A fork keeps ``MAP_SHARED`` mappings shared: a write to a writable ``np.memmap``, a multiprocessing
heap, ``/dev/shm`` or a ``SharedMemory`` block created in an earlier cell would reach the file and
every process mapping it. Each such mapping is replaced in place (same address, same contents) by
a shared mapping of the same file opened read-only, so the kernel itself refuses write access, even
to native code that calls ``mprotect``; shared memory with no file to reopen becomes a private
read-only copy. Device memory is only made read-only, and said so.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import stat
from typing import Any

from .descriptors import open_fds


def _libc() -> Any:
    libc = ctypes.CDLL(None, use_errno=True)
    libc.mmap.restype = ctypes.c_void_p
    libc.mmap.argtypes = (ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_long)
    libc.mprotect.argtypes = (ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int)
    return libc


_PROT_READ, _PROT_WRITE = 1, 2
_MAP_SHARED, _MAP_PRIVATE, _MAP_FIXED, _MAP_ANONYMOUS = 0x01, 0x02, 0x10, 0x20
COPY_LIMIT = 256 << 20  # shared memory with no file to map read-only is copied up to this size


def protect(uncovered: list[str]) -> list[str]:
    """Make every shared mapping read-only in a way the trial cannot undo.

    A mapping of a file (a writable ``np.memmap``, ``/dev/shm``, a multiprocessing heap) is replaced,
    in place, by a shared mapping of the same file opened read-only: the kernel itself then refuses
    write access, even to native code calling ``mprotect``. Shared memory with no file to reopen is
    replaced by a private read-only copy (up to 256 MiB). Device memory is only made read-only.
    Returns notes for the user; what could not be protected for good is added to ``uncovered``.
    """
    try:
        with open("/proc/self/maps") as fh:
            lines = fh.read().splitlines()
    except OSError:  # not Linux: the maps cannot be listed, so none is protected
        uncovered.append("writes to memory shared with files or processes (a writable np.memmap, SharedMemory)")
        return []
    libc = _libc()
    by_inode = _inherited_inodes()
    protected = []
    for line in lines:
        parts = line.split(None, 5)
        if len(parts) < 5 or parts[1][3] != "s":
            continue
        lo, hi = (int(x, 16) for x in parts[0].split("-"))
        name = parts[5].strip() if len(parts) > 5 else ""
        how = _remap_read_only(libc, lo, hi, int(parts[2], 16), int(parts[4]), name, parts, by_inode)
        if how is None:
            continue
        if how == "mprotect":
            uncovered.append(
                f"memory shared with {name or 'a device'} was only made read-only (native code could undo it)"
            )
        if parts[1][1] == "w":  # a read-only map of a system file (locale caches) is not worth a note
            protected.append(name or "anonymous shared memory")
    if protected:
        names = ", ".join(sorted(set(protected))[:3])
        return [f"memory shared with files or processes was read-only in the trials ({names})"]
    return []


def _remap_read_only(
    libc: Any, lo: int, hi: int, offset: int, inode: int, name: str, parts: list[str], by_inode: dict[int, int]
) -> str | None:
    size = hi - lo
    ro = _read_only_source(lo, hi, inode, name, by_inode)
    if ro is not None:
        fd, device = ro
        try:
            if not device:
                flags = _MAP_SHARED | _MAP_FIXED
                if libc.mmap(lo, size, _PROT_READ, flags, fd, offset) == lo:
                    return "remap"
        finally:
            os.close(fd)
    elif parts[1][0] == "r" and size <= COPY_LIMIT:
        saved = ctypes.string_at(lo, size)
        flags = _MAP_PRIVATE | _MAP_ANONYMOUS | _MAP_FIXED
        if libc.mmap(lo, size, _PROT_READ | _PROT_WRITE, flags, -1, 0) == lo:
            ctypes.memmove(lo, saved, size)
            libc.mprotect(lo, size, _PROT_READ)
            return "copy"
    if parts[1][1] == "w" and libc.mprotect(lo, size, _PROT_READ) == 0:
        return "mprotect"
    return None


def _read_only_source(lo: int, hi: int, inode: int, name: str, by_inode: dict[int, int]) -> tuple[int, bool] | None:
    """(a read-only descriptor of the mapped file, whether it is a device), or None."""
    candidates = [f"/proc/self/map_files/{lo:x}-{hi:x}"]
    if inode in by_inode:
        candidates.insert(0, f"/proc/self/fd/{by_inode[inode]}")
    if name.startswith("/") and not name.endswith("(deleted)"):
        candidates.insert(0, name)
    for path in candidates:
        try:
            fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
        except OSError:
            continue
        info = os.fstat(fd)
        if info.st_ino == inode or not inode:
            return fd, stat.S_ISCHR(info.st_mode) or stat.S_ISBLK(info.st_mode)
        os.close(fd)
    return None


def _inherited_inodes() -> dict[int, int]:
    out = {}
    for fd in open_fds():
        with contextlib.suppress(OSError):
            out.setdefault(os.fstat(fd).st_ino, fd)
    return out
