"""Views of a Report. Each renderer takes a Report and returns a view; :func:`report_outputs` gathers
the outputs one report is shown as. The only part that imports ipywidgets, anywidget or plotly
(in ``panel/``)."""

from __future__ import annotations

from typing import Any

from ..report import Report
from .frontend import can_render_widgets
from .html import render_html
from .text import render_text

__all__ = ["render_html", "render_text", "report_bundle", "report_outputs"]


def report_bundle(report: Report, text_only: bool = False) -> dict[str, Any]:
    """The static views of a report in one bundle: text for terminals, HTML for notebooks,
    nbconvert and GitHub."""
    bundle: dict[str, Any] = {"text/plain": render_text(report)}
    if not text_only:
        bundle["text/html"] = render_html(report)
    return bundle


def report_outputs(
    report: Report, text_only: bool = False, namespace: dict[str, Any] | None = None
) -> list[dict[str, Any]]:
    """The outputs that show a report: in a Jupyter kernel the interactive panel, then the static
    bundle (which front ends drawing the panel hide); elsewhere the static bundle alone."""
    bundle = report_bundle(report, text_only)
    if text_only:
        return [bundle]
    return _with_panel(report, bundle, namespace)


def _with_panel(report: Report, bundle: dict[str, Any], namespace: dict[str, Any] | None) -> list[dict[str, Any]]:
    if not can_render_widgets():
        return [bundle]  # a terminal or a script: no widget library is even imported
    try:
        from .panel.view import panel_outputs

        return panel_outputs(report, bundle["text/plain"], bundle["text/html"], namespace=namespace)
    except Exception as exc:  # the static views must survive any panel failure
        report.notes.append(f"interactive panel unavailable: {type(exc).__name__}: {exc}")
        return [bundle]
