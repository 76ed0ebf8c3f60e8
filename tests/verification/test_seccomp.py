"""The syscall filter call by call, in disposable forked processes, and the pieces around it."""

from __future__ import annotations

import ctypes
import errno
import json
import os
import socket
import struct
from collections.abc import Callable

import pytest

from aiperf_magic.verification import descriptors, seccomp
from aiperf_magic.verification.notify import sockaddr

needs_filter = pytest.mark.skipif(seccomp.machine() is None, reason="no syscall filter on this system")
LIBC = ctypes.CDLL(None, use_errno=True)


def _errno_of(call: Callable[[], object]) -> str:
    try:
        call()
    except OSError as exc:
        return errno.errorcode.get(exc.errno or 0, str(exc.errno))
    return "ok"


def _in_filtered_child(probes: dict[str, Callable[[], object]], paths: bool = False, folder: str = "") -> dict:
    """Run ``probes`` in a fork under the filter (inherited: every descriptor open now); their errnos."""
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child
        try:
            folder_fd = os.open(folder, os.O_PATH | os.O_DIRECTORY) if folder else -1
            inherited = {fd for fd in descriptors.open_fds() if fd > 2 and fd not in (w, folder_fd)}
            seccomp.install(seccomp.Policy(os.getpid(), inherited, paths=paths, folder_fd=folder_fd))
            os.environ["AIPERF_FOLDER_FD"] = str(folder_fd)
            out = {name: _errno_of(probe) for name, probe in probes.items()}
            os.write(w, json.dumps(out).encode())
        finally:
            os._exit(0)
    os.close(w)
    data = b""
    while chunk := os.read(r, 65536):
        data += chunk
    os.close(r)
    os.waitpid(pid, 0)
    return json.loads(data)


@needs_filter
def test_calls_that_reach_the_world_are_refused_and_the_trials_own_are_not(tmp_path) -> None:
    inherited_r, inherited_w = os.pipe()
    path = tmp_path / "inherited.txt"
    fh = open(path, "w")  # noqa: SIM115 - a handle of the kernel's
    udp = ("127.0.0.1", 9)

    def fresh_pipe_write() -> None:
        _, b = os.pipe()
        os.write(b, b"x")

    probes = {
        "write an inherited pipe": lambda: os.write(inherited_w, b"x"),
        "write an inherited file": lambda: os.write(fh.fileno(), b"x"),
        "write a fresh pipe": fresh_pipe_write,
        "connect": lambda: socket.socket(socket.AF_UNIX).connect("/nonexistent"),
        "sendto an address": lambda: socket.socket(socket.AF_INET, socket.SOCK_DGRAM).sendto(b"x", udp),
        "netlink socket": lambda: socket.socket(socket.AF_NETLINK, socket.SOCK_RAW),
        "inet socket": lambda: socket.socket(socket.AF_INET).close(),
        "socketpair": lambda: socket.socketpair(),
        "execve": lambda: os.execv("/bin/true", ["true"]),
        "kill every process (-1)": lambda: os.kill(-1, 0),
        "kill process 1": lambda: os.kill(1, 0),
        "kill itself": lambda: os.kill(os.getpid(), 0),
        "kill its group": lambda: os.kill(0, 0),
        "setpriority of a user": lambda: os.setpriority(os.PRIO_USER, 0, 0),
        "shared writable mmap of an inherited file": lambda: _mmap_shared(fh.fileno()),
        "ftruncate an inherited file": lambda: os.ftruncate(fh.fileno(), 0),
    }
    try:
        got = _in_filtered_child(probes)
    finally:
        fh.close()
        os.close(inherited_r)
        os.close(inherited_w)
    assert got == {
        "write an inherited pipe": "EPERM",
        "write an inherited file": "EPERM",
        "write a fresh pipe": "ok",
        "connect": "EPERM",
        "sendto an address": "EPERM",
        "netlink socket": "EPERM",
        "inet socket": "ok",
        "socketpair": "ok",
        "execve": "EPERM",
        "kill every process (-1)": "EPERM",
        "kill process 1": "EPERM",
        "kill itself": "ok",
        "kill its group": "ok",
        "setpriority of a user": "EPERM",
        "shared writable mmap of an inherited file": "EPERM",
        "ftruncate an inherited file": "EPERM",
    }


def _mmap_shared(fd: int) -> None:
    LIBC.mmap.restype = ctypes.c_void_p
    LIBC.mmap.argtypes = (ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_long)
    if LIBC.mmap(None, 4096, 3, 1, fd, 0) in (None, ctypes.c_void_p(-1).value):
        err = ctypes.get_errno()
        raise OSError(err, os.strerror(err))


