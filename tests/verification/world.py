"""The world a Try must not change, for the conformance matrix: servers, devices, files and processes
that count what reaches them, and the helpers a notebook would have defined in earlier cells.

Every probe returns plain data (bytes received, a listing, a row count, a flag), read after the Try;
the matrix compares it with the same probe read before.
"""

from __future__ import annotations

import contextlib
import os
import pty
import select
import socket
import sqlite3
import subprocess
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

# What a notebook would have defined in an earlier cell: a C library's calls, through ctypes.
NATIVE_HELPERS = """
import ctypes, os
libc = ctypes.CDLL(None, use_errno=True)

def check(rc, what):
    if rc < 0:
        err = ctypes.get_errno()
        raise OSError(err, f"{what}: {os.strerror(err)}")
    return rc

def c_save(path, data):
    fd = check(libc.open(path.encode(), os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644), "could not open")
    check(libc.write(fd, data, len(data)), "could not write")
    libc.close(fd)

def c_write(fd, data):
    libc.write(fd, data, len(data))  # a driver that ignores the error

def c_connect(path, data, abstract=False):
    fd = check(libc.socket(1, 1, 0), "socket")
    raw = (b"\\0" if abstract else b"") + path.encode()
    addr = ctypes.create_string_buffer(b"\\x01\\x00" + raw, 110)
    check(libc.connect(fd, addr, 2 + len(raw)), "could not connect to server")
    check(libc.send(fd, data, len(data), 0), "send")

def c_sendto(port, data):
    fd = libc.socket(2, 2, 0)
    addr = ctypes.create_string_buffer(b"\\x02\\x00" + port.to_bytes(2, "big") + bytes([127, 0, 0, 1]), 16)
    libc.sendto(fd, data, len(data), 0, addr, 16)  # ignores the error, as fire-and-forget metrics do

def c_system(cmd):
    libc.system(cmd.encode())

def c_kill(pid):
    libc.kill(pid, 15)
"""


@dataclass
class World:
    """Everything one test case set up; ``close`` undoes it."""

    root: Path
    ns: dict[str, Any] = field(default_factory=dict)
    closers: list[Callable[[], None]] = field(default_factory=list)

    def close(self) -> None:
        for close in reversed(self.closers):
            with contextlib.suppress(Exception):
                close()


def namespace(**values: Any) -> dict[str, Any]:
    ns: dict[str, Any] = {"__name__": "__main__"}
    exec(NATIVE_HELPERS, ns)
    ns.update(values)
    return ns


def listing(root: Path) -> dict[str, tuple[int, bytes]]:
    """Every file below ``root`` with its mode and contents."""
    out = {}
    for path in sorted(root.rglob("*")):
        info = path.lstat()
        data = path.read_bytes() if path.is_file() and not path.is_fifo() else b""
        out[str(path.relative_to(root))] = (info.st_mode, data)
    return out


class Counter:
    """A server thread that counts connections and bytes (TCP, Unix, abstract) or datagrams (UDP)."""

    def __init__(self, family: int, kind: int, address: Any) -> None:
        self.sock = socket.socket(family, kind)
        self.sock.bind(address)
        if kind == socket.SOCK_STREAM:
            self.sock.listen(16)
        self.address = self.sock.getsockname()
        self.received = b""
        self.connections = 0
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self) -> None:
        peers: list[socket.socket] = []
        while not self.stop.is_set():
            ready, _, _ = select.select([self.sock, *peers], [], [], 0.02)
            for s in ready:
                if s is self.sock and self.sock.type == socket.SOCK_STREAM:
                    peer, _ = self.sock.accept()
                    self.connections += 1
                    peers.append(peer)
                else:
                    data = s.recv(65536)
                    self.received += data
                    if not data and s in peers:
                        peers.remove(s)

    def seen(self) -> tuple[int, bytes]:
        import time

        time.sleep(0.05)  # let the server thread read what is in flight
        return self.connections, self.received

    def close(self) -> None:
        self.stop.set()
        self.thread.join()
        self.sock.close()


def _drain(fd: int) -> Callable[[], bytes]:
    """What has arrived on ``fd`` so far, all of it, each time it is called."""
    os.set_blocking(fd, False)
    got = bytearray()

    def received() -> bytes:
        with contextlib.suppress(BlockingIOError, OSError):
            while chunk := os.read(fd, 4096):
                got.extend(chunk)
        return bytes(got)

    return received


def pty_pair() -> tuple[int, int, Callable[[], bytes]]:
    """(master, slave, read-what-the-instrument-received)."""
    master, slave = pty.openpty()
    return master, slave, _drain(master)


def fifo(root: Path) -> tuple[str, int, Callable[[], bytes]]:
    """A FIFO with a reader in this process: (path, reader fd, what it received)."""
    path = str(root / "fifo")
    os.mkfifo(path)
    reader = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    return path, reader, _drain(reader)


def sqlite_rows(path: str) -> int:
    with contextlib.closing(sqlite3.connect(path)) as con:
        return int(con.execute("select count(*) from t").fetchone()[0])


def sqlite_file(path: str) -> None:
    with contextlib.closing(sqlite3.connect(path)) as con:
        con.execute("create table t(x)")
        con.commit()


@contextlib.contextmanager
def victim() -> Iterator[subprocess.Popen]:
    """A process the cell must not signal."""
    proc = subprocess.Popen(["sleep", "60"])
    try:
        yield proc
    finally:
        proc.kill()
        proc.wait()
