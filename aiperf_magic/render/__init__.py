"""Views of a Report. Each renderer takes a Report and returns a view; ``show`` publishes one."""

from __future__ import annotations

from ..report import Report
from .html import render_html
from .text import render_text

__all__ = ["render_html", "render_text", "show"]


def show(report: Report, text_only: bool = False) -> None:
    """Publish the report as one display: text for terminals, HTML for notebooks and renderings."""
    from IPython.display import display

    bundle = {"text/plain": render_text(report)}
    if not text_only:
        bundle["text/html"] = render_html(report)
    display(bundle, raw=True)
