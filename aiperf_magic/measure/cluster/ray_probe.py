"""Ray: the task events of ``ray.timeline()`` and the cluster's resources, through Ray's public API.

``start`` only notes the time; ``finish`` reads the timeline (Ray keeps a bounded number of task
events) and folds the events of the cell's time, one by one, into
:class:`~.summary.TaskStreamSummary`. A worker is a Ray worker process; threads are the cluster's
CPUs. Ray's public API says nothing of transfers or spilling per task: those stay None.

Ray's processes report task events about once a second (``RAY_task_events_report_interval_ms``,
1,000 by default), so the tasks of a cell's last second are not in the timeline yet when it ends.
When the cell ran tasks, ``finish`` waits for the next report (one interval after the cell's end,
with a margin) and reads the timeline again; a cell that ran none costs no wait.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Iterator
from typing import Any

from ...report import ClusterInfo
from .summary import TaskStreamSummary
from .wait import driver_wait

TASK_PREFIX = "task::"  # the event of a task's whole run (its name is the function's)
US = 1e-6
REPORT_INTERVAL_ENV = "RAY_task_events_report_interval_ms"
REPORT_INTERVAL_S = 1.0  # Ray's default
REPORT_MARGIN_S = 0.25  # for the report to reach the GCS


class RayProbe:
    engine = "ray"

    def __init__(self, ray: Any = None, clock: Any = time.time) -> None:
        self.ray = ray if ray is not None else sys.modules["ray"]
        self._clock = clock
        self._t0 = 0.0

    def start(self) -> None:
        self._t0 = self._clock()

    def finish(self, wall_s: float, driver_cpu_s: float) -> ClusterInfo:
        t1 = self._clock()
        if any(True for _ in self._cell_tasks(self.ray.timeline())):  # the cell used Ray: wait for its last report
            time.sleep(max(0.0, t1 + report_wait_s() - self._clock()))
        summary = TaskStreamSummary(self.engine, self._t0, t1)
        for worker, function, start, stop in self._cell_tasks(self.ray.timeline()):
            summary.add(worker, function, start, stop)
        cpus = int(float(self.ray.cluster_resources().get("CPU", 0)) or 0)
        result = summary.info()
        if cpus > result.threads:
            # Ray runs one task per worker process; CPUs without a busy process are idle slots
            result.threads = cpus
        result.transfer_bytes = None
        result.spilled_bytes = None
        result.driver_wait_s = driver_wait(wall_s, driver_cpu_s, result.span_s)
        return result

    def _cell_tasks(self, events: list[dict[str, Any]]) -> Iterator[tuple[str, str, float, float]]:
        """(worker, function, start, stop) of each task event that ended after the cell began."""
        for event in events:
            if str(event.get("cat", "")).startswith(TASK_PREFIX):
                start = float(event.get("ts", 0.0)) * US
                stop = start + float(event.get("dur", 0.0)) * US
                if stop >= self._t0:
                    yield _short(str(event.get("tid", "?"))), _function(event), start, stop


def report_wait_s() -> float:
    """How long after a task ends its event is in the timeline: Ray's report interval and a margin."""
    try:
        interval = float(os.environ[REPORT_INTERVAL_ENV]) / 1000.0
    except (KeyError, ValueError):
        interval = REPORT_INTERVAL_S
    return max(0.0, interval) + REPORT_MARGIN_S


def _function(event: dict[str, Any]) -> str:
    name = str(event.get("name") or event.get("cat", "")[len(TASK_PREFIX):])
    return name.rsplit(".", 1)[-1] or "?"


def _short(tid: str) -> str:
    """``worker:83bcb37b…`` -> ``worker:83bcb37b``."""
    kind, _, ident = tid.partition(":")
    return f"{kind}:{ident[:8]}" if ident else tid
