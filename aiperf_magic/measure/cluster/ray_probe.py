"""Ray: the task events of ``ray.timeline()`` and the cluster's resources, through Ray's public API.

``start`` only notes the time; ``finish`` reads the timeline (Ray keeps a bounded number of task
events) and folds the events of the cell's time, one by one, into
:class:`~.summary.TaskStreamSummary`. A worker is a Ray worker process; threads are the cluster's
CPUs. Ray's public API says nothing of transfers or spilling per task: those stay None.
"""

from __future__ import annotations

import sys
import time
from typing import Any

from ...report import ClusterInfo
from .summary import TaskStreamSummary
from .wait import driver_wait

TASK_PREFIX = "task::"  # the event of a task's whole run (its name is the function's)
US = 1e-6


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
        events = self.ray.timeline()
        summary = TaskStreamSummary(self.engine, self._t0, t1)
        workers: set[str] = set()
        for event in events:
            if str(event.get("cat", "")).startswith(TASK_PREFIX):
                start = float(event.get("ts", 0.0)) * US
                if start + float(event.get("dur", 0.0)) * US < self._t0:
                    continue
                worker = _short(str(event.get("tid", "?")))
                workers.add(worker)
                summary.add(worker, _function(event), start, start + float(event.get("dur", 0.0)) * US)
        del events
        cpus = int(float(self.ray.cluster_resources().get("CPU", 0)) or 0)
        result = summary.info()
        if cpus > result.threads:
            # Ray runs one task per worker process; CPUs without a busy process are idle slots
            result.threads = cpus
        result.transfer_bytes = None
        result.spilled_bytes = None
        result.driver_wait_s = driver_wait(wall_s, driver_cpu_s, result.span_s)
        return result


def _function(event: dict[str, Any]) -> str:
    name = str(event.get("name") or event.get("cat", "")[len(TASK_PREFIX):])
    return name.rsplit(".", 1)[-1] or "?"


def _short(tid: str) -> str:
    """``worker:83bcb37b…`` -> ``worker:83bcb37b``."""
    kind, _, ident = tid.partition(":")
    return f"{kind}:{ident[:8]}" if ident else tid
