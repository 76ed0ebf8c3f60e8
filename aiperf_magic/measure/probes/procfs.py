"""Host counters read straight from Linux's /proc, through file descriptors kept open.

psutil opens, reads and closes a file for each counter; every one of those system calls hands the
GIL back to the user's thread and the sampler must then wait to get it again. One ``pread`` on an
open descriptor per counter per tick costs the user's code about three times fewer switches
(``benchmarks/overhead.py``). Reading at offset 0 makes the kernel produce fresh contents each time.
"""

from __future__ import annotations

import errno
import os
import time
from typing import Any

FILES = {"stat": "/proc/stat", "meminfo": "/proc/meminfo", "statm": "/proc/self/statm", "io": "/proc/self/io"}
_PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096
_CLOCK_TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def pread_keeping_gil(fd: int, size: int = 1 << 14) -> bytes:
    """``os.pread`` without handing the GIL back: for a file read beside the lines the sampler just
    saw, so that the user's thread cannot move on between the two (``os.pread`` lets it run until
    the sampler gets the GIL back, a switch interval later). libc's own ``pread`` through ctypes,
    falling back to ``os.pread`` where there is none."""
    call = _held_pread()
    if call is None:
        return os.pread(fd, size, 0)
    import ctypes

    buf = _BUFFERS.get(size)
    if buf is None:
        buf = _BUFFERS[size] = ctypes.create_string_buffer(size)
    got = call(fd, buf, size, 0)
    if got < 0:
        err = ctypes.get_errno()
        raise OSError(err, os.strerror(err))
    return ctypes.string_at(buf, got)


_BUFFERS: dict[int, Any] = {}  # one per size; every caller holds the GIL throughout
_PREAD: Any = None  # libc's pread once looked up; False where there is none


def _held_pread() -> Any:
    global _PREAD
    if _PREAD is None:
        _PREAD = False
        try:
            import ctypes

            call = ctypes.PyDLL(None, use_errno=True).pread  # PyDLL: the GIL is kept during the call
            call.restype = ctypes.c_ssize_t
            call.argtypes = (ctypes.c_int, ctypes.c_void_p, ctypes.c_size_t, ctypes.c_long)
            _PREAD = call
        except (ImportError, OSError, AttributeError):
            pass
    return _PREAD or None


