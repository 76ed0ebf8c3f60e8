"""Host counters: CPU per core and for the process, memory, swap, disk I/O.

On Linux they are read from /proc directly (``procfs.py``, cheaper for the user's thread); elsewhere,
or when a psutil module is injected (tests), through psutil.
"""

from __future__ import annotations

import os
import threading
import time
from typing import Any

from . import procfs


class PsutilCounters:
    """Counters through psutil (any platform)."""

    def __init__(self, psutil_module: Any, process: Any = None) -> None:
        self._psutil = psutil_module
        self._process = process if process is not None else psutil_module.Process()
        self._times: Any = None  # the machine's CPU times of the last total read

    def cpu_per_core(self) -> list[float]:
        return list(self._psutil.cpu_percent(percpu=True))

    def machine_busy_s(self) -> float:
        times = self._times = self._psutil.cpu_times()
        return float(sum(times) - times.idle - getattr(times, "iowait", 0.0))

    def steal_s(self) -> float:
        """Read with the machine's total just before (the same moment), else now."""
        times, self._times = self._times or self._psutil.cpu_times(), None
        return float(getattr(times, "steal", 0.0))

    def rss(self) -> int:
        return int(self._process.memory_info().rss)

    def memory(self) -> tuple[int | None, int | None]:
        return self._psutil.virtual_memory().available, self._psutil.swap_memory().used

    def io(self) -> tuple[int | None, int | None]:
        io = self._process.io_counters()
        return io.read_bytes, io.write_bytes

    def close(self) -> None:
        pass


class HostProbe:
    """Reads the host and this process once per tick.

    Each counter is switched off on its first failure (e.g. ``AccessDenied`` for I/O counters in a
    locked-down container) with a note, so one missing counter never costs the others.

    The machine's available memory and swap, and the process's disk I/O, are read at most every
    ``slow_period_s`` and repeated in between (their /proc files cost the most to produce and move
    slowly); the last row of the cell always gets a fresh reading (``stop``), so what the cell read
    and wrote, and the memory left at its end, are never stale.
    """

    def __init__(self, process: Any = None, psutil_module: Any = None, *, slow_period_s: float = 0.1,
                 clock: Any = time.perf_counter) -> None:
        if psutil_module is None and process is None and procfs.available():
            self._counters: Any = procfs.ProcfsCounters()
        else:
            self._counters = PsutilCounters(psutil_module or _psutil(), process)
        self.notes: list[str] = []
        self._off: set[str] = set()
        self._last_cpu: tuple[float, float] | None = None
        self._machine0: float | None = None
        # CPU seconds the whole machine (every process) used over the cell, and its logical CPUs
        self.machine_cpu_s: float | None = None
        self.steal_s: float | None = None  # of the cell's time, CPU seconds a hypervisor gave other machines
        self._steal0: float | None = None
        self.machine_cores: int | None = os.cpu_count()
        self._slow_period_s = slow_period_s
        self._clock = clock
        self._slow_at = -1e18  # when the slow counters were last read
        self._slow: dict[str, Any] = {}
        self._last_row: dict[str, Any] | None = None

    def start(self) -> None:
        # per-core busy time is measured since the previous reading: prime it so the first tick counts
        self._guard("cpu_per_core", self._counters.cpu_per_core)
        self.machine_cpu_s = None
        self._machine0 = self._guard("machine", self._counters.machine_busy_s)
        self.steal_s = None
        self._steal0 = self._guard("steal", getattr(self._counters, "steal_s", lambda: None))
        self._last_cpu = (time.perf_counter(), time.process_time())

    def sample(self, row: dict[str, Any]) -> None:
        c = self._counters
        row["cpu_percent"] = self._process_cpu_percent()
        row["cpu_per_core"] = self._guard("cpu_per_core", c.cpu_per_core)
        row["rss_bytes"] = self._guard("rss_bytes", c.rss)
        now = self._clock()
        fresh = now - self._slow_at >= self._slow_period_s
        if fresh:
            self._slow_at = now
            self._read_slow()
        row.update(self._slow)
        self._last_row = row if not fresh else None  # a row whose slow counters are older than it

    def _read_slow(self) -> None:
        c = self._counters
        slow = self._slow
        slow["mem_available_bytes"], slow["swap_used_bytes"] = self._guard("memory", c.memory) or (None, None)
        slow["read_bytes"], slow["write_bytes"] = self._guard("io", c.io) or (None, None)

    def stop(self) -> None:
        row, self._last_row = self._last_row, None
        if row is not None:
            self._read_slow()  # the cell's last row: its end, not up to slow_period_s before
            row.update(self._slow)
        self._slow_at = -1e18
        if self._machine0 is not None:
            machine1 = self._guard("machine", self._counters.machine_busy_s)
            if machine1 is not None:
                self.machine_cpu_s = max(0.0, machine1 - self._machine0)
        if self._steal0 is not None:
            steal1 = self._guard("steal", getattr(self._counters, "steal_s", lambda: None))
            if steal1 is not None:
                self.steal_s = max(0.0, steal1 - self._steal0)
        self._counters.close()

    def _process_cpu_percent(self) -> float | None:
        """All threads of this process, 100 = one core busy, since the previous tick."""
        # process_time is CLOCK_PROCESS_CPUTIME_ID: every thread, nanosecond resolution, no file read
        now, cpu = time.perf_counter(), time.process_time()
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


