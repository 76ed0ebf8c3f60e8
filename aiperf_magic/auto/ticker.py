"""One sampling thread for the whole auto session, instead of one per cell.

Starting and joining a thread per cell makes the kernel wait for the OS to schedule that thread
twice; on a busy machine that wait, not the sampling, was most of auto mode's cost on small cells.
The ticker thread is started by ``%aiperf auto on`` and joined by ``off``: in between, each cell's
:class:`TickedSampler` is ticked by it every interval, and handing a sampler over is a lock.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

from ..measure.sampler import THREAD_PREFIX, Sampler


class Ticker:
    """Ticks the sampler of the cell now running; idle (one wake-up per interval) between cells."""

    def __init__(self, interval_s: float, clock: Callable[[], float] = time.perf_counter) -> None:
        self.interval_s = interval_s
        self.clock = clock
        self._cond = threading.Condition()
        self._current: Sampler | None = None
        self._due = 0.0
        self._closed = False
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        if self._thread is None:
            self._closed = False
            self._thread = threading.Thread(target=self._loop, name=THREAD_PREFIX + "auto", daemon=True)
            self._thread.start()

    def close(self) -> None:
        with self._cond:
            self._closed = True
            self._current = None
            self._cond.notify()
        if self._thread is not None:
            self._thread.join()
            self._thread = None

    def watch(self, sampler: Sampler) -> None:
        # No notify: waking the thread now would make the cell wait for it to be scheduled.
        with self._cond:
            self._current = sampler
            self._due = self.clock() + self.interval_s

    def unwatch(self, sampler: Sampler) -> None:
        """After this returns no tick of ``sampler`` is running or will run."""
        with self._cond:
            if self._current is sampler:
                self._current = None

    def _loop(self) -> None:
        with self._cond:
            while not self._closed:
                sampler = self._current
                if sampler is None:
                    self._cond.wait(self.interval_s)
                    continue
                # The cell may have started in the middle of an idle wait: sleep until its tick is due.
                wait = self._due - self.clock()
                if wait > 0:
                    self._cond.wait(wait)
                    continue
                try:
                    sampler.tick()
                except Exception:  # ticks guard their probes; never let the thread die mid-session
                    self._current = None
                # Fell behind (the GIL was held by C code)? Skip the missed ticks rather than burst.
                self._due = max(self._due + self.interval_s, self.clock())


class TickedSampler(Sampler):
    """A :class:`Sampler` whose ticks come from the session's :class:`Ticker`."""

    def __init__(self, ticker: Ticker, probes: list[Any], **kwargs: Any) -> None:
        # no dense start: the session's ticker ticks every interval, whatever the sampler asks
        super().__init__(probes, interval_s=ticker.interval_s, clock=ticker.clock, **{"dense_s": 0.0, **kwargs})
        self._ticker = ticker

    def start(self, *, thread: bool = True) -> None:
        super().start(thread=False)
        self._ticker.watch(self)

    def stop(self) -> Any:
        self._ticker.unwatch(self)
        return super().stop()
