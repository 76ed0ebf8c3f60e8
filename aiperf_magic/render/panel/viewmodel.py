"""The panel's state: a Report turned into plain JSON for the panel's script to draw.

Everything the panel shows is decided here, once, in Python: the first screen (times, the
bottleneck in plain words, where the time went, the advice), the findings with their diffs and
rule docs, the hot lines, the timeline as a static SVG, the frames and the notes. The script only
lays it out, putting every string in with ``textContent``. What changes after a click (Try's
result, Apply's status) lives apart, in :mod:`.actions`.
"""

from __future__ import annotations

import importlib
from typing import Any

from ... import units as fmt
from ...report import Finding, FrameProfile, Report
from .. import markdown
from ..cluster import cluster_panel
from ..summary import (
    MAX_COLUMNS,
    capped_lines,
    cause_line,
    cpu_wait_line,
    fix_saving,
    frame_line,
    gpu_line,
    headline,
    hidden_note,
    hot_rows,
    loader_line,
    memory_cell,
    memory_heading,
    more_findings,
    report_notes,
    shown_findings,
    torch_profile_lines,
    visible_frames,
)
from ..timeline import timeline

SCHEMA = 1
MAX_HOTSPOTS = 12


_DOCS: dict[str, tuple[Any, dict[str, Any]]] = {}


def rule_doc(code: str) -> dict[str, Any] | None:
    """A code's documentation as Markdown blocks (``%aiperf explain CODE``), when the catalog has it.

    Parsed once per rule: every panel that explains a code shares the same (never changed) blocks,
    so a long session keeps one copy of each doc, not one per panel."""
    try:
        registry = importlib.import_module("aiperf_magic.rules.registry")
        rule = registry.all_rules().get(code)
    except Exception:  # no catalog, or it failed to load: the code stays plain text
        return None
    if rule is None:
        return None
    cached = _DOCS.get(code)
    if cached is None or cached[0] is not rule:
        cached = _DOCS[code] = (rule, {"name": rule.name, "message": rule.message,
                                       "blocks": markdown.parse(rule.doc or "")})
    return cached[1]


def diff_lines(diff: str) -> list[list[str]]:
    """A unified diff as [kind, text] pairs, one per line: "+" added, "-" removed, "@" a hunk
    header, " " context. The file header lines (``---``/``+++``) say nothing here and are left out."""
    out: list[list[str]] = []
    lines, more = capped_lines(diff)
    for line in lines:
        if line.startswith(("---", "+++")):
            continue
        kind = line[:1] if line[:1] in "+-@" and line else " "
        out.append([kind, line])
    if more:
        out.append(["@", more])
    return out


def frame_of(report: Report, finding: Finding) -> FrameProfile | None:
    """The frame whose dtype fix ``finding`` is (an AIP303 rewrite ends with its astype line)."""
    fix = finding.fix
    if fix is None or not fix.source:
        return None
    for frame in report.frames:
        if frame.fix_source and fix.source.rstrip("\n").endswith(frame.fix_source.strip()):
            return frame
    return None


def _finding(report: Report, n: int, f: Finding) -> dict[str, Any]:
    where = f"line {report.cell_line(f.line)}" if f.line else "whole cell"
    # messages quote code between backticks: shown as code, never as markup
    item: dict[str, Any] = {"n": n, "code": f.code, "where": where, "message": f.message,
                            "message_runs": markdown.inline(f.message)}
    fix = f.fix
    if fix is not None and fix.source:
        item["fix"] = {
            # a rewrite of an earlier cell's function: its diff is of that cell, and Apply edits it
            "title": f"{fix.title} (in {fix.cell}, which defines the function)" if fix.cell else fix.title,
            "safety": fix.safety,
            "diff": diff_lines(fix.diff) if fix.diff else [[" ", line] for line in capped_lines(fix.source)[0]],
            "hint": f"%aiperf apply {n}",
        }
        if fix.measure_first:  # offered for Try; Apply only once Try measured it equal and faster
            item["fix"]["measure_first"] = fix.measure_first
            item["fix"]["evidence"] = fix.evidence_note or ""
    elif fix is not None and fix.reason:
        item["no_fix"] = fix.reason
    frame = frame_of(report, f)
    if frame is not None:
        saving = fix_saving(frame)
        item["frame"] = {"name": frame.name, "before": fmt.size(frame.memory_bytes),
                         "after": fmt.size(frame.memory_bytes - saving)}
    return item


