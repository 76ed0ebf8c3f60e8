"""Kernel-enforced write protection for a forked trial process (Linux Landlock, 5.13 and later).

The audit hook sees what Python code does; native libraries that open files themselves (torch's
``torch.save``, Arrow's Parquet writer, HDF5) bypass it. Landlock makes the kernel refuse every
file creation, write, delete and rename outside the trial's temp folder, TCP connects and binds
(ABI 4, Linux 6.7), and signals to processes outside the trial (ABI 6), for this process and every
thread or process it starts. It cannot be undone, so it is only used in disposable trial processes.
Unavailable kernels or architectures are reported, not fatal.
"""

from __future__ import annotations

import ctypes
import os
import struct
import sys

_CREATE_RULESET, _ADD_RULE, _RESTRICT_SELF = 444, 445, 446  # the same on every Linux architecture
_VERSION = 1 << 0  # LANDLOCK_CREATE_RULESET_VERSION
_RULE_PATH_BENEATH = 1
_PR_SET_NO_NEW_PRIVS = 38

_WRITE_FILE = 1 << 1
_DIR_WRITES = sum(1 << b for b in (4, 5, 6, 7, 8, 9, 10, 11, 12))  # remove, make char/dir/reg/sock/fifo/block/sym
_REFER = 1 << 13  # ABI 2
_TRUNCATE = 1 << 14  # ABI 3
_NET_BIND_TCP, _NET_CONNECT_TCP = 1 << 0, 1 << 1  # ABI 4
_SCOPE_ABSTRACT_UNIX, _SCOPE_SIGNAL = 1 << 0, 1 << 1  # ABI 6


def _libc() -> ctypes.CDLL | None:
    if not sys.platform.startswith("linux"):
        return None
    try:
        return ctypes.CDLL(None, use_errno=True)
    except OSError:
        return None


def abi_version() -> int:
    """The Landlock ABI the kernel offers, 0 when none."""
    libc = _libc()
    if libc is None:
        return 0
    version = libc.syscall(_CREATE_RULESET, None, ctypes.c_size_t(0), ctypes.c_uint32(_VERSION))
    return max(0, int(version))


def restrict(writable_dir: str) -> str | None:
    """Allow writes only beneath ``writable_dir`` (and to /dev/null) from now on.

    Returns None on success, else why the protection is not in place.
    """
    libc = _libc()
    abi = abi_version()
    if libc is None or abi < 1:
        return "Landlock is not available on this system"
    fs = _WRITE_FILE | _DIR_WRITES | (_REFER if abi >= 2 else 0) | (_TRUNCATE if abi >= 3 else 0)
    net = _NET_BIND_TCP | _NET_CONNECT_TCP if abi >= 4 else 0
    scoped = _SCOPE_ABSTRACT_UNIX | _SCOPE_SIGNAL if abi >= 6 else 0
    attr = struct.pack("=QQQ", fs, net, scoped)[: 8 if abi < 4 else 16 if abi < 6 else 24]
    buf = ctypes.create_string_buffer(attr, len(attr))
    ruleset = libc.syscall(_CREATE_RULESET, buf, ctypes.c_size_t(len(attr)), ctypes.c_uint32(0))
    if ruleset < 0:
        return f"Landlock ruleset refused ({os.strerror(ctypes.get_errno())})"
    try:
        file_rights = _WRITE_FILE | (_TRUNCATE if abi >= 3 else 0)
        for path, rights in ((writable_dir, fs), (os.devnull, file_rights)):
            fd = os.open(path, os.O_PATH | os.O_CLOEXEC)
            try:
                rule = ctypes.create_string_buffer(struct.pack("=Qi", rights, fd), 12)
                if libc.syscall(_ADD_RULE, ctypes.c_int(ruleset), ctypes.c_int(_RULE_PATH_BENEATH), rule, 0) < 0:
                    return f"Landlock rule refused ({os.strerror(ctypes.get_errno())})"
            finally:
                os.close(fd)
        if libc.prctl(_PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
            return "no_new_privs refused"
        if libc.syscall(_RESTRICT_SELF, ctypes.c_int(ruleset), ctypes.c_uint32(0)) < 0:
            return f"Landlock restriction refused ({os.strerror(ctypes.get_errno())})"
    finally:
        os.close(ruleset)
    return None
