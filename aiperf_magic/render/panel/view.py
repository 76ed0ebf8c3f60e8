"""The interactive panel: a Report as ipywidgets and plotly, with Try / Apply / Undo.

This module and its ``widget_*`` parts are the only ones that import ipywidgets or plotly. The
panel renders what the Report holds and calls the library for anything new (``verify`` for Try,
the bridge for Apply and Undo); it measures nothing itself.

Sections, top to bottom: header (times, memory, verdict), Timeline, Hot lines, Findings,
DataFrames, Notes. ``panel_bundle`` puts the widget view in one display with the static text and
HTML views, so terminals, nbconvert and GitHub show those instead.
"""

from __future__ import annotations

from typing import Any

import ipywidgets as widgets

from ... import units as fmt
from ...apply.bridge import Bridge
from ...report import Report
from ..frontend import WIDGET_MIME
from ..summary import gpu_line, headline
from .actions import PanelContext, Verify, shared_bridge
from .findings import findings_view
from .frames import frames_view
from .html import BAD_COLOR, MUTED, esc
from .timeline import timeline_widget

MAX_HOTSPOTS = 12


def header_html(report: Report) -> str:
    cell = f" [{report.execution_count}]" if report.execution_count is not None else ""
    items = " · ".join(f"<b>{esc(label)}</b> {esc(value)}" for label, value in headline(report))
    parts = [f'<div class="aiperf-header"><span class="aiperf-badge">aiperf{esc(cell)}</span> {items}</div>']
    if report.verdict is not None:
        v = report.verdict
        parts.append(
            '<div class="aiperf-verdict"><span style="background:#fde68a;padding:1px 6px;border-radius:4px;'
            f'font-weight:600">{esc(v.code)} {esc(v.title)}</span> {esc(v.sentence)}</div>'
        )
    if report.error is not None:
        where = f" (line {report.cell_line(report.error.line)})" if report.error.line else ""
        parts.append(
            f'<div style="color:{BAD_COLOR}">cell raised <code>{esc(report.error.type)}</code>: '
            f"{esc(report.error.message)}{esc(where)}</div>"
        )
    gpus = gpu_line(report)
    if gpus:
        parts.append(f'<div style="color:{MUTED}">GPUs: {esc(gpus)}</div>')
    return "".join(parts)


def hotspots_html(report: Report) -> str:
    if not report.hotspots:
        return f'<div style="color:{MUTED}">No line took a measurable share of the samples.</div>'
    rows = []
    for h in report.hotspots[:MAX_HOTSPOTS]:
        bar = f'<div style="background:#f97316;height:8px;width:{max(1, round(h.share * 160))}px"></div>'
        rows.append(
            f"<tr><td>{report.cell_line(h.line)}</td><td><code>{esc(h.text)}</code></td><td>{bar}</td>"
            f"<td>{esc(fmt.percent(h.share))}</td><td>{esc(fmt.seconds(h.seconds))}</td>"
            f"<td>{esc(h.callee or '')}</td></tr>"
        )
    head = "".join(f"<th>{h}</th>" for h in ("line", "code", "", "share", "time", "top callee"))
    return f'<table class="aiperf-hotspots" style="border-spacing:12px 2px"><tr>{head}</tr>{"".join(rows)}</table>'


def _section(title: str) -> Any:
    return widgets.HTML(f'<h4 style="margin:10px 0 2px">{esc(title)}</h4>')


class Panel:
    """The widget tree for one Report; its cards stay reachable for tests and callers."""

    def __init__(self, ctx: PanelContext) -> None:
        report = ctx.report
        self.ctx = ctx
        parts: list[Any] = [widgets.HTML(header_html(report))]
        parts.append(_section("Timeline"))
        self.timeline = timeline_widget(report.samples)
        if self.timeline is None:
            parts.append(widgets.HTML(f'<div style="color:{MUTED}">Too short to sample.</div>'))
        else:
            parts.append(self.timeline)
        parts += [_section("Hot lines"), widgets.HTML(hotspots_html(report))]
        findings, self.findings = findings_view(ctx)
        parts += [_section(f"Findings ({len(self.findings)})"), findings]
        frames, self.frames = frames_view(ctx)
        parts += [_section("DataFrames"), frames]
        if report.notes:
            notes = "".join(f"<li>{esc(n)}</li>" for n in report.notes)
            parts += [_section("Notes"), widgets.HTML(f'<ul style="color:{MUTED}">{notes}</ul>')]
        self.view = widgets.VBox(parts, layout={"max_width": "1000px"})
        self.view.add_class("aiperf-panel")


def build_panel(
    report: Report,
    *,
    verify: Verify | None = None,
    bridge: Bridge | None = None,
    namespace: dict[str, Any] | None = None,
) -> Panel:
    ctx = PanelContext(report, bridge=bridge or shared_bridge())
    if verify is not None:
        ctx.verify = verify
    if namespace is not None:
        ctx.namespace = namespace
    return Panel(ctx)


def panel_bundle(report: Report, text: str, html: str, **deps: Any) -> dict[str, Any]:
    """One display with the widget view and the static views that stand in where widgets cannot."""
    panel = build_panel(report, **deps)
    return {
        "text/plain": text,
        "text/html": html,
        WIDGET_MIME: {"version_major": 2, "version_minor": 0, "model_id": panel.view.model_id},
    }
