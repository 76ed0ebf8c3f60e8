"""Views of a Report. Each renderer takes a Report and returns a view; ``show`` publishes one."""

from __future__ import annotations

from typing import Any

from ..report import Report
from .frontend import can_render_widgets
from .html import render_html
from .text import render_text

__all__ = ["render_html", "render_text", "show"]


def show(report: Report, text_only: bool = False, namespace: dict[str, Any] | None = None) -> None:
    """Publish the report as one display: text for terminals, HTML for notebooks and renderings.

    In a Jupyter kernel the same display also carries the interactive panel; front ends that
    cannot show widgets (nbconvert, GitHub, a notebook reopened without its kernel) fall back to
    the HTML in it. ``namespace`` is where Try finds the cell's inputs (the user's namespace).
    """
    from IPython.display import display

    bundle: dict[str, Any] = {"text/plain": render_text(report)}
    if not text_only:
        bundle["text/html"] = render_html(report)
        bundle = _with_panel(report, bundle, namespace)
    display(bundle, raw=True)


def _with_panel(report: Report, bundle: dict[str, Any], namespace: dict[str, Any] | None) -> dict[str, Any]:
    if not can_render_widgets():
        return bundle  # a terminal or a script: no widget library is even imported
    try:
        from .panel.view import panel_bundle

        return panel_bundle(report, bundle["text/plain"], bundle["text/html"], namespace=namespace)
    except Exception as exc:  # the static views must survive any panel failure
        report.notes.append(f"interactive panel unavailable: {type(exc).__name__}: {exc}")
        return bundle
