"""The ``%%aiperf`` stage that puts the static findings of the cell into the Report."""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import analyze

if TYPE_CHECKING:
    from ..measure.run import CellRun
    from ..report import Report


class AnalysisStage:
    """Runs the trap catalog on the cell body after it ran; names resolve through the live namespace."""

    name = "analysis"

    def before(self, run: CellRun) -> None:
        """Nothing to do before the cell: analysis reads code, not timing."""

    def after(self, run: CellRun, report: Report) -> None:
        report.findings.extend(analyze(run.source, namespace=run.user_ns))
