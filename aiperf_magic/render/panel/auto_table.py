"""The interactive view of ``%aiperf report``: a plotly bar chart of the slowest cells over the table.

Only used inside a running Jupyter kernel; the same display carries the text and HTML views for
front ends that cannot show widgets (nbconvert, GitHub, a notebook reopened without its kernel).
"""

from __future__ import annotations

from html import escape
from typing import Any

import ipywidgets as widgets
import plotly.graph_objects as go

from ... import units as fmt
from ...auto.history import CellTable
from ..auto_report import render_table_html
from ..frontend import WIDGET_MIME


def bar_figure(table: CellTable) -> go.Figure:
    """Wall and CPU time of the cells shown, slowest on top; hover shows the cell's findings."""
    rows = list(reversed(table.rows))  # plotly draws the first category at the bottom
    labels = [f"#{len(rows) - i} [{r.execution_count if r.execution_count is not None else '?'}] "
              f"{escape(r.first_line[:40])}" for i, r in enumerate(rows)]
    hover = [f"wall {fmt.seconds(r.wall_s)}<br>CPU {fmt.seconds(r.cpu_s)} ({r.cores_used:.1f} cores)"
             f"<br>peak memory {fmt.size(r.peak_rss_bytes)}<br>{' '.join(r.finding_codes) or 'no findings'}"
             for r in rows]
    fig = go.Figure()
    # Plotly reads a small HTML subset (<b>, <a>, entities) in labels: the user's code is escaped above.
    fig.add_bar(y=labels, x=[r.wall_s for r in rows], orientation="h", name="wall",
                marker_color="#f97316", hovertext=hover, hoverinfo="text")
    fig.add_bar(y=labels, x=[r.cpu_s for r in rows], orientation="h", name="CPU",
                marker_color="#2563eb", hoverinfo="skip")
    fig.update_layout(barmode="group", height=80 + 28 * len(rows), margin=dict(l=10, r=10, t=30, b=30),
                      title="Slowest cells", xaxis_title="seconds", legend_orientation="h")
    fig.update_yaxes(automargin=True)
    return fig


def auto_widget(table: CellTable) -> widgets.VBox:
    table_html = widgets.HTML(render_table_html(table, chart=False))
    return widgets.VBox([go.FigureWidget(bar_figure(table)), table_html])


def auto_bundle(table: CellTable, static: dict[str, Any]) -> dict[str, Any]:
    """The static bundle plus the widget view of the same table."""
    view = auto_widget(table)
    return {**static, WIDGET_MIME: {"version_major": 2, "version_minor": 0, "model_id": view.model_id}}
