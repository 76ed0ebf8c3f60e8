"""One sampling thread for every ``%%aiperf`` cell of the kernel, parked between cells.

Starting a thread for each cell and joining it afterwards makes the cell wait twice for the system
to schedule that thread (about a quarter of a millisecond each on a busy machine, the GIL handed over
both times). The shared thread is started by the first measured cell; it then ticks each cell's
sampler in turn, and between cells it waits on a condition without a timeout: parked, it wakes for
nothing, takes no GIL and reads nothing of the user's. ``%unload_ext`` joins it.

``serve`` hands a sampler over (False when the thread already serves another one: that sampler then
runs a thread of its own); ``release`` returns only once no tick of that sampler runs or will run.
A sampler whose stop was flagged is never ticked again, even if ``release`` itself was interrupted
(Ctrl-C while waiting for the tick in progress). After ``os.fork`` the child starts a thread of its
own on its first cell.
"""

from __future__ import annotations

import os
import threading
import time
from typing import TYPE_CHECKING

from .probes.base import THREAD_PREFIX

if TYPE_CHECKING:
    from .sampler import Sampler

NAME = THREAD_PREFIX + "sampler"


class SamplerThread:
    def __init__(self) -> None:
        self._cond = threading.Condition(threading.Lock())
        self._current: Sampler | None = None
        self._due = 0.0
        self._closed = False
        self._thread: threading.Thread | None = None
        self._pid = os.getpid()

    # -- the cell's side ---------------------------------------------------------------------------
    def serve(self, sampler: Sampler) -> bool:
        """Tick ``sampler`` every ``sampler.period`` from now on; False when busy with another."""
        self._after_fork()
        with self._cond:
            if self._current is not None and self._current is not sampler:
                return False
            self._closed = False
            self._current = sampler
            self._due = sampler.clock() + sampler.period
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(target=self._loop, name=NAME, daemon=True)
                self._thread.start()
            else:
                self._cond.notify()  # it is parked without a timeout
        return True

    def release(self, sampler: Sampler) -> None:
        """After this returns, no tick of ``sampler`` is running or will run."""
        with self._cond:  # a tick holds the lock: this waits for the one in progress
            if self._current is sampler:
                self._current = None

    def close(self) -> None:
        """End the thread (the extension is unloaded); the next ``serve`` starts a new one."""
        with self._cond:
            self._closed = True
            self._current = None
            self._cond.notify()
            thread, self._thread = self._thread, None
        if thread is not None and thread is not threading.current_thread():
            thread.join()

    @property
    def serving(self) -> Sampler | None:
        return self._current

    def is_parked(self, thread: threading.Thread) -> bool:
        """``thread`` is this one's, serving no cell (not work left running)."""
        return thread is self._thread and self._current is None

    # -- the thread's side -------------------------------------------------------------------------
    def _loop(self) -> None:
        cond = self._cond
        with cond:
            while not self._closed:
                sampler = self._current
                if sampler is None:
                    cond.wait()  # parked: no timeout, woken by serve() or close()
                    continue
                if sampler.stop_requested:
                    self._current = None  # its stop was flagged; release() was interrupted
                    continue
                wait = self._due - sampler.clock()
                if wait > 0:
                    cond.wait(wait)
                    continue
                cpu0 = time.thread_time()
                try:
                    sampler.tick()
                except Exception:  # ticks guard their probes; the thread must outlive a broken one
                    self._current = None
                finally:
                    sampler.own_cpu_s += time.thread_time() - cpu0
                # fell behind (C code held the GIL)? skip the missed ticks rather than burst
                self._due = max(self._due + sampler.period, sampler.clock())

    def _after_fork(self) -> None:
        if self._pid != os.getpid():  # a forked child: the parent's thread and lock state are not ours
            self.__init__()  # type: ignore[misc]


_SHARED = SamplerThread()


def shared() -> SamplerThread:
    """The kernel's sampling thread (not started until a cell uses it)."""
    return _SHARED


def close_shared() -> None:
    _SHARED.close()
