"""The sampler: a background thread reads every probe once per tick.

The thread is the kernel's shared one when a ``SamplerThread`` is given (``%%aiperf`` cells: started
once, parked between cells, :mod:`.sampler_thread`), else one of the sampler's own.

A cell's first ``DENSE_FOR_S`` (0.2 s) is sampled every ``DENSE_S`` (5 ms) where the interval is
longer: a cell of 0.1 s would otherwise get five samples, too few for a verdict. Those extra ticks
read the lines and the cheap memory counters only (the allocator's, whose reading walks the heap,
keeps their lines for its next reading: :mod:`.memory_sampling`); the timeline's probes are read on
the interval's own grid, so its rows stay one interval apart. While the lines are sampled, the interpreter's switch
interval is shortened (:mod:`.gil_switch`), so that a tick due while Python code holds the GIL is
not taken at the next line that hands it back.

Memory stays bounded however long the cell runs: when ``capacity`` rows are kept, every other row is
dropped and from then on only every 2nd (4th, 8th...) tick is kept. Hotspot counts are aggregated per
line on every tick, so they lose nothing to downsampling. Time is injected (``clock``) so tests can
drive ``tick()`` by hand without a thread.
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable
from typing import Any

from ..report import GpuSeries, Samples
from .gil_switch import SwitchInterval
from .hotspots import LineSampler
from .memory_sampling import LineMemory
from .probes.base import THREAD_PREFIX, Probe
from .sampler_thread import SamplerThread, shared

# The sampling periods %%aiperf accepts: below half a millisecond the sampler's own reading costs
# more than the period; above ten seconds a cell gets too few readings to say anything.
MIN_INTERVAL_S = 0.0005
MAX_INTERVAL_S = 10.0
# The cell's start, sampled densely (see the module's docstring): cells of 0.1 to 0.2 s got 3 to 9
# samples at 20 ms; at 5 ms for their first 0.2 s they get 16 to 40.
DENSE_S = 0.005
DENSE_FOR_S = 0.2
# Each dense period is drawn between half and one and a half DENSE_S, so that a loop whose passes
# take about as long is not seen at the same point of each pass; drawn from a generator of aiperf's
# own (the user's random sequence must not move).
_JITTER = random.Random()

_SCALAR_COLUMNS = (
    "cpu_percent", "cpu_per_core", "rss_bytes", "mem_available_bytes", "swap_used_bytes",
    "read_bytes", "write_bytes", "busy_threads",
)
_GPU_COLUMNS = (
    "util_percent", "mem_used_bytes", "mem_total_bytes", "pcie_rx_bytes_s", "pcie_tx_bytes_s",
    "process_mem_bytes", "power_w",
)


class Sampler:
    def __init__(self, probes: list[Probe], *, interval_s: float = 0.02,
                 clock: Callable[[], float] = time.perf_counter, capacity: int = 3000,
                 lines: LineSampler | None = None, memory: LineMemory | None = None,
                 ticker: SamplerThread | None = None, dense_s: float | None = None,
                 dense_for_s: float | None = None, switch: SwitchInterval | None = None) -> None:
        # a period the thread cannot wait for (infinity, NaN, beyond TIMEOUT_MAX) would end in an
        # OverflowError inside the thread, after the cell started: refuse it here
        if not 0 < interval_s <= threading.TIMEOUT_MAX:
            raise ValueError(f"interval must be a positive number of seconds, not {interval_s}")
        self.probes = probes
        self.interval_s = interval_s
        self.clock = clock
        self.capacity = max(2, capacity)
        self.lines = lines
        self.memory = memory  # memory per line: its counters read after each tick's lines
        if memory is not None:
            memory.interval_s = interval_s
        # the start's denser period (None: DENSE_S; 0: none), where it is shorter than the interval
        dense = DENSE_S if dense_s is None else dense_s
        self.dense_s = dense if 0 < dense < interval_s else None
        self.dense_for_s = DENSE_FOR_S if dense_for_s is None else dense_for_s
        self.switch = switch if switch is not None else SwitchInterval()
        self.notes: list[str] = []
        self.own_cpu_s = 0.0  # CPU the sampler's thread used: aiperf's, not the cell's
        self._rows: list[dict[str, Any]] = []
        self._stride = 1
        self._ticks = 0
        self._t0 = 0.0
        self._last_tick = 0.0
        self._last_row = 0.0  # when the probes were last read into a row
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.shared_thread = ticker  # the kernel's thread to tick from, when it is free
        self._serving_ticker: SamplerThread | None = None  # the one ticking now

    # -- lifecycle ---------------------------------------------------------------------------------
    def start(self, *, thread: bool = True) -> None:
        """Start the probes and the ticks: from ``shared_thread`` (the kernel's) when it is free, else
        from a thread of this sampler's own; ``thread=False``: ticks only by hand (tests)."""
        for probe in self.probes:
            try:
                probe.start()
            except Exception as exc:  # a probe that cannot start is skipped, never fatal
                self.notes.append(f"{type(probe).__name__} off: {type(exc).__name__}: {exc}")
        if self.lines is not None:
            try:
                self.lines.start()
            except Exception as exc:
                self.lines = None
                self.notes.append(f"hotspots off: {type(exc).__name__}: {exc}")
        if self.memory is not None:
            self._guard_memory(self.memory.start)
        if self.lines is not None and self.lines.one_thread:
            self.switch.lower()
        self._t0 = self._last_tick = self._last_row = self.clock()
        if thread and self.shared_thread is not None and self.shared_thread.serve(self):
            self._serving_ticker = self.shared_thread
        elif thread:
            self._thread = threading.Thread(target=self._loop, name=THREAD_PREFIX + "sampler", daemon=True)
            self._thread.start()

    def stop(self) -> Samples:
        """Stop the thread, take one last reading and return the columns."""
        self.switch.restore()
        self._stop.set()
        if self._serving_ticker is not None:
            self._serving_ticker.release(self)
            self._serving_ticker = None
        if self._thread is not None:
            self._thread.join()
            self._thread = None
        if self._ticks == 0 or self.clock() - self._last_row > self.interval_s / 2:
            self.tick(row=True)  # a short cell still gets one reading of its end state
        memory = self.memory
        if memory is not None:
            self._guard_memory(memory.flush)  # a counter that skipped the last ticks reads the end
        for probe in self.probes:
            try:
                probe.stop()
            except Exception:
                pass
            self.notes.extend(n for n in getattr(probe, "notes", []) if n not in self.notes)
        if self.lines is not None:
            self.notes.extend(n for n in self.lines.notes if n not in self.notes)
        return self.samples()

    @property
    def running(self) -> bool:
        if self._serving_ticker is not None:
            return self._serving_ticker.serving is self
        return self._thread is not None and self._thread.is_alive()

    @property
    def period(self) -> float:
        """Seconds to the next tick: the dense period during the cell's start, else the interval."""
        if self.dense_s is not None and self.clock() - self._t0 < self.dense_for_s:
            return self.dense_s * (0.5 + _JITTER.random())
        return self.interval_s

    @property
    def stop_requested(self) -> bool:
        return self._stop.is_set()

    def _loop(self) -> None:
        cpu0 = time.thread_time()
        try:
            deadline = self.clock() + self.period
            while not self._stop.wait(max(0.0, deadline - self.clock())):
                self.tick()
                deadline += self.period
                now = self.clock()
                if deadline < now:  # we fell behind (GIL held by C code): skip, don't burst
                    deadline = now + self.period
        finally:
            self.own_cpu_s = time.thread_time() - cpu0

    # -- one reading -------------------------------------------------------------------------------
    def tick(self, *, row: bool = False) -> None:
        """Read the lines and memory counters; and the probes into a row of the timeline when an
        interval has passed since the last row (or ``row``)."""
        now = self.clock()
        dt, self._last_tick = now - self._last_tick, now
        period = self.dense_s if self.dense_s is not None and now - self._t0 < self.dense_for_s else self.interval_s
        lines = self.lines
        if lines is not None:
            try:
                lines.sample(dt, period)
            except Exception as exc:
                self.lines = lines = None
                self.notes.append(f"hotspots off: {type(exc).__name__}: {exc}")
            if lines is not None and not lines.one_thread:
                self.switch.restore()  # the cell started a thread: see .gil_switch
        # a tick of the cell's dense start between two rows: the lines and the cheap memory counters only
        between = not row and self.dense_s is not None and now - self._last_row < self.interval_s - self.dense_s / 2
        memory = self.memory
        if memory is not None:
            ticked = lines.tick_lines if lines is not None else ()
            moved = lines.moved if lines is not None else None
            self._guard_memory(lambda: memory.sample(ticked, light=between, moved=moved))
        if between:
            return
        self._last_row = now
        keep = self._ticks % self._stride == 0
        self._ticks += 1
        if not keep:
            return
        row: dict[str, Any] = {"t": now - self._t0}
        for probe in self.probes:
            try:
                probe.sample(row)
            except Exception as exc:  # probes guard themselves; this is the last line of defence
                self.notes.append(f"{type(probe).__name__} failed: {type(exc).__name__}: {exc}")
        self._rows.append(row)
        if len(self._rows) >= self.capacity:
            self._rows = self._rows[::2]
            self._stride *= 2

    def _guard_memory(self, step: Callable[[], None]) -> None:
        try:
            step()
        except Exception as exc:  # memory per line is extra: the timeline goes on without it
            self.memory = None
            self.notes.append(f"memory per line off: {type(exc).__name__}: {exc}")

    def samples(self) -> Samples:
        rows = list(self._rows)
        out = Samples(interval_s=self.interval_s, downsampled=self._stride)
        out.t = [r["t"] for r in rows]
        for name in _SCALAR_COLUMNS:
            setattr(out, name, [r.get(name) for r in rows])
        n_gpus = max((len(r.get("gpus") or ()) for r in rows), default=0)
        for index in range(n_gpus):
            series = GpuSeries(index=index)
            for name in _GPU_COLUMNS:
                setattr(series, name, [_gpu_value(r, index, name) for r in rows])
            out.gpus.append(series)
        return out


def _gpu_value(row: dict[str, Any], index: int, name: str) -> Any:
    gpus = row.get("gpus") or ()
    return gpus[index].get(name) if index < len(gpus) else None


def live_threads() -> list[threading.Thread]:
    """aiperf's own threads still running (tests assert none is left behind); the kernel's shared
    sampling thread parked between cells runs nothing and is not one of them."""
    parked = shared().is_parked
    return [t for t in threading.enumerate()
            if t.name.startswith(THREAD_PREFIX) and t.is_alive() and not parked(t)]
