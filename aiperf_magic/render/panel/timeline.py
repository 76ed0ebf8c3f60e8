"""The panel's Timeline: a plotly FigureWidget of the samples taken while the cell ran.

Rows appear only for what was measured: CPU (the process, in cores, over a per-core heatmap),
memory (RSS), and per GPU its utilisation and memory. The time axis switches to minutes or hours
for long cells so a one-second and a one-hour run both read well.
"""

from __future__ import annotations

from typing import Any

import plotly.graph_objects as go
from plotly.subplots import make_subplots

from ...report import Samples

GIB = 1024**3


def time_axis(t: list[float]) -> tuple[list[float], str]:
    """Sample times in the unit that suits the run's length, and that unit's name."""
    end = t[-1] if t else 0.0
    if end >= 2 * 3600:
        return [x / 3600 for x in t], "hours"
    if end >= 2 * 60:
        return [x / 60 for x in t], "minutes"
    return list(t), "seconds"


def _gib(values: list[int | None]) -> list[float | None]:
    return [None if v is None else v / GIB for v in values]


def _has(values: list[Any]) -> bool:
    return any(v is not None for v in values)


def _rows(samples: Samples) -> list[str]:
    rows = []
    if _has(samples.cpu_percent):
        rows.append("CPU")
    if _has(samples.cpu_per_core):
        rows.append("Per core")
    if _has(samples.rss_bytes):
        rows.append("Memory")
    for gpu in samples.gpus:
        if _has(gpu.util_percent) or _has(gpu.mem_used_bytes):
            rows.append(f"GPU {gpu.index}")
    return rows


def timeline_figure(samples: Samples, figure: Any = None) -> Any:
    """The samples drawn into ``figure`` (a new Figure by default), or None when nothing was sampled.

    Traces are added to the final figure directly: plotly validates every point once on the way
    in, so building a Figure and then copying it into a FigureWidget would pay that twice.
    """
    rows = _rows(samples)
    if not samples.t or not rows:
        return None
    x, unit = time_axis(samples.t)
    fig = make_subplots(
        figure=figure if figure is not None else go.Figure(),
        rows=len(rows),
        cols=1,
        shared_xaxes=True,
        vertical_spacing=0.06,
        subplot_titles=rows,
        specs=[[{"secondary_y": name.startswith("GPU")}] for name in rows],
    )
    for r, name in enumerate(rows, 1):
        if name == "CPU":
            cores = [None if v is None else v / 100 for v in samples.cpu_percent]
            fig.add_trace(go.Scatter(x=x, y=cores, name="process CPU (cores)", mode="lines"), row=r, col=1)
            fig.update_yaxes(title_text="cores", rangemode="tozero", row=r, col=1)
        elif name == "Per core":
            width = max((len(c) for c in samples.cpu_per_core if c), default=0)
            z = [[(c[i] if c and i < len(c) else None) for c in samples.cpu_per_core] for i in range(width)]
            fig.add_trace(
                go.Heatmap(x=x, z=z, zmin=0, zmax=100, colorscale="Blues", showscale=False, name="per-core CPU %"),
                row=r,
                col=1,
            )
            # one row per core, labelled by its number while the labels stay readable
            fig.update_yaxes(title_text="core", dtick=1 if width <= 16 else None, row=r, col=1)
        elif name == "Memory":
            fig.add_trace(go.Scatter(x=x, y=_gib(samples.rss_bytes), name="RSS (GiB)", mode="lines"), row=r, col=1)
            fig.update_yaxes(title_text="GiB", rangemode="tozero", row=r, col=1)
        else:
            gpu = next(g for g in samples.gpus if f"GPU {g.index}" == name)
            fig.add_trace(go.Scatter(x=x, y=gpu.util_percent, name=f"{name} util %", mode="lines"), row=r, col=1)
            fig.add_trace(
                go.Scatter(x=x, y=_gib(gpu.mem_used_bytes), name=f"{name} memory (GiB)", mode="lines"),
                row=r,
                col=1,
                secondary_y=True,
            )
            fig.update_yaxes(title_text="util %", range=[0, 100], row=r, col=1, secondary_y=False)
            fig.update_yaxes(title_text="GiB", rangemode="tozero", row=r, col=1, secondary_y=True)
    fig.update_xaxes(title_text=unit, row=len(rows), col=1)
    fig.update_layout(
        height=150 + 140 * len(rows),
        margin={"l": 60, "r": 30, "t": 40, "b": 40},
        legend={"orientation": "h", "y": -0.15},
        template="plotly_white",
    )
    return fig


def timeline_widget(samples: Samples) -> Any:
    """A FigureWidget for the panel, or None when nothing was sampled."""
    return timeline_figure(samples, go.FigureWidget())


def comparison_figure(before_s: float, after_s: float) -> Any:
    """Before vs after bars for a tried fix (median seconds)."""
    fig = go.Figure(go.Bar(x=["before", "after"], y=[before_s, after_s], text=[f"{before_s:.3g}s", f"{after_s:.3g}s"]))
    fig.update_layout(
        height=220,
        width=320,
        margin={"l": 40, "r": 10, "t": 30, "b": 30},
        title="median time",
        template="plotly_white",
    )
    return go.FigureWidget(fig)
