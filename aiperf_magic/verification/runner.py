"""Run compiled cell code in a sandbox namespace, timed, with a deadline that never kills the kernel.

What the code prints to ``sys.stdout`` and ``sys.stderr`` is captured (bounded), never shown; its
exception and its displayed result are kept for the comparison (:mod:`.observed`).

On the main thread the deadline is a ``SIGALRM`` timer that raises :class:`RunTimeout` inside the
running code; elsewhere a watchdog thread raises it asynchronously in the running thread (it lands
at the next bytecode, so a single long C call finishes first). Wall time is CUDA-synchronised when
torch has initialised CUDA.
"""

from __future__ import annotations

import contextlib
import ctypes
import io
import signal
import sys
import threading
import time
import traceback
import tracemalloc
from dataclasses import dataclass, field
from types import CodeType
from typing import Any

from .observed import Capture, Observed, exception_text, take_display


class Discard(io.TextIOBase):
    """A text stream that swallows what is written (a trial process's own standard streams)."""

    def write(self, s: str) -> int:
        return len(s)

    def writable(self) -> bool:
        return True


class RunTimeout(BaseException):
    """Raised inside a run that passed its deadline (BaseException: ``except Exception`` won't eat it)."""


@dataclass
class RunResult:
    seconds: float
    error: str | None = None  # the traceback, when the code raised
    timed_out: bool = False
    peak_bytes: int | None = None
    observed: Observed = field(default_factory=Observed)  # printed output and the exception, for comparing
    cpu_wait_s: float | None = None  # time the running thread waited, runnable, for a CPU (Linux)
    cpu_s: float | None = None  # CPU time of the process (every thread) during the run


def run_queue_wait() -> float | None:
    """Seconds this thread has waited, runnable, for a CPU (Linux's schedstat); None elsewhere."""
    try:
        with open("/proc/thread-self/schedstat", "rb") as fh:
            return int(fh.read().split()[1]) / 1e9
    except (OSError, IndexError, ValueError):
        return None


def _cuda_sync() -> None:
    torch = sys.modules.get("torch")
    if torch is not None and torch.cuda.is_available() and torch.cuda.is_initialized():
        torch.cuda.synchronize()


def run(code: CodeType, ns: dict[str, Any], timeout_s: float | None, *, trace_memory: bool = False) -> RunResult:
    """Execute ``code`` in ``ns``; never raises for the code's own errors or for the deadline."""
    if trace_memory:
        tracemalloc.start()
        tracemalloc.reset_peak()
    _cuda_sync()
    wait0 = run_queue_wait()
    cpu0 = time.process_time()
    start = time.perf_counter()
    error, timed_out, raised = None, False, None
    # what the cells print is not the user's to read nine times over: it is kept (bounded) to compare, never shown
    out, err = Capture(), Capture()
    try:
        with _deadline(timeout_s), contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                exec(code, ns)
                _cuda_sync()
            except RunTimeout:
                timed_out = True
            except BaseException as exc:
                if isinstance(exc, KeyboardInterrupt):
                    raise
                tb = exc.__traceback__.tb_next if exc.__traceback__ else None  # drop this frame
                error = "".join(traceback.format_exception(type(exc), exc, tb))
                raised = exception_text(exc)
    except RunTimeout:  # the deadline fired just as the run ended, before it could be disarmed
        timed_out = True
    seconds = time.perf_counter() - start
    cpu_s = time.process_time() - cpu0
    wait1 = run_queue_wait()
    take_display(ns)
    peak = None
    if trace_memory:
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
    waited = wait1 - wait0 if wait0 is not None and wait1 is not None else None
    return RunResult(seconds, error, timed_out, peak, Observed(out.printed(), err.printed(), raised), waited, cpu_s)


class _deadline:
    def __init__(self, timeout_s: float | None) -> None:
        self.timeout_s = timeout_s
        self.previous: Any = None
        self.watchdog: threading.Timer | None = None
        self.tid = 0
        self.main = threading.current_thread() is threading.main_thread() and hasattr(signal, "setitimer")

    def __enter__(self) -> None:
        if not self.timeout_s:
            return
        if self.main:
            self.previous = signal.signal(signal.SIGALRM, _raise_timeout)
            signal.setitimer(signal.ITIMER_REAL, self.timeout_s)
        else:
            self.tid = threading.get_ident()
            self.watchdog = threading.Timer(self.timeout_s, _inject, args=(self.tid,))
            self.watchdog.daemon = True
            self.watchdog.start()

    def __exit__(self, *exc: object) -> None:
        if not self.timeout_s:
            return
        if self.main:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, self.previous if self.previous is not None else signal.SIG_DFL)
        elif self.watchdog is not None:
            self.watchdog.cancel()
            self.watchdog.join()
            # the run may have ended just as the watchdog fired: drop a timeout not yet delivered
            ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(self.tid), None)


def _raise_timeout(signum: int, frame: Any) -> None:
    raise RunTimeout()


def _inject(tid: int) -> None:
    ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(tid), ctypes.py_object(RunTimeout))
