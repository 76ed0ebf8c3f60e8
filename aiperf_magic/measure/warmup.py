"""Loading the analysis before the first ``%%aiperf``, in a background thread started by the extension.

The first measured cell of a kernel used to pay for importing the analysis (libcst, the rules, the
verdicts, the probes' libraries: 0.2-0.4 s). ``%load_ext`` starts this thread and returns at once;
the imports run while the kernel waits for the user. A ``%%aiperf`` cell that starts before they are
done waits for them (:func:`wait`, before its clocks start, so the measurement is never shared with
the imports) instead of importing the same modules from a second thread. A failure here is silent:
the first cell then imports for itself and reports whatever fails, as it always did.
"""

from __future__ import annotations

import importlib
import threading
import time
from collections.abc import Callable

from .probes.base import THREAD_PREFIX

_lock = threading.Lock()
_thread: threading.Thread | None = None
_seconds: float | None = None  # how long the warm-up took, once done
# what the probes load on their first reading, when installed (the host's counters, NVML), and what
# the sampler loads when a line first gets hot (reading its names)
_OPTIONAL = ("psutil", "pynvml", "aiperf_magic.measure.probes.gpu", "aiperf_magic.measure.linelook")


def start(*steps: Callable[[], object]) -> bool:
    """Start the warm-up once per process: the probes' libraries, then each of ``steps`` (the
    extension passes :func:`.stages.stage_classes` and what showing a report loads); True when this
    call started it."""
    global _thread
    with _lock:
        if _thread is not None:
            return False
        _thread = threading.Thread(target=_run, args=steps, name=THREAD_PREFIX + "warm-up", daemon=True)
        _thread.start()
        return True


def wait(timeout: float | None = None) -> float:
    """Block until the warm-up is done (if one runs); the seconds waited."""
    thread = _thread
    if thread is None or thread is threading.current_thread() or not thread.is_alive():
        return 0.0
    t0 = time.perf_counter()
    thread.join(timeout)
    return time.perf_counter() - t0


def seconds() -> float | None:
    """How long the warm-up took (None: not started or not done)."""
    return _seconds


def _run(*steps: Callable[[], object]) -> None:
    global _seconds
    t0 = time.perf_counter()
    try:
        for name in _OPTIONAL:
            try:
                importlib.import_module(name)
            except ImportError:
                pass
        for step in steps:
            step()
    except BaseException:  # the first cell imports again and reports the failure itself
        pass
    _seconds = time.perf_counter() - t0
