"""The ``%%aiperf`` stage that puts the static findings of the cell into the Report.

The cell has run, so every rule runs (preview ones too) and each finding carries the evidence of
this run (:mod:`.evidence`): the share of time its lines took and the sizes of the live data it
touched. Findings that did not matter here stay in the report with ``shown=False``. Then the run
speaks first (:mod:`.from_run`): the sites where the time went are explained, and their traps are
reported on the lines that cost, whether or not a static rule saw them. A "measure first" rewrite
(:mod:`.payoff`) is proposed only when those numbers say it pays, and says so.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .engine import analyze_cell
from .evidence import weigh
from .fixing import attach_fixes
from .from_run import findings_from_run, weigh_frames
from .payoff import decide
from .registry import ALL

if TYPE_CHECKING:
    from ..measure.run import CellRun
    from ..report import Report


class AnalysisStage:
    """Runs the trap catalog on the cell body after it ran; names resolve through the live namespace."""

    name = "analysis"

    def before(self, run: CellRun) -> None:
        """Nothing to do before the cell: analysis reads code, not timing."""

    def after(self, run: CellRun, report: Report) -> None:
        analysis = analyze_cell(run.source, select=[ALL], namespace=run.user_ns)
        if analysis.findings:
            attach_fixes(analysis)
        sampled = bool(getattr(run.options, "hotspots", False))
        for finding in analysis.findings:
            if finding.code != "AIP000":
                weigh(finding, analysis.node_of(finding), report.hotspots, run.user_ns, sampled=sampled,
                      wall_s=report.wall_s)
        if sampled:
            # then from the run: what the hot lines explain, on the lines that cost (new or confirmed);
            # a failure there costs the report only those findings, never the static ones
            try:
                findings_from_run(analysis, report, run.user_ns)
            except Exception as exc:
                report.notes.append(f"findings from the run failed: {type(exc).__name__}: {exc}")
        for finding in analysis.findings:
            if finding.code != "AIP000":
                # a rewrite whose gain depends on size is proposed only when this run's data says it pays
                decide(finding, analysis.node_of(finding), analysis.cell, run.user_ns, report.wall_s, sampled=sampled)
        report.findings.extend(analysis.findings)


class FrameWeightStage:
    """Runs after the frames profiler: its AIP303 findings on frames too small to matter are kept out
    of view (:func:`.from_run.weigh_frames`)."""

    name = "frame weights"

    def before(self, run: CellRun) -> None:
        """Nothing to do before the cell."""

    def after(self, run: CellRun, report: Report) -> None:
        weigh_frames(report)
