"""Dask: the scheduler's task stream and each worker's counters, through the client's public API.

``start`` marks where the task stream stands (turning it on if it was off): every record after
the mark is a task that finished during the cell, whatever the workers' clocks say. The mark is
the stream's append count where the scheduler keeps one, else its last record. It asks for the
workers' transfer and spill counters on a short-lived thread, so the cell starts at once (a
scheduler still releasing the previous cell's tasks can take a second to answer).

``finish`` folds the records after the mark into :class:`~.summary.TaskStreamSummary` while the
workers' counters are read again on a second thread. Where the
scheduler can run this module (a ``LocalCluster``, or a cluster with the package installed) the
fold runs there (``Client.run_on_scheduler``), yielding to the scheduler's event loop every
``YIELD_EVERY`` records, and only the summary crosses the wire: 10,000 records cost about a
second to ship to the driver, and the summary a few kilobytes. Elsewhere the records are fetched
with ``Client.get_task_stream`` and folded here.
"""

from __future__ import annotations

import asyncio
import math
import threading
import time
import weakref
from typing import Any

from ...report import ClusterInfo, from_dict, to_dict
from ..probes.base import THREAD_PREFIX
from .summary import TaskStreamSummary
from .wait import driver_wait

COMPUTE = "compute"
TRANSFER = "transfer"
DISK = ("disk-write", "disk-read")
# The scheduler finds the first record by bisecting on end times, which are not quite in order
# (each worker's clock offset differs): ask from a little earlier, then keep what follows the marker.
SLACK_S = 5.0
BASELINE_WAIT_S = 10.0
YIELD_EVERY = 1000  # records folded on the scheduler between two turns of its event loop
# clients whose scheduler could not unpickle this module's functions (a remote cluster without aiperf)
_CANNOT_IMPORT_US: weakref.WeakSet[Any] = weakref.WeakSet()


def worker_counters(dask_worker: Any) -> dict[str, int]:
    """Run on each worker (``Client.run``): bytes it sent to other workers and bytes it spilled."""
    try:
        _, disk = dask_worker.data.spilled_total
    except Exception:  # spilling disabled, or a different store
        disk = 0
    return {"sent": int(getattr(dask_worker, "transfer_outgoing_bytes_total", 0) or 0), "disk": int(disk or 0)}


def task_function(key: Any) -> str:
    """``('inc-3f2a…', 4)`` -> ``inc``, ``hello-world-1`` -> ``hello-world``: the name Dask's
    dashboard groups tasks by (the words before the first that is not purely letters, or is
    8 hex digits). Dask's own ``key_split`` caches 100,000 keys: a long stream of unique keys would
    leave that much behind, so the same rule is written here without a cache."""
    if isinstance(key, tuple) and key:
        key = key[0]
    if isinstance(key, bytes):
        key = key.decode("utf-8", "replace")
    if not isinstance(key, str) or not key:
        return "other"
    words = key.split("-")
    name = words[0].split(",")[0].strip("_'()\"") if not words[0][:1].isalpha() else words[0]
    for word in words[1:]:
        if not word.isalpha() or (len(word) == 8 and _is_hex(word)):
            break
        name += f"-{word}"
    return name or "other"


def _is_hex(word: str) -> bool:
    return all(ch in "0123456789abcdefABCDEF" for ch in word)


class DaskProbe:
    engine = "dask"

    def __init__(self, client: Any, clock: Any = time.time) -> None:
        self.client = client
        self._clock = clock
        self._t0 = 0.0
        self._before: dict[str, dict[str, int]] | None = None  # None until the baseline thread answers
        self._baseline: threading.Thread | None = None
        self._marker: tuple[Any, ...] | None = None  # the last task record before the cell
        self._index: int | None = None  # the stream's append count before the cell, where it keeps one
        self._on_scheduler = False  # the scheduler runs this module's functions

    def start(self) -> None:
        try:
            if self.client in _CANNOT_IMPORT_US:
                raise ImportError("the scheduler cannot import aiperf_magic")
            self._index, self._marker = self.client.run_on_scheduler(stream_mark)
            self._on_scheduler = True
        except Exception as exc:  # the scheduler cannot run this module: the client's own API
            if isinstance(exc, ImportError):  # not worth asking again each cell (nor a warning in its log)
                _CANNOT_IMPORT_US.add(self.client)
            last = self.client.get_task_stream(count=1)  # also turns the scheduler's task stream on
            self._marker = identity(last[-1]) if last else None
        self._baseline = threading.Thread(target=self._read_baseline, name=f"{THREAD_PREFIX}cluster-baseline",
                                          daemon=True)
        self._baseline.start()
        self._t0 = self._clock()

    def _read_baseline(self) -> None:
        self._before = self._counters()

    def _counters(self) -> dict[str, dict[str, int]]:
        try:
            return dict(self.client.run(worker_counters, on_error="ignore"))
        except Exception:
            return {}

    def finish(self, wall_s: float, driver_cpu_s: float) -> ClusterInfo:
        if self._baseline is not None:
            self._baseline.join(BASELINE_WAIT_S)
        status = getattr(self.client, "status", "running")
        if status != "running":  # closed in the cell, or its scheduler went away: asking would wait
            raise RuntimeError(f"the Dask client is {status}")
        box: dict[str, dict[str, dict[str, int]]] = {}
        reader = None
        if self._before is not None:  # the workers answer while the scheduler folds
            reader = threading.Thread(target=lambda: box.update(after=self._counters()),
                                      name=f"{THREAD_PREFIX}cluster-counters", daemon=True)
            reader.start()
        result = self._summary()
        if reader is not None:
            reader.join(BASELINE_WAIT_S)
        after = box.get("after", {})
        if self._before is not None and after:
            before = self._before
            result.transfer_bytes = sum(max(0, c.get("sent", 0) - before.get(w, {}).get("sent", 0))
                                        for w, c in after.items() if isinstance(c, dict))
            disk = sum(max(0, c.get("disk", 0) - before.get(w, {}).get("disk", 0))
                       for w, c in after.items() if isinstance(c, dict))
            result.spilled_bytes = max(result.spilled_bytes or 0, disk)
        result.driver_wait_s = driver_wait(wall_s, driver_cpu_s, result.span_s)
        result.dashboard = _dashboard(self.client)
        return result

    def _summary(self) -> ClusterInfo:
        if self._on_scheduler:
            folded = self.client.run_on_scheduler(summarise_on_scheduler, self._index, self._marker,
                                                  self._t0 - SLACK_S, self._t0)
            return from_dict(ClusterInfo, folded)
        info = self.client.scheduler_info()
        workers = info.get("workers", {}) if isinstance(info, dict) else {}
        threads = {addr: int(w.get("nthreads", 1) or 1) for addr, w in workers.items()}
        summary = TaskStreamSummary(self.engine, self._t0, math.inf, threads)
        for record in after_marker(self.client.get_task_stream(start=self._t0 - SLACK_S), self._marker):
            fold(summary, record)
        return summary.info()


