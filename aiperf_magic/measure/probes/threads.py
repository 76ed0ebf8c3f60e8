"""Busy Python threads per tick: the evidence behind the GIL-bound verdict (AIP902).

A thread counts as busy when it spent CPU time since the previous tick. Threads parked in a wait
(``join``, ``Event.wait``, a socket read, waiting for the GIL) use no CPU time, so they do not
count, whatever their stack looks like. On Linux each thread's CPU clock is read with one
``clock_gettime`` call (a few microseconds per thread); elsewhere psutil's per-thread times are
used, which are coarser.
"""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Callable, Iterable
from typing import Any

from .base import THREAD_PREFIX  # aiperf's own threads are never the user's work
from .procfs import TaskFiles

# A thread is busy when it used at least this share of the elapsed interval. Under the GIL four
# spinning threads get about a quarter each, so the bar must stay well below 1/N; a parked thread
# uses none at all. The floor absorbs clock granularity on platforms with tick-based counters.
MIN_BUSY_SHARE = 0.02
MIN_BUSY_CPU_S = 0.0002

ThreadCpuReader = Callable[[int], "float | None"]


def _linux_thread_cpu(native_id: int) -> float | None:
    """CPU seconds of one thread of this process, from its kernel CPU clock.

    The clock id encodes the thread id the way glibc's ``pthread_getcpuclockid`` does
    (``MAKE_THREAD_CPUCLOCK(tid, CPUCLOCK_SCHED)``); unlike that call it cannot touch a thread that
    has already exited: the kernel answers EINVAL instead.
    """
    try:
        return time.clock_gettime((~native_id << 3) | 6)
    except OSError:
        return None


def _psutil_reader() -> ThreadCpuReader | None:
    try:
        import psutil
    except ImportError:
        return None
    proc = psutil.Process()
    cache: dict[int, float] = {}
    stamp = [0.0]

    def read(native_id: int) -> float | None:
        # one threads() call per tick, shared by all the lookups of that tick
        now = time.monotonic()
        if now - stamp[0] > 0.001:
            cache.clear()
            cache.update({t.id: t.user_time + t.system_time for t in proc.threads()})
            stamp[0] = now
        return cache.get(native_id)

    return read


def run_delays() -> dict[str, float]:
    """Seconds each thread of this process has spent ready to run but waiting for a CPU.

    Linux's ``/proc/self/task/<tid>/schedstat`` (second field, ns), each file kept open between
    readings (:class:`.procfs.TaskFiles`). Empty where it is missing.
    """
    return _SCHEDSTAT.read()


def _delay(data: bytes) -> float:
    return int(data.split()[1]) / 1e9


_SCHEDSTAT = TaskFiles("schedstat", _delay)


def default_reader() -> ThreadCpuReader | None:
    if sys.platform.startswith("linux"):
        return _linux_thread_cpu
    return _psutil_reader()


class ThreadProbe:
    """Fills ``busy_threads``: Python threads (the sampler excluded) that ran since the last tick."""

    name = "threads"

    def __init__(
        self,
        *,
        reader: ThreadCpuReader | None = None,
        threads: Callable[[], Iterable[threading.Thread]] = threading.enumerate,
        clock: Callable[[], float] = time.perf_counter,
    ) -> None:
        self.notes: list[str] = []
        self._reader = reader
        self._threads = threads
        self._clock = clock
        self._last_cpu: dict[int, float] = {}
        self._last_t: float | None = None
        self._enabled = True
        self._delays0: dict[str, float] = {}
        # time the process's threads were runnable but waited for a CPU (other processes had it)
        self.cpu_wait_s: float | None = None
        # each thread over the cell (aiperf's own left out), by native id: its name, the CPU it used
        # and whether it started during the cell; its wait for a CPU (Linux only)
        self.thread_cpu: dict[int, tuple[str, float, bool]] = {}
        self.thread_wait: dict[int, float] = {}
        self._cpu0: dict[int, float] = {}
        self._seen: dict[int, tuple[str, float]] = {}  # the last reading of every thread met

    def start(self) -> None:
        self.cpu_wait_s = None
        self.thread_cpu, self.thread_wait, self._seen = {}, {}, {}
        self._delays0 = run_delays()
        if self._reader is None:
            self._reader = default_reader()
        if self._reader is None:
            self._enabled = False
            self.notes.append("busy-thread count unavailable on this platform (needs Linux or psutil)")
            return
        self._last_cpu = {}
        self._last_t = None
        self._enabled = True
        try:
            self._count()  # prime the counters so that the first tick already has a value
            self._cpu0 = self._read_all(skip_caller=False)  # the caller (the cell's thread) too
        except Exception as exc:
            self._enabled = False
            self.notes.append(f"busy-thread count unavailable: {type(exc).__name__}: {exc}")

    def sample(self, row: dict[str, Any]) -> None:
        if not self._enabled or self._reader is None:
            return
        try:
            row["busy_threads"] = self._count()
        except Exception as exc:  # a probe never raises out of sample
            self._enabled = False
            self.notes.append(f"busy-thread count stopped: {type(exc).__name__}: {exc}")

    def stop(self) -> None:
        if self._enabled and self._reader is not None:
            try:
                self._read_all(skip_caller=False)  # the last reading of every thread still alive
            except Exception:
                pass
        self.thread_cpu = {
            tid: (name, max(0.0, cpu - self._cpu0.get(tid, 0.0)), tid not in self._cpu0)
            for tid, (name, cpu) in self._seen.items()
        }
        self._last_cpu = {}
        delays = run_delays()
        if delays:
            # threads that ended during the cell took their waiting time with them: a lower bound
            waits = {tid: max(0.0, v - self._delays0.get(tid, 0.0)) for tid, v in delays.items()}
            self.cpu_wait_s = sum(waits.values())
            self.thread_wait = {int(tid): v for tid, v in waits.items() if tid.isdigit()}

    def _read_all(self, skip_caller: bool) -> dict[int, float]:
        """CPU seconds of every thread (aiperf's own left out), by native id."""
        assert self._reader is not None
        me = threading.get_native_id() if skip_caller else None
        cpu: dict[int, float] = {}
        for thread in self._threads():
            tid = thread.native_id
            if tid is None or tid == me or thread.name.startswith(THREAD_PREFIX):
                continue
            value = self._reader(tid)
            if value is not None:
                cpu[tid] = value
                self._seen[tid] = (thread.name, value)
        return cpu

    def _count(self) -> int | None:
        now = self._clock()
        cpu = self._read_all(skip_caller=True)  # the sampler thread itself is always busy: leave it out
        previous, last_t = self._last_cpu, self._last_t
        self._last_cpu, self._last_t = cpu, now
        if last_t is None:
            return None  # the first tick only primes the counters
        bar = max(MIN_BUSY_CPU_S, MIN_BUSY_SHARE * (now - last_t))
        # a thread born since the last tick is compared with zero: it ran for all it has used
        return sum(1 for tid, value in cpu.items() if value - previous.get(tid, 0.0) >= bar)