class TaskFiles:
    """One file of each thread of this process (``/proc/self/task/<tid>/<name>``), kept open from one
    reading to the next (read at the start and end of every cell: opening them again each time was
    most of the cost) and closed once its thread is gone. ``parse`` turns a file's bytes into its
    value (raising ValueError or IndexError on what is not such a file).

    A kept descriptor is closed only while it still is that thread's file: a cell that closed it may
    have been given the same number for a file of its own since. After ``os.fork`` the descriptors
    inherited read the parent's threads: the child opens its own."""

    def __init__(self, name: str, parse: Any, size: int = 256) -> None:
        self.name, self._parse, self._size = name, parse, size
        self.fds: dict[str, int] = {}
        self._pid = 0

    def read(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        try:
            tids = os.listdir("/proc/self/task")
        except OSError:
            return out
        if self._pid != os.getpid():
            for fd in self.fds.values():
                _close(fd)
            self.fds.clear()
            self._pid = os.getpid()
        for gone in set(self.fds) - set(tids):
            self._close_ours(self.fds.pop(gone), gone)
        for tid in tids:
            value = self._read(tid)
            if value is None and tid in self.fds:  # a file of an ended thread whose id was used again
                value = self._read(tid)
            if value is not None:
                out[tid] = value
        return out

    def _read(self, tid: str) -> Any:
        fd = self.fds.get(tid)
        try:
            if fd is None:
                fd = self.fds[tid] = os.open(f"/proc/self/task/{tid}/{self.name}", os.O_RDONLY)
            return self._parse(os.pread(fd, self._size, 0))
        except OSError as exc:
            self.fds.pop(tid, None)
            if exc.errno == errno.ESRCH and fd is not None:
                self._close_ours(fd, tid)  # its thread ended
            return None
        except (ValueError, IndexError):  # not that file (the user closed ours and reused the number)
            self.fds.pop(tid, None)
            return None

    def _close_ours(self, fd: int, tid: str) -> None:
        try:
            if os.readlink(f"/proc/self/fd/{fd}").endswith(f"/task/{tid}/{self.name}"):
                os.close(fd)
        except OSError:
            pass


def _close(fd: int) -> None:
    try:
        os.close(fd)
    except OSError:
        pass


def available() -> bool:
    """Linux's /proc with every file read here (looked up once: a probe is made for every cell)."""
    if _AVAILABLE[0] is None:
        _AVAILABLE[0] = all(os.path.exists(path) for path in FILES.values())
    return bool(_AVAILABLE[0])


_AVAILABLE: list[bool | None] = [None]


class ProcfsCounters:
    """The same counters as ``PsutilCounters``, for Linux."""

    def __init__(self) -> None:
        self._fds: dict[str, int] = {}
        self._last_cores: list[tuple[int, int]] | None = None
        self._last_stat: tuple[float, bytes] | None = None

    def _read(self, name: str) -> bytes:
        fd = self._fds.get(name)
        if fd is None:
            fd = self._fds[name] = os.open(FILES[name], os.O_RDONLY)
        return os.pread(fd, 1 << 16, 0)

    def _stat(self, reuse_s: float = 0.0) -> bytes:
        """/proc/stat, or the copy read less than ``reuse_s`` ago (the machine's total, read at the
        start and end of the cell, beside the per-core reading of that same moment)."""
        now = time.perf_counter()
        if self._last_stat is None or now - self._last_stat[0] > reuse_s:
            self._last_stat = (now, self._read("stat"))
        return self._last_stat[1]

    def cpu_per_core(self) -> list[float]:
        """Busy percent of each core since the previous call (the first call primes: zeros)."""
        cores = []
        for line in self._stat().split(b"\n")[1:]:
            if not line.startswith(b"cpu"):
                break
            fields = [int(v) for v in line.split()[1:]]
            total = sum(fields[:8])  # user nice system idle iowait irq softirq steal (guest is inside user)
            idle = fields[3] + (fields[4] if len(fields) > 4 else 0)
            cores.append((total, total - idle))
        last, self._last_cores = self._last_cores, cores
        if last is None or len(last) != len(cores):
            return [0.0] * len(cores)
        out = []
        for (total, busy), (total0, busy0) in zip(cores, last, strict=True):
            span = total - total0
            out.append(round(100.0 * (busy - busy0) / span, 1) if span > 0 else 0.0)
        return out

    def machine_busy_s(self) -> float:
        """CPU seconds all cores of the machine have been busy since boot, every process together."""
        fields = [int(v) for v in self._stat(reuse_s=0.001).split(b"\n", 1)[0].split()[1:9]]
        idle = fields[3] + (fields[4] if len(fields) > 4 else 0)
        return (sum(fields) - idle) / _CLOCK_TICKS

    def steal_s(self) -> float:
        """CPU seconds the hypervisor ran other machines while this one's CPUs had work (``steal``,
        every core together): time this machine's threads were ready and no clock of theirs counts."""
        fields = self._stat(reuse_s=0.001).split(b"\n", 1)[0].split()[1:9]
        return int(fields[7]) / _CLOCK_TICKS if len(fields) > 7 else 0.0

    def rss(self) -> int:
        return int(self._read("statm").split()[1]) * _PAGE

    def memory(self) -> tuple[int | None, int | None]:
        """(available bytes, swap used bytes)."""
        fields: dict[bytes, int] = {}
        for line in self._read("meminfo").split(b"\n"):
            key, _, rest = line.partition(b":")
            if key in (b"MemAvailable", b"SwapTotal", b"SwapFree"):
                fields[key] = int(rest.split()[0]) * 1024
        swap = None
        if b"SwapTotal" in fields and b"SwapFree" in fields:
            swap = fields[b"SwapTotal"] - fields[b"SwapFree"]
        return fields.get(b"MemAvailable"), swap

    def io(self) -> tuple[int | None, int | None]:
        """(bytes read, bytes written) by this process from storage."""
        values: dict[bytes, int] = {}
        for line in self._read("io").split(b"\n"):
            key, _, rest = line.partition(b":")
            if key in (b"read_bytes", b"write_bytes"):
                values[key] = int(rest)
        return values.get(b"read_bytes"), values.get(b"write_bytes")

    def close(self) -> None:
        for fd in self._fds.values():
            try:
                os.close(fd)
            except OSError:
                pass
        self._fds.clear()