def stream_mark(dask_scheduler: Any) -> tuple[int | None, tuple[Any, ...] | None]:
    """Run on the scheduler: the stream's append count (``None`` where this Dask keeps none) and
    its last record's identity. Asking for a record turns the stream on."""
    last = dask_scheduler.get_task_stream(count=1)
    count = getattr(dask_scheduler, "get_task_stream_index", None)
    return (int(count()) if callable(count) else None), (identity(last[-1]) if last else None)


async def summarise_on_scheduler(index: int | None, marker: tuple[Any, ...] | None, since: float, origin: float,
                                 dask_scheduler: Any = None) -> dict[str, Any]:
    """Run on the scheduler: fold the records after the mark, a few at a time, into the summary
    (as plain data: it crosses the wire)."""
    if index is not None:
        records = dask_scheduler.get_task_stream(start_index=index)
    else:
        records = after_marker(dask_scheduler.get_task_stream(start=since), marker)
    threads = {str(addr): int(getattr(ws, "nthreads", 1) or 1) for addr, ws in dask_scheduler.workers.items()}
    summary = TaskStreamSummary(DaskProbe.engine, origin, math.inf, threads)
    for n, record in enumerate(records, 1):
        fold(summary, record)
        if n % YIELD_EVERY == 0:
            await asyncio.sleep(0)
    return to_dict(summary.info())


def identity(record: dict[str, Any]) -> tuple[Any, ...]:
    """What tells one task-stream record from another: its key, its stimulus and when it started."""
    stops: Any = record.get("startstops") or ({},)
    return (str(record.get("key")), record.get("stimulus_id"), record.get("worker"), stops[0].get("start"))


def after_marker(records: Any, marker: tuple[Any, ...] | None) -> list[dict[str, Any]]:
    """The records appended after ``marker`` (all of them when it is gone from the window)."""
    records = list(records)
    if marker is not None:
        marker = tuple(marker)  # a list, once it has crossed the wire as plain data
        for index in range(len(records) - 1, -1, -1):
            if identity(records[index]) == marker:
                return records[index + 1 :]
    return records


def fold(summary: TaskStreamSummary, record: dict[str, Any]) -> None:
    """One task-stream record of the cell: its compute, transfer and disk intervals.

    The record is the cell's by its place in the stream, so it is never dropped for its times: a
    worker stamps them with its own estimate of the scheduler's clock, which can be some
    milliseconds off the kernel's. A task stamped as over before the cell began is moved to the
    cell's start with its duration; one that began before the cell (sent by an earlier cell) counts
    from the start on. The summary's ``end`` is open: every record read had ended."""
    worker = str(record.get("worker", "?"))
    function: str | None = None
    for ss in record.get("startstops", ()):
        action, start, stop = ss.get("action"), float(ss.get("start", 0.0)), float(ss.get("stop", 0.0))
        if action == COMPUTE:
            if function is None:
                function = task_function(record.get("key", "?"))
            if stop < summary.origin:
                start, stop = summary.origin, summary.origin + max(0.0, stop - start)
            summary.add(worker, function, start, stop)
        elif action == TRANSFER:
            summary.add_transfer(stop - start)
        elif action in DISK:
            nbytes = int(record.get("nbytes", 0) or 0) if action == "disk-write" else 0
            summary.add_spill(stop - start, nbytes)


def _dashboard(client: Any) -> str | None:
    try:
        link = client.dashboard_link
    except Exception:
        return None
    return str(link) if link else None
