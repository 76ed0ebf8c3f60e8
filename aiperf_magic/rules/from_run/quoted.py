"""The run's time in the words of a static finding that no shape explained.

A static rule about time spent in a loop (a list scanned per item, an array copied as it grows, a
whole file read then walked, rows one at a time) whose finding the run kept shown, but whose site no
shape of :mod:`.merge` explained (the list is built in place, the loop is a comprehension the
sampler saw as one line), still names where the time went: its message starts with the share of
the cell its own lines took ("Line 3 took 71% of the 0.51 s cell."), as the findings from the run
do. A finding about a line that took less than ``MIN_SHARE`` of the cell, or one whose trap is not
time (a deprecated API, memory), is left as it is.
"""

from __future__ import annotations

from ... import units as fmt
from ...report import Finding
from ..engine import Analysis
from ..evidence import line_time
from .run import Run
from .sites import MIN_SHARE

# codes whose trap is time spent on the finding's own lines
TIMED = frozenset({"AIP104", "AIP201", "AIP202", "AIP203", "AIP301", "AIP302", "AIP402"})


def quote_time(analysis: Analysis, run: Run, placed: list[Finding]) -> None:
    for finding in analysis.findings:
        if (finding.code not in TIMED or not finding.shown or finding.line is None or finding.evidence.get("from_run")
                or finding.evidence.get("time_quoted") or any(finding is p for p in placed)):
            continue
        share, seconds = line_time(run.report.hotspots, finding.line, finding.end_line)
        if share < MIN_SHARE:
            continue
        first = run.report.cell_line(finding.line)
        last = run.report.cell_line(finding.end_line or finding.line)
        where = f"Line {first}" if first == last else f"Lines {first}-{last}"
        finding.message = f"{where} took {fmt.percent(share)} of the {fmt.seconds(run.wall_s)} cell. {finding.message}"
        finding.evidence.setdefault("share", round(share, 4))
        finding.evidence.setdefault("seconds", round(seconds, 6))
        finding.evidence["time_quoted"] = True