def children_cpu_s(psutil_module: Any = None) -> float | None:
    """CPU seconds of this process's descendants: the live ones (worker pools, subprocesses) and
    those already waited for. Read before and after a cell, the difference is the CPU its worker
    processes spent, which counts as the cell's own."""
    reaped = os.times()
    try:
        if psutil_module is None and os.path.exists(f"/proc/self/task/{threading.get_native_id()}/children"):
            live = sum(_proc_cpu_s(pid) for pid in _proc_descendants(os.getpid()))
        else:
            live = _psutil_children_cpu_s(psutil_module or _psutil())
    except Exception:
        return None
    return live + reaped.children_user + reaped.children_system


def _proc_descendants(pid: int) -> list[int]:
    """Linux lists each thread's children in /proc: a few small reads, not a scan of every process.
    This process's own threads' lists stay open between readings (:class:`.procfs.TaskFiles`)."""
    found: list[int] = []
    todo = [pid]
    if pid == os.getpid():
        for kids in _CHILDREN.read().values():
            found.extend(kids)
            todo.extend(kids)
        todo.remove(pid)
    while todo:
        parent = todo.pop()
        try:
            tasks = os.listdir(f"/proc/{parent}/task")
        except OSError:
            continue
        for tid in tasks:
            try:
                with open(f"/proc/{parent}/task/{tid}/children", "rb") as fh:
                    kids = [int(x) for x in fh.read().split()]
            except (OSError, ValueError):
                continue
            found.extend(kids)
            todo.extend(kids)
    return found


def _proc_cpu_s(pid: int) -> float:
    """utime + stime of ``pid`` and of the children it has waited for (a forkserver's workers)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as fh:
            data = fh.read()
    except OSError:
        return 0.0  # it ended meanwhile; once waited for, os.times counts it
    fields = data[data.rindex(b")") + 2 :].split()  # fields from the 3rd on (state)
    return sum(int(v) for v in fields[11:15]) / _CLOCK_TICKS


def _psutil_children_cpu_s(ps: Any) -> float:
    total = 0.0
    for child in ps.Process().children(recursive=True):
        try:
            times = child.cpu_times()
        except Exception:  # it ended meanwhile; once waited for, os.times counts it
            continue
        # a live child's own reaped children (a forkserver's workers) count through it
        total += times.user + times.system + times.children_user + times.children_system
    return float(total)


_CLOCK_TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def _pids(data: bytes) -> list[int]:
    return [int(x) for x in data.split()]


_CHILDREN = procfs.TaskFiles("children", _pids, size=1 << 16)


def _psutil() -> Any:
    import psutil

    return psutil


_LABELS = {
    "cpu_per_core": "CPU per core",
    "rss_bytes": "process memory (RSS)",
    "memory": "available memory and swap",
    "io": "disk I/O counters",
    "machine": "the machine's CPU time",
    "steal": "the hypervisor's steal time",
}
