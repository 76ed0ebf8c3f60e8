"""Stages run around one measured cell: before it starts and after it ends.

Each layer that enriches the Report (static analysis, pandas frames, verdict) is a stage, so the
runner stays small and layers stay apart. ``after`` runs in order, once timing has stopped, and a
stage that fails only adds a note: it never hides the user's own result or error.

The work after the cell is bounded: the stages share one budget, by default the larger of
``MIN_BUDGET_S`` and ``BUDGET_SHARE`` of the cell's wall time (``%%aiperf --budget S`` sets it).
A stage that can do less reads ``run.deadline`` (the DataFrame profiler samples columns and frames
and says what it left out). Ctrl-C during that work stops it quietly: the stages not yet run are
cancelled, a note says what was left out, and the report shows what was done.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from ..report import Report
    from .run import CellRun

MIN_BUDGET_S = 0.5
BUDGET_SHARE = 0.25


class Stage(Protocol):
    name: str

    def before(self, run: CellRun) -> None:
        """Called just before the cell's code starts (keep it cheap: it is not timed, but it delays)."""

    def after(self, run: CellRun, report: Report) -> None:
        """Called after timing stopped; may add findings, frames, a verdict or notes."""


def stage_classes() -> list[type]:
    """The classes of the stages every ``%%aiperf`` cell runs, in order (importing them loads the
    analysis: libcst, the rules; :mod:`.warmup` does it in the background when the extension loads)."""
    from ..rules.stage import AnalysisStage, FrameWeightStage  # lazy: libcst loads after load_ext, not during it
    from ..verdicts.stage import VerdictStage
    from .cluster.stage import ClusterStage
    from .frames import FramesStage
    from .torch_profile import TorchProfileStage

    # static findings first; verdict last: it links the findings the other stages added
    return [AnalysisStage, ClusterStage, FramesStage, FrameWeightStage, TorchProfileStage, VerdictStage]


def default_stages() -> list[Stage]:
    """The stages every ``%%aiperf`` cell runs, in order. Waits for the background warm-up, if one is
    still loading them, rather than importing the same modules from two threads at once."""
    from .warmup import wait

    wait()
    return [cls() for cls in stage_classes()]


def budget_for(wall_s: float, asked_s: float | None = None) -> float:
    """Seconds the stages after a cell may take together: ``asked_s`` when given, else
    max(MIN_BUDGET_S, BUDGET_SHARE x the cell's wall time)."""
    if asked_s is not None:
        return asked_s
    wall = wall_s if math.isfinite(wall_s) and wall_s > 0 else 0.0
    return max(MIN_BUDGET_S, BUDGET_SHARE * wall)


def _name(stage: object) -> str:
    return str(getattr(stage, "name", type(stage).__name__))


def run_after(stages: list[Stage], run: CellRun, report: Report) -> None:
    """Each stage's ``after`` in order; a failure is a note, Ctrl-C ends the work quietly."""
    for index, stage in enumerate(stages):
        try:
            stage.after(run, report)
        except KeyboardInterrupt:
            left = stages[index + 1 :]
            for other in left:
                cancel = getattr(other, "cancel", None)
                if callable(cancel):
                    try:
                        cancel(run)
                    except Exception:  # a stage that cannot tidy up must not cost the report
                        pass
            skipped = f"; not run: {', '.join(_name(s) for s in left)}" if left else ""
            report.notes.append(
                f"Stopped by Ctrl-C during {_name(stage)}: the report shows what was done before{skipped}."
            )
            return
        except Exception as exc:
            report.notes.append(f"{_name(stage)} failed: {type(exc).__name__}: {exc}")
