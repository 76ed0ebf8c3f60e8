"""Plain-text view of a Report, for terminals and as the text/plain part of every display."""

from __future__ import annotations

from .. import units as fmt
from ..report import Report
from .cluster import cluster_text
from .summary import (
    cause_line,
    cpu_wait_line,
    frame_line,
    gpu_line,
    headline,
    hidden_note,
    hot_rows,
    loader_line,
    memory_cell,
    memory_heading,
    report_notes,
    shown_findings,
    timeline,
    torch_profile_lines,
    verdict_details,
    visible_frames,
)

BAR_WIDTH = 20
MAX_HOTSPOTS = 8
REBIND_LINES = 30  # lines of an earlier cell's rewritten function shown under its finding


def render_text(report: Report) -> str:
    cell = f" [{report.execution_count}]" if report.execution_count is not None else ""
    lines = [f"aiperf{cell}: " + " · ".join(f"{label} {value}" for label, value in headline(report))]
    if report.error is not None:
        where = f" (line {report.cell_line(report.error.line)})" if report.error.line else ""
        lines.append(f"  cell raised {report.error.type}: {report.error.message}{where}")
    if report.verdict is not None:
        v = report.verdict
        lines.append(f"Verdict: {v.code} {v.title}: {v.sentence}")
        lines.extend(f"  {line}" for line in verdict_details(report))
    for extra in (loader_line(report), cause_line(report)):
        if extra:
            lines.append(f"  {extra}")
    wait = cpu_wait_line(report)
    if wait:
        lines.append(f"Note: {wait}")
    gpus = gpu_line(report)
    if gpus:
        lines.append(f"GPUs: {gpus}")
    series = timeline(report)
    if series:
        lines.append("Timeline")
        lines.extend(f"  {label:<18} {value}" for label, value in series)
    rows = hot_rows(report, MAX_HOTSPOTS)
    if rows:
        memory = memory_heading(report)
        lines.append("Hot lines")
        for row in rows:
            h = row.hotspot
            if h is not None:
                bar = "█" * max(1, round(h.share * BAR_WIDTH)) if h.share > 0 else ""
                took = f"{fmt.seconds(h.seconds):>9} {fmt.percent(h.share):>4} {bar:<{BAR_WIDTH}}"
            else:
                took = " " * (15 + BAR_WIDTH)
            mem = f" {memory_cell(row.memory):<24}" if memory else ""
            callee = f"  → {h.callee}" if h is not None and h.callee else ""
            lines.append(f"  line {report.cell_line(row.line):>3} {took}{mem} {row.text[:60]}{callee}")
        if memory:
            lines.append(f"  ({memory})")
    lines.extend(cluster_text(report))
    findings = shown_findings(report)  # numbered as the panel and `%aiperf apply N` count them
    if findings:
        lines.append("Findings")
        for number, f in findings:
            where = f"line {report.cell_line(f.line)}" if f.line else "cell"
            fix = ""
            if f.fix is not None and f.fix.source:
                fix = f"  [fix: {f.fix.title} ({f.fix.safety})]"
                if f.fix.cell:  # a rewrite of the function an earlier cell defined: that cell changes
                    fix = f"  [fix in {f.fix.cell}: {f.fix.title} ({f.fix.safety})]"
                if f.fix.evidence_note:  # a measure-first rewrite: what this run said about its gain
                    fix += f" ({f.fix.evidence_note})"
            lines.append(f"  {number}. {f.code} {where}: {f.message}{fix}")
            if f.fix is not None and f.fix.source and f.fix.cell:
                lines.append(f"     rewritten in {f.fix.cell}:")
                lines.extend(f"       {text}" for text in f.fix.rebind.rstrip("\n").splitlines()[:REBIND_LINES])
    hidden = hidden_note(report)
    if hidden:
        lines.append(f"({hidden})")
    frames, small = visible_frames(report)
    for frame in frames:
        lines.append(f"Frame {frame_line(frame, report)}")
        for col in frame.columns:
            if col.suggested_dtype:
                lines.append(f"  {col.name}: {col.dtype} → {col.suggested_dtype} "
                             f"saves {fmt.size(col.saving_bytes)} ({col.reason})")
    if small:
        lines.append(f"({small} small frame{'s' if small > 1 else ''} under 64 KB not shown)")
    prof = torch_profile_lines(report)
    if prof:
        lines.append("torch profile")
        lines.extend(f"  {line}" for line in prof)
    notes, muted = report_notes(report)
    if notes:
        lines.append("Notes")
        lines.extend(f"  {note}" for note in notes)
    if muted:
        lines.append(muted)
    return "\n".join(lines)
