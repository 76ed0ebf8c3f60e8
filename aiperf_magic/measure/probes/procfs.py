"""Host counters read straight from Linux's /proc, through file descriptors kept open.

psutil opens, reads and closes a file for each counter; every one of those system calls hands the
GIL back to the user's thread and the sampler must then wait to get it again. One ``pread`` on an
open descriptor per counter per tick costs the user's code about three times fewer switches
(``benchmarks/overhead.py``). Reading at offset 0 makes the kernel produce fresh contents each time.
"""

from __future__ import annotations

import os
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


def available() -> bool:
    return all(os.path.exists(path) for path in FILES.values())


class ProcfsCounters:
    """The same counters as ``PsutilCounters``, for Linux."""

    def __init__(self) -> None:
        self._fds: dict[str, int] = {}
        self._last_cores: list[tuple[int, int]] | None = None

    def _read(self, name: str) -> bytes:
        fd = self._fds.get(name)
        if fd is None:
            fd = self._fds[name] = os.open(FILES[name], os.O_RDONLY)
        return os.pread(fd, 1 << 16, 0)

    def cpu_per_core(self) -> list[float]:
        """Busy percent of each core since the previous call (the first call primes: zeros)."""
        cores = []
        for line in self._read("stat").split(b"\n")[1:]:
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
        fields = [int(v) for v in self._read("stat").split(b"\n", 1)[0].split()[1:9]]
        idle = fields[3] + (fields[4] if len(fields) > 4 else 0)
        return (sum(fields) - idle) / _CLOCK_TICKS

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
