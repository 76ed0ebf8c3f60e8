"""Host counters through psutil: CPU per core and for the process, memory, swap, disk I/O."""

from __future__ import annotations

import os
import time
from typing import Any

_MEMINFO = "/proc/meminfo"


class HostProbe:
    """Reads the host and this process once per tick.

    Each counter is switched off on its first failure (e.g. ``AccessDenied`` for I/O counters in a
    locked-down container) with a note, so one missing counter never costs the others.
    """

    def __init__(self, process: Any = None, psutil_module: Any = None) -> None:
        if psutil_module is None:
            psutil_module = _default_psutil()
        self._psutil = psutil_module
        self._process = process if process is not None else psutil_module.Process()
        self.notes: list[str] = []
        self._off: set[str] = set()
        self._last_cpu: tuple[float, float] | None = None
        # On Linux one read of /proc/meminfo gives available memory and swap (cheaper than psutil's two calls).
        self._meminfo = os.path.exists(_MEMINFO) and psutil_module is _default_psutil()

    def start(self) -> None:
        # cpu_percent measures since the previous call: prime both so the first tick is meaningful.
        self._guard("cpu_per_core", lambda: self._psutil.cpu_percent(percpu=True))
        self._last_cpu = (time.perf_counter(), _own_cpu_seconds())

    def sample(self, row: dict[str, Any]) -> None:
        p = self._psutil
        proc = self._process
        row["cpu_percent"] = self._process_cpu_percent()
        row["cpu_per_core"] = self._guard("cpu_per_core", lambda: p.cpu_percent(percpu=True))
        row["rss_bytes"] = self._guard("rss_bytes", lambda: proc.memory_info().rss)
        if self._meminfo:
            available, swap_used = _read_meminfo()
            row["mem_available_bytes"], row["swap_used_bytes"] = available, swap_used
        else:
            row["mem_available_bytes"] = self._guard("mem_available_bytes", lambda: p.virtual_memory().available)
            row["swap_used_bytes"] = self._guard("swap_used_bytes", lambda: p.swap_memory().used)
        io = self._guard("io", proc.io_counters)
        row["read_bytes"] = getattr(io, "read_bytes", None)
        row["write_bytes"] = getattr(io, "write_bytes", None)

    def stop(self) -> None:
        pass

    def _process_cpu_percent(self) -> float | None:
        """All threads of this process, 100 = one core busy, since the previous tick."""
        now, cpu = time.perf_counter(), _own_cpu_seconds()
        last, self._last_cpu = self._last_cpu, (now, cpu)
        if last is None or now <= last[0]:
            return None
        return max(0.0, 100.0 * (cpu - last[1]) / (now - last[0]))

    def _guard(self, name: str, read: Any) -> Any:
        if name in self._off:
            return None
        try:
            return read()
        except Exception as exc:  # psutil.AccessDenied, NoSuchProcess, NotImplementedError, OSError
            self._off.add(name)
            self.notes.append(f"{_LABELS.get(name, name)} not sampled: {type(exc).__name__}: {exc}".rstrip(": "))
            return None


_LABELS = {
    "cpu_percent": "process CPU",
    "cpu_per_core": "CPU per core",
    "rss_bytes": "process memory (RSS)",
    "mem_available_bytes": "available memory",
    "swap_used_bytes": "swap",
    "io": "disk I/O counters",
}


def _own_cpu_seconds() -> float:
    # CLOCK_PROCESS_CPUTIME_ID: every thread of the process, nanosecond resolution (os.times ticks at 10 ms).
    return time.process_time()


def _default_psutil() -> Any:
    import psutil

    return psutil


def _read_meminfo() -> tuple[int | None, int | None]:
    fields: dict[bytes, int] = {}
    with open(_MEMINFO, "rb") as fh:
        for line in fh:
            key, _, rest = line.partition(b":")
            if key in (b"MemAvailable", b"SwapTotal", b"SwapFree"):
                fields[key] = int(rest.split()[0]) * 1024
    swap = None
    if b"SwapTotal" in fields and b"SwapFree" in fields:
        swap = fields[b"SwapTotal"] - fields[b"SwapFree"]
    return fields.get(b"MemAvailable"), swap
