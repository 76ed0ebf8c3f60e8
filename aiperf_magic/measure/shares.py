"""How one tick's time is shared among the threads found on user code (see :mod:`.hotspots`).

One thread on user code gets the whole tick. Several: those that used CPU since the last tick share
it by the CPU each used (each thread's own CPU clock, as the busy-thread count reads it), so a thread
parked in ``join()`` gets nothing while its workers compute; when none used CPU, the cell's threads
share it equally. Threads that ran user code before the cell (``background``) are not the cell's:
they get the CPU they used, outside the cell's share.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable

from .probes.threads import MIN_BUSY_CPU_S, MIN_BUSY_SHARE, ThreadCpuReader, default_reader


class ThreadShares:
    def __init__(self, threads: Callable[[], Iterable[threading.Thread]] = threading.enumerate,
                 reader: ThreadCpuReader | None = None) -> None:
        self._threads = threads
        self._reader = reader
        self.background: set[int] = set()  # threads that ran user code before the cell started
        self._before: set[int] = set()
        self._last_cpu: dict[int, float] = {}
        self.native_ids: dict[int, int] = {}  # ident -> native id, of the threads read
        self.names: dict[int, str] = {}
        self.started_in_cell: set[int] = set()

    def start(self, idents: set[int], running_user_code: set[int]) -> None:
        """The threads alive when the cell starts, and those of them already on user code."""
        if self._reader is None:
            self._reader = default_reader()
        self._before = set(idents)
        self.background = set(running_user_code)
        self._read_cpu(self._before)

    def weights(self, idents: list[int], dt: float) -> list[float]:
        """Each thread's share of a tick of ``dt`` seconds (the cell's threads' shares sum to ``dt``)."""
        if len(idents) == 1 and idents[0] not in self.background:
            return [dt]  # one thread on user code (the usual cell): all of the tick is its
        if not idents:
            return []
        used = self._read_cpu(idents, dt)
        bar = max(MIN_BUSY_CPU_S, MIN_BUSY_SHARE * dt)
        cell = [i for i, ident in enumerate(idents) if ident not in self.background]
        spent = {i: (dt if used[i] is None else used[i]) for i in cell}  # unknown: counted as busy
        busy = [i for i in cell if spent[i] >= bar]  # type: ignore[operator]
        weights = [0.0] * len(idents)
        total = sum(spent[i] for i in busy)  # type: ignore[misc]
        for i in busy:
            weights[i] = dt * spent[i] / total  # type: ignore[operator]
        if not busy:
            for i in cell:
                weights[i] = dt / len(cell)
        for i, ident in enumerate(idents):
            if ident in self.background:
                weights[i] = min(dt, used[i] or 0.0)
        return weights

    def _read_cpu(self, idents: Iterable[int], cap: float | None = None) -> list[float | None]:
        """CPU each thread used since it was last read (None: unknown), at most ``cap``."""
        idents = list(idents)
        if self._reader is None:
            return [None] * len(idents)
        alive = {t.ident: t for t in self._threads()}
        out: list[float | None] = []
        for ident in idents:
            thread = alive.get(ident)
            native = getattr(thread, "native_id", None)
            cpu = self._reader(native) if thread is not None and native is not None else None
            if thread is None or native is None or cpu is None:
                out.append(None)
                continue
            self.native_ids[ident] = native
            self.names[ident] = thread.name
            last = self._last_cpu.get(ident)
            if last is None and ident not in self._before and cap is not None:
                last = 0.0  # born during the cell: all the CPU it used is since then
                self.started_in_cell.add(ident)
            self._last_cpu[ident] = cpu
            used = None if last is None else max(0.0, cpu - last)
            out.append(min(used, cap) if used is not None and cap is not None else used)
        return out
