"""Views of a Report. Each renderer takes a Report and returns a view; :func:`report_bundle` gathers
the views one display carries. The only part that imports ipywidgets or plotly (in ``panel/``)."""

from __future__ import annotations

from typing import Any

from ..report import Report
from .frontend import can_render_widgets
from .html import render_html
from .text import render_text

__all__ = ["render_html", "render_text", "report_bundle"]


def report_bundle(report: Report, text_only: bool = False, namespace: dict[str, Any] | None = None) -> dict[str, Any]:
    """The report as one display bundle: text for terminals, HTML for notebooks and renderings, and
    in a Jupyter kernel the interactive panel (front ends without widgets fall back to the HTML)."""
    bundle: dict[str, Any] = {"text/plain": render_text(report)}
    if not text_only:
        bundle["text/html"] = render_html(report)
        bundle = _with_panel(report, bundle, namespace)
    return bundle


def _with_panel(report: Report, bundle: dict[str, Any], namespace: dict[str, Any] | None) -> dict[str, Any]:
    if not can_render_widgets():
        return bundle  # a terminal or a script: no widget library is even imported
    try:
        from .panel.view import panel_bundle

        return panel_bundle(report, bundle["text/plain"], bundle["text/html"], namespace=namespace)
    except Exception as exc:  # the static views must survive any panel failure
        report.notes.append(f"interactive panel unavailable: {type(exc).__name__}: {exc}")
        return bundle
