"""Static HTML view of a Report: for nbconvert, GitHub and any front end without widgets.

It reads top to bottom like the panel: the times, the bottleneck in plain words, where the time
went, the advice, then the findings with their diffs, and below them the hot lines, the timeline,
the frames and the notes (folded). Every string that comes from the user (source lines, messages,
names, notes) goes through ``html.escape``; the only markup is ours.
"""

from __future__ import annotations

from html import escape

from .. import units as fmt
from ..report import Finding, Report
from .cluster import cluster_html
from .markdown import inline, inline_html, markdown_html
from .summary import (
    MAX_COLUMNS,
    capped_lines,
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
    more_findings,
    report_notes,
    shown_findings,
    timeline,
    torch_profile_lines,
    verdict_details,
    visible_frames,
)
from .timeline import timeline as timeline_svg

_STYLE = (
    "font-family:var(--jp-ui-font-family,system-ui,sans-serif);font-size:13px;line-height:1.45;"
    "border:1px solid var(--jp-border-color2,#ddd);border-radius:6px;padding:8px 12px;max-width:980px"
)
_BADGE = "display:inline-block;padding:1px 6px;border-radius:4px;font-weight:600;margin-right:6px;"
_MONO = "font-family:var(--jp-code-font-family,ui-monospace,SFMono-Regular,Menlo,monospace);font-size:12px"
_PRE = f"{_MONO};margin:4px 0;padding:4px 0;background:#f6f8fa;border-radius:4px;overflow:auto"
_KEY = "display:inline-block;min-width:82px;margin-right:6px;font-weight:600;color:#57606a"
_MUTED = "color:#57606a"
_DIFF = {"+": "background:#dafbe1", "-": "background:#ffebe9", "@": "color:#57606a"}


def _row(key: str, body: str) -> str:
    return f'<div><span style="{_KEY}">{escape(key)}</span>{body}</div>'


def diff_html(diff: str) -> str:
    """A unified diff, one block element per line (so no two lines ever run together)."""
    lines = []
    shown, more = capped_lines(diff)
    for line in shown + ([f"@{more}"] if more else []):
        if line.startswith(("---", "+++")):
            continue
        style = _DIFF.get(line[:1], "")
        lines.append(f'<div style="white-space:pre;padding:0 8px;{style}">{escape(line) or " "}</div>')
    return f'<div class="aiperf-diff" style="{_PRE}">{"".join(lines)}</div>'


def _code_doc(code: str) -> str:
    """``%aiperf explain CODE``, folded under the code."""
    try:
        from ..rules.registry import all_rules

        rule = all_rules().get(code)
    except Exception:  # no catalog: the code stays plain text
        rule = None
    if rule is None or not rule.doc:
        return ""
    return (f'<details style="margin:2px 0 4px"><summary style="{_MUTED};cursor:pointer">what {escape(code)} means'
            f"</summary><div style=\"border-left:3px solid #d0d7de;padding:2px 10px\">{markdown_html(rule.doc)}"
            "</div></details>")


def _finding(report: Report, n: int, f: Finding, explained: set[str]) -> str:
    where = f"line {report.cell_line(f.line)}" if f.line else "whole cell"
    doc = "" if f.code in explained else _code_doc(f.code)  # each code explained once per report
    explained.add(f.code)
    parts = [f'<div class="aiperf-finding" style="margin-top:6px"><b>{n}. {escape(f.code)}</b> '
             f'<span style="{_MUTED}">{escape(where)}</span> {inline_html(inline(f.message))}</div>', doc]
    fix = f.fix
    if fix is not None and fix.source:
        unsafe = "" if fix.safety == "safe" else ' <span style="color:#9a6700">(unsafe: results may differ)</span>'
        where_fix = f" in {fix.cell}, which defines the function" if fix.cell else ""  # the diff is of that cell
        parts.append(f"<div><b>Fix{escape(where_fix)}: {escape(fix.title)}</b>{unsafe} "
                     f'<span style="{_MUTED}">— <code>%aiperf try {n}</code>, <code>%aiperf apply {n}</code></span>'
                     "</div>")
        if fix.measure_first:  # its gain depends on size: say what this run measured
            note = fix.evidence_note or f"measure first: {fix.measure_first}"
            parts.append(f'<div style="{_MUTED}">{escape(note)}</div>')
        source = "\n".join(capped_lines(fix.source)[0])
        parts.append(diff_html(fix.diff) if fix.diff else f'<pre style="{_PRE}">{escape(source)}</pre>')
    elif fix is not None and fix.reason:
        parts.append(f'<div style="{_MUTED}">No rewrite: {escape(fix.reason)}</div>')
    return "".join(parts)


def _summary(report: Report) -> list[str]:
    parts = []
    if report.error is not None:
        where = f" (line {report.cell_line(report.error.line)})" if report.error.line else ""
        parts.append(f'<div style="color:#b00">cell raised <code>{escape(report.error.type)}</code>: '
                     f"{escape(report.error.message)}{escape(where)}</div>")
    v = report.verdict
    if v is not None:
        tag = f'<span style="{_BADGE}background:#fde68a;color:#1f2328">{escape(v.code)} {escape(v.title)}</span>'
        parts.append(_row("Bottleneck", f"{tag}{escape(v.sentence)}") + _code_doc(v.code))
    loader = loader_line(report)
    if loader:
        parts.append(_row("Input", escape(loader)))
    cause = cause_line(report)
    if cause:
        parts.append(_row("Where", escape(cause)))
    if v is not None and v.advice:
        parts.append(_row("Advice", escape(v.advice)))
    details = [line for line in verdict_details(report) if not line.startswith("advice: ")]
    if details:
        items = "".join(f"<li>{escape(line)}</li>" for line in details)
        parts.append(f'<ul style="margin:2px 0 4px 18px;{_MUTED}">{items}</ul>')
    wait = cpu_wait_line(report)
    if wait:
        parts.append(f'<div style="{_MUTED}">{escape(wait)}</div>')
    return parts


