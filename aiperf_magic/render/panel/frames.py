"""The panel's DataFrames: per frame the columns with dtype, memory, suggestion and saving.

"Try downcast" and "Apply" act on the frame's own dtype fix: the AIP303 finding whose rewrite
ends with this frame's ``astype`` statement, so the frame tab and the finding share one Fix.
"""

from __future__ import annotations

from typing import Any

import ipywidgets as widgets

from ... import units as fmt
from ...report import Fix, FrameProfile, Report
from ..summary import visible_frames
from .actions import PanelContext
from .findings import CARD_LAYOUT, FixControls
from .html import MUTED, code_block, esc


def frame_fix(report: Report, frame: FrameProfile) -> tuple[int, Fix] | None:
    """(finding number, Fix) of the dtype fix for ``frame``, when the report has one."""
    if not frame.fix_source:
        return None
    for n, finding in enumerate(report.findings, 1):
        fix = finding.fix
        if fix is not None and fix.source and fix.source.rstrip("\n").endswith(frame.fix_source.strip()):
            return n, fix
    return None


def columns_table(frame: FrameProfile) -> str:
    head = "".join(f"<th>{h}</th>" for h in ("column", "dtype", "memory", "suggestion", "saving", "why"))
    rows = []
    for c in frame.columns:
        suggestion = c.suggested_dtype or ""
        if suggestion and not c.safe:
            suggestion += " (lossy)"
        rows.append(
            f"<tr><td>{esc(c.name)}</td><td>{esc(c.dtype)}</td><td>{esc(fmt.size(c.memory_bytes))}</td>"
            f"<td>{esc(suggestion)}</td><td>{esc(fmt.size(c.saving_bytes) if c.saving_bytes else '')}</td>"
            f'<td style="color:{MUTED}">{esc(c.reason)}</td></tr>'
        )
    return f'<table class="aiperf-columns" style="border-spacing:12px 2px"><tr>{head}</tr>{"".join(rows)}</table>'


class FrameCard:
    def __init__(self, ctx: PanelContext, frame: FrameProfile) -> None:
        saving = f", could save {fmt.size(frame.saving_bytes)}" if frame.saving_bytes else ""
        head = widgets.HTML(
            f"<div><b>{esc(frame.name)}</b> {esc(frame.kind)}: {frame.rows:,} rows, "
            f"{esc(fmt.size(frame.memory_bytes))}{esc(saving)}</div>"
        )
        parts: list[Any] = [head, widgets.HTML(columns_table(frame))]
        parts.extend(widgets.HTML(f'<div style="color:{MUTED}">{esc(note)}</div>') for note in frame.notes)
        self.controls: FixControls | None = None
        found = frame_fix(ctx.report, frame)
        if found is not None:
            n, fix = found
            self.controls = FixControls(ctx, n, fix, try_label="Try downcast")
            parts.extend(self.controls.parts)
        elif frame.fix_source:
            parts.append(widgets.HTML(code_block(frame.fix_source)))
        self.view = widgets.VBox(parts, layout=CARD_LAYOUT)
        self.view.add_class("aiperf-card")


def frames_view(ctx: PanelContext) -> tuple[Any, list[FrameCard]]:
    shown, small = visible_frames(ctx.report)
    cards = [FrameCard(ctx, f) for f in shown]
    rest = f" ({small} small frame{'s' if small > 1 else ''} under 64 KB not shown)" if small else ""
    if not cards:
        text = "No DataFrame was created or changed." if not small else f"No large DataFrame.{rest}"
        return widgets.HTML(f'<div style="color:{MUTED}">{esc(text)}</div>'), cards
    items = [c.view for c in cards]
    if rest:
        items.append(widgets.HTML(f'<div style="color:{MUTED}">{esc(rest.strip(" ()"))}</div>'))
    return widgets.VBox(items), cards
