"""The cluster stage: a probe starts just before the cell and is read just after it.

``before`` asks :func:`~.detect.find_probe` (free when no engine is imported); ``after`` reads
the probe into ``report.cluster`` before the verdict runs, or, when there was no cluster before
the cell and there is one after it, says it will be measured from the next cell on. A cluster that
died, a client that was closed in the cell or an engine whose API changed costs a note, never the
cell or the report.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from .detect import ClusterProbe, find_probe

if TYPE_CHECKING:
    from ...report import Report
    from ..run import CellRun

KEY = "cluster_probe"
UNSEEN = "cluster_unseen"  # no cluster when the cell started: one may start in it


class ClusterStage:
    name = "cluster"

    def __init__(self, find: Callable[[Mapping[str, Any]], ClusterProbe | None] = find_probe) -> None:
        self._find = find

    def before(self, run: CellRun) -> None:
        try:
            probe = self._find(run.user_ns)
            if probe is None:
                run.state[UNSEEN] = True
                return
            probe.start()
        except Exception as exc:
            run.notes.append(f"cluster: not measured ({type(exc).__name__}: {exc})")
            return
        run.state[KEY] = probe

    def after(self, run: CellRun, report: Report) -> None:
        probe: ClusterProbe | None = run.state.pop(KEY, None)
        if probe is None:
            if run.state.pop(UNSEEN, False):
                self._started_in_the_cell(run, report, None)
            return
        # the driver's own CPU: the report's also counts child processes (a LocalCluster's workers)
        own = run.own_cpu_s
        try:
            report.cluster = probe.finish(report.wall_s, own if own is not None else report.cpu_s)
        except Exception as exc:  # the cluster went away, or its API changed: the report goes on
            report.notes.append(f"cluster ({probe.engine}): not measured ({type(exc).__name__}: {exc})")
        self._started_in_the_cell(run, report, probe)

    def _started_in_the_cell(self, run: CellRun, report: Report, before: ClusterProbe | None) -> None:
        """A client made (or Ray started) by the cell, where there was none or another one: its
        tasks ran before a probe could mark its stream, so the report says when it will be measured."""
        try:
            later = self._find(run.user_ns)
        except Exception:
            return
        if later is None:
            return
        if before is None:
            report.notes.append(f"cluster ({later.engine}): started in this cell; measured from the next cell on")
        elif later.engine != before.engine or getattr(later, "client", None) is not getattr(before, "client", None):
            report.notes.append(f"cluster ({later.engine}): a new client was made in this cell; its tasks are "
                                "measured from the next cell on")

    def cancel(self, run: CellRun) -> None:
        run.state.pop(KEY, None)
        run.state.pop(UNSEEN, None)
