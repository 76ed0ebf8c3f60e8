"""Stages run around one measured cell: before it starts and after it ends.

Each layer that enriches the Report (static analysis, pandas frames, verdict) is a stage, so the
runner stays small and layers stay apart. ``after`` runs in order, once timing has stopped, and a
stage that fails only adds a note: it never hides the user's own result or error.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from ..report import Report
    from .run import CellRun


class Stage(Protocol):
    name: str

    def before(self, run: CellRun) -> None:
        """Called just before the cell's code starts (keep it cheap: it is not timed, but it delays)."""

    def after(self, run: CellRun, report: Report) -> None:
        """Called after timing stopped; may add findings, frames, a verdict or notes."""


def default_stages() -> list[Stage]:
    """The stages every ``%%aiperf`` cell runs, in order."""
    from ..rules.stage import AnalysisStage  # lazy: libcst loads on the first %%aiperf, not at load_ext
    from ..verdicts.stage import VerdictStage
    from .frames import FramesStage
    from .torch_profile import TorchProfileStage

    # static findings first; verdict last: it links the findings the other stages added
    return [AnalysisStage(), FramesStage(), TorchProfileStage(), VerdictStage()]