@needs_filter
def test_without_landlock_writes_by_path_are_refused_but_the_folders_own(tmp_path) -> None:
    folder = tmp_path / "trial"
    folder.mkdir()
    (tmp_path / "data.txt").write_text("kept")

    def own() -> None:
        fd = os.open("values.pkl", os.O_WRONLY | os.O_CREAT, dir_fd=int(os.environ["AIPERF_FOLDER_FD"]))
        os.write(fd, b"x")

    got = _in_filtered_child(
        {
            "read a file": lambda: (tmp_path / "data.txt").read_text(),
            "write a file": lambda: (tmp_path / "new.txt").write_text("x"),
            "append to a file": lambda: os.open(tmp_path / "data.txt", os.O_WRONLY | os.O_APPEND),
            "delete a file": lambda: os.remove(tmp_path / "data.txt"),
            "rename a file": lambda: os.rename(tmp_path / "data.txt", tmp_path / "moved.txt"),
            "make a folder": lambda: os.mkdir(tmp_path / "d"),
            "the trial's own file": own,
        },
        paths=True,
        folder=str(folder),
    )
    assert got == {
        "read a file": "ok",
        "write a file": "EPERM",
        "append to a file": "EPERM",
        "delete a file": "EPERM",
        "rename a file": "EPERM",
        "make a folder": "EPERM",
        "the trial's own file": "ok",
    }
    assert sorted(p.name for p in tmp_path.iterdir()) == ["data.txt", "trial"]
    assert (folder / "values.pkl").read_bytes() == b"x"


@pytest.mark.parametrize("arch", sorted(seccomp.NUMBERS))
def test_the_program_assembles_for_every_supported_architecture(arch: str) -> None:
    policy = seccomp.Policy(pid=1234, inherited=set(range(3, 2000, 2)), paths=True, folder_fd=7, notify=True)
    code = seccomp.program(policy, arch)
    assert len(code) % 8 == 0 and 0 < len(code) // 8 < 4096  # the kernel's limit on a filter
    last = struct.unpack_from("=HBBI", code, len(code) - 8)
    assert last[0] == 0x06  # every path ends in a return


def test_many_inherited_descriptors_fold_into_ranges() -> None:
    assert seccomp._ranges({3, 4, 5, 9, 10, 12}) == [(3, 5), (9, 10), (12, 12)]
    sparse = set(range(3, 3000, 2))
    assert seccomp._ranges(sparse) == [(3, 2999)]  # too many to list: one span, refusing more, never less


def test_an_inherited_terminal_becomes_a_read_only_dev_null(tmp_path) -> None:
    import pty

    master, slave = pty.openpty()
    f = open(tmp_path / "f.txt", "w+")  # noqa: SIM115
    f.write("abcdef")
    f.flush()
    f.seek(2)
    try:
        descriptors.neutralise(slave)
        descriptors.neutralise(f.fileno())
        null = os.stat(os.devnull)
        assert os.fstat(slave).st_rdev == null.st_rdev
        assert _errno_of(lambda: os.write(slave, b"x")) == "EBADF"
        assert os.read(f.fileno(), 10) == b"cdef"  # same file, same offset, read-only now
        assert _errno_of(lambda: os.write(f.fileno(), b"x")) == "EBADF"
        assert (tmp_path / "f.txt").read_text() == "abcdef"
    finally:
        f.close()
        os.close(master)
        os.close(slave)


def test_socket_addresses_are_said_in_words() -> None:
    assert sockaddr(struct.pack("=H", socket.AF_UNIX) + b"/run/postgresql/.s.PGSQL.5432\0") == (
        "/run/postgresql/.s.PGSQL.5432"
    )
    assert sockaddr(struct.pack("=H", socket.AF_UNIX) + b"\0metrics\0\0") == "the abstract socket @metrics"
    inet = struct.pack("=H", socket.AF_INET) + struct.pack("!H", 5432) + bytes([10, 0, 0, 7]) + bytes(8)
    assert sockaddr(inet) == "10.0.0.7:5432"
    six = (
        struct.pack("=H", socket.AF_INET6)
        + struct.pack("!H", 443)
        + bytes(4)
        + socket.inet_pton(socket.AF_INET6, "::1")
    )
    assert sockaddr(six) == "[::1]:443"
    assert sockaddr(b"") == "an address"