def _hotspots(report: Report) -> list[dict[str, Any]]:
    rows = []
    for row in hot_rows(report, MAX_HOTSPOTS):
        h = row.hotspot
        rows.append({"line": report.cell_line(row.line), "code": row.text,
                     "share": fmt.percent(h.share) if h else "", "bar": round(h.share, 3) if h else 0,
                     "time": fmt.seconds(h.seconds) if h else "", "callee": (h.callee if h else "") or "",
                     "memory": memory_cell(row.memory)})
    return rows


def _frames(report: Report, numbers: dict[int, int]) -> dict[str, Any]:
    shown, small = visible_frames(report)
    frames = []
    for frame in shown:
        columns = [
            {"name": str(c.name), "dtype": c.dtype, "memory": fmt.size(c.memory_bytes),
             "suggestion": (c.suggested_dtype or "") + ("" if c.safe or not c.suggested_dtype else " (lossy)"),
             "saving": fmt.size(c.saving_bytes) if c.suggested_dtype else "", "why": c.reason}
            for c in frame.columns[:MAX_COLUMNS]
        ]
        notes = list(frame.notes)
        if len(frame.columns) > MAX_COLUMNS:
            notes.append(f"{len(frame.columns) - MAX_COLUMNS} more columns not shown")
        finding = next((numbers[id(f)] for f in report.findings if id(f) in numbers
                        and frame_of(report, f) is frame), None)
        frames.append({"name": frame.name, "line": frame_line(frame, report), "columns": columns,
                       "notes": notes, "finding": finding})
    rest = f"{small} small frame{'s' if small != 1 else ''} under 64 KB not shown" if small else ""
    return {"items": frames, "small": rest}


def _cause(report: Report, min_share: float = 0.2) -> dict[str, str] | None:
    """The hottest line, when it holds a real share of the time (as ``summary.cause_line``)."""
    if not report.hotspots or cause_line(report, min_share) is None:
        return None
    h = max(report.hotspots, key=lambda x: x.share)
    return {"share": fmt.percent(h.share), "line": str(report.cell_line(h.line)), "code": h.text,
            "callee": h.callee or ""}


def _verdict(report: Report) -> dict[str, Any] | None:
    v = report.verdict
    if v is None:
        return None
    evidence = ", ".join(f"{k.replace('_', ' ')} {val:.3g}" if isinstance(val, float) else f"{k} {val}"
                         for k, val in v.evidence.items())
    return {"code": v.code, "title": v.title, "sentence": v.sentence, "advice": v.advice,
            "evidence": evidence, "related": list(v.related)}


def panel_data(report: Report) -> dict[str, Any]:
    """The whole static state of one panel, as JSON-ready data."""
    listed = shown_findings(report)
    numbers = {id(f): n for n, f in listed}
    notes, muted = report_notes(report)
    tl = timeline(report.samples)
    codes = {f.code for _, f in listed} | ({report.verdict.code} if report.verdict else set())
    docs = {code: doc for code in sorted(codes) if (doc := rule_doc(code)) is not None}
    error = None
    if report.error is not None:
        where = f" (line {report.cell_line(report.error.line)})" if report.error.line else ""
        error = f"{report.error.type}: {report.error.message}{where}"
    return {
        "schema": SCHEMA,
        "cell": f"[{report.execution_count}]" if report.execution_count is not None else "",
        "header": [[label, value] for label, value in headline(report)],
        "verdict": _verdict(report),
        "loader": loader_line(report),
        "cause": _cause(report),
        "wait": cpu_wait_line(report),
        "error": error,
        "findings": [_finding(report, n, f) for n, f in listed],
        "more_findings": more_findings(report),
        "hidden_findings": hidden_note(report),
        "docs": docs,
        "hotspots": _hotspots(report),
        "memory_heading": memory_heading(report),
        "cluster": cluster_panel(report),
        "timeline": {"svg": tl.svg, "caption": tl.caption, "summary": tl.summary},
        "frames": _frames(report, numbers),
        "gpus": gpu_line(report),
        "torch": torch_profile_lines(report),
        "notes": notes,
        "muted": muted,
    }