def render_html(report: Report) -> str:
    parts = [f'<div class="aiperf-report" style="{_STYLE}">']
    cell = f" [{report.execution_count}]" if report.execution_count is not None else ""
    head = " · ".join(f'<b>{escape(label)}</b> <span style="white-space:nowrap">{escape(value)}</span>'
                      for label, value in headline(report))
    parts.append(f'<div class="aiperf-header"><span style="{_BADGE}background:#eef">aiperf{escape(cell)}</span>'
                 f"{head}</div>")
    parts += _summary(report)
    listed = shown_findings(report)
    if listed:
        parts.append(f'<div style="font-weight:600;margin-top:8px">Findings ({len(listed)})</div>')
        explained: set[str] = set()
        parts += [_finding(report, n, f, explained) for n, f in listed]
        more = more_findings(report)
        if more:
            parts.append(f'<div style="{_MUTED}">{escape(more)}</div>')
    hidden = hidden_note(report)
    if hidden:
        parts.append(f'<div style="{_MUTED}">({escape(hidden)})</div>')
    parts += _hot_lines(report)
    cluster = cluster_html(report, _MUTED)
    if cluster:
        parts.append(cluster)
    tl = timeline_svg(report.samples)
    series = "".join(f"<tr><td>{escape(a)}</td><td>{escape(b)}</td></tr>" for a, b in timeline(report))
    if tl.svg:
        parts.append(f"<details><summary>Timeline ({escape(tl.summary)})</summary>{tl.svg}"
                     f'<div style="{_MUTED}">{escape(tl.caption)}</div><table>{series}</table></details>')
    parts += _frames(report)
    prof = torch_profile_lines(report)
    if prof:
        ops = "".join(f"<li>{escape(line)}</li>" for line in prof)
        parts.append(f"<details><summary>torch profile</summary><ul>{ops}</ul></details>")
    gpus = gpu_line(report)
    if gpus:
        parts.append(f'<div style="{_MUTED}">GPUs: {escape(gpus)}</div>')
    notes, muted = report_notes(report)
    if notes:
        items = "".join(f"<li>{escape(n)}</li>" for n in notes)
        parts.append(f'<details><summary>Notes ({len(notes)})</summary><ul style="{_MUTED}">{items}</ul></details>')
    if muted:
        parts.append(f'<div style="{_MUTED}">{escape(muted)}</div>')
    parts.append("</div>")
    return "".join(parts)


def _frames(report: Report) -> list[str]:
    frames, small = visible_frames(report)
    parts = []
    for frame in frames:
        rows = "".join(
            f"<tr><td>{escape(str(c.name))}</td><td>{escape(c.dtype)}</td><td>{escape(fmt.size(c.memory_bytes))}"
            f"</td><td>{escape(c.suggested_dtype or '')}</td>"
            f"<td>{escape(fmt.size(c.saving_bytes)) if c.suggested_dtype else ''}</td><td>{escape(c.reason)}</td></tr>"
            for c in frame.columns[:MAX_COLUMNS]
        )
        parts.append(f"<details><summary>Frame {escape(frame_line(frame, report))}</summary><table><tr><th>column</th>"
                     "<th>dtype</th><th>memory</th><th>suggested</th><th>saving</th><th>why</th></tr>"
                     f"{rows}</table></details>")
    if small:
        plural = "s" if small > 1 else ""
        parts.append(f'<div style="{_MUTED}">({small} small frame{plural} under 64 KB not shown)</div>')
    return parts


def _hot_lines(report: Report) -> list[str]:
    rows = hot_rows(report, 12)
    if not rows:
        return []
    memory = memory_heading(report)
    cells = []
    for row in rows:
        h = row.hotspot
        took = ('<td></td><td></td>' if h is None else
                f'<td style="white-space:nowrap">{escape(fmt.seconds(h.seconds))}</td>'
                f'<td style="white-space:nowrap">{escape(fmt.percent(h.share))}'
                f'<div style="background:#f97316;height:6px;width:{max(1, round(h.share * 120))}px"></div></td>')
        mem = f'<td style="white-space:nowrap">{escape(memory_cell(row.memory))}</td>' if memory else ""
        cells.append(f"<tr><td>{report.cell_line(row.line)}</td>{took}{mem}"
                     f'<td style="text-align:left"><code style="white-space:pre">{escape(row.text)}</code></td>'
                     f'<td style="text-align:left">{escape((h.callee if h else "") or "")}</td></tr>')
    head = f'<th title="{escape(memory)}">memory</th>' if memory else ""
    return ["<details open><summary>Hot lines</summary><table><tr><th>line</th><th>time</th><th>share</th>"
            f'{head}<th style="text-align:left">code</th><th style="text-align:left">in</th></tr>'
            f"{''.join(cells)}</table>"
            + (f'<div style="{_MUTED}">{escape(memory)}</div>' if memory else "") + "</details>"]
