"""Static HTML view of a Report: for nbconvert, GitHub and any frontend without widgets.

Every string that comes from the user (source lines, messages, names, notes) goes through
``html.escape``; the only markup is ours.
"""

from __future__ import annotations

from html import escape

from .. import units as fmt
from ..report import Report, Samples
from .summary import (
    cpu_wait_line,
    gpu_line,
    headline,
    timeline,
    torch_profile_lines,
    verdict_details,
    visible_frames,
)
from .text import hidden_note

_STYLE = (
    "font-family:var(--jp-ui-font-family,system-ui,sans-serif);font-size:13px;line-height:1.45;"
    "border:1px solid var(--jp-border-color2,#ddd);border-radius:6px;padding:8px 12px;max-width:980px"
)
_BADGE = "display:inline-block;padding:1px 6px;border-radius:4px;font-weight:600;margin-right:6px;"


def render_html(report: Report) -> str:
    parts = [f'<div class="aiperf-report" style="{_STYLE}">']
    cell = f" [{report.execution_count}]" if report.execution_count is not None else ""
    head = " · ".join(f"<b>{escape(label)}</b> {escape(value)}" for label, value in headline(report))
    parts.append(f"<div><span style=\"{_BADGE}background:#eef\">aiperf{escape(cell)}</span>{head}</div>")
    if report.error is not None:
        where = f" (line {report.cell_line(report.error.line)})" if report.error.line else ""
        parts.append(f'<div style="color:#b00">cell raised <code>{escape(report.error.type)}</code>: '
                     f"{escape(report.error.message)}{escape(where)}</div>")
    if report.verdict is not None:
        v = report.verdict
        parts.append(f'<div><span style="{_BADGE}background:#fde68a">{escape(v.code)} {escape(v.title)}'
                     f"</span>{escape(v.sentence)}</div>")
        details = "".join(f"<li>{escape(line)}</li>" for line in verdict_details(report))
        if details:
            parts.append(f'<ul style="margin:2px 0 4px 18px;color:#444">{details}</ul>')
    wait = cpu_wait_line(report)
    if wait:
        parts.append(f'<div style="color:#666">{escape(wait)}</div>')
    gpus = gpu_line(report)
    if gpus:
        parts.append(f"<div>GPUs: {escape(gpus)}</div>")
    spark = _sparklines(report.samples)
    series = timeline(report)
    if series:
        rows = "".join(f"<tr><td>{escape(a)}</td><td>{escape(b)}</td></tr>" for a, b in series)
        parts.append(f"<details open><summary>Timeline</summary>{spark}<table>{rows}</table></details>")
    if report.hotspots:
        rows = "".join(
            f"<tr><td>{report.cell_line(h.line)}</td><td>{escape(fmt.seconds(h.seconds))}</td><td>{escape(fmt.percent(h.share))}"
            f'<div style="background:#f97316;height:6px;width:{max(1, round(h.share * 120))}px"></div></td>'
            f"<td><code>{escape(h.text)}</code></td><td>{escape(h.callee or '')}</td></tr>"
            for h in report.hotspots[:12]
        )
        parts.append("<details open><summary>Hot lines</summary><table><tr><th>line</th><th>time</th>"
                     f"<th>share</th><th>code</th><th>callee</th></tr>{rows}</table></details>")
    findings = [f for f in report.findings if f.code != getattr(report.verdict, "code", None)]
    hidden = [f for f in findings if not f.shown]
    findings = [f for f in findings if f.shown]
    if hidden:
        parts.append(f'<div style="color:#666">({escape(hidden_note(hidden))})</div>')
    if findings:
        items = []
        for f in findings:
            fix = ""
            if f.fix is not None and f.fix.source:
                fix = (f"<details><summary>fix: {escape(f.fix.title)} ({escape(f.fix.safety)})</summary>"
                       f"<pre>{escape(f.fix.diff)}</pre></details>")
            where = f"line {report.cell_line(f.line)}" if f.line else "cell"
            items.append(f"<li><b>{escape(f.code)}</b> {escape(where)}: {escape(f.message)}{fix}</li>")
        parts.append(f"<details open><summary>Findings</summary><ul>{''.join(items)}</ul></details>")
    frames, small = visible_frames(report)
    for frame in frames:
        rows = "".join(
            f"<tr><td>{escape(str(c.name))}</td><td>{escape(c.dtype)}</td><td>{escape(fmt.size(c.memory_bytes))}"
            f"</td><td>{escape(c.suggested_dtype or '')}</td><td>{escape(fmt.size(c.saving_bytes))}</td>"
            f"<td>{escape(c.reason)}</td></tr>"
            for c in frame.columns
        )
        parts.append(f"<details><summary>Frame {escape(frame.name)}: {frame.rows:,} rows, "
                     f"{escape(fmt.size(frame.memory_bytes))}</summary><table><tr><th>column</th><th>dtype</th>"
                     f"<th>memory</th><th>suggested</th><th>saving</th><th>why</th></tr>{rows}</table></details>")
    if small:
        plural = "s" if small > 1 else ""
        parts.append(f'<div style="color:#666">({small} small frame{plural} under 64 KB not shown)</div>')
    prof = torch_profile_lines(report)
    if prof:
        ops = "".join(f"<li>{escape(line)}</li>" for line in prof)
        parts.append(f"<details><summary>torch profile</summary><ul>{ops}</ul></details>")
    if report.notes:
        notes = "".join(f"<li>{escape(n)}</li>" for n in report.notes)
        parts.append(f'<details><summary>Notes</summary><ul style="color:#666">{notes}</ul></details>')
    parts.append("</div>")
    return "".join(parts)


def _sparklines(samples: Samples, width: int = 360, height: int = 40) -> str:
    """Tiny inline SVG lines (process CPU in blue, RSS in green), scaled to their own maxima."""
    if len(samples.t) < 2:
        return ""
    span = samples.t[-1] - samples.t[0] or 1.0
    lines = []
    for values, colour in ((samples.cpu_percent, "#2563eb"), (samples.rss_bytes, "#16a34a")):
        points = [(t, v) for t, v in zip(samples.t, values, strict=False) if v is not None]
        top = max((v for _, v in points), default=0) or 1
        coords = " ".join(f"{(t - samples.t[0]) / span * width:.1f},{height - v / top * (height - 2):.1f}"
                          for t, v in points)
        if coords:
            lines.append(f'<polyline fill="none" stroke="{colour}" stroke-width="1.5" points="{coords}"/>')
    return (f'<svg width="{width}" height="{height}" role="img" aria-label="CPU and memory over time">'
            f"{''.join(lines)}</svg>")
