"""Publishing a Report in the shell: one display carrying text, HTML and (in Jupyter) the panel."""

from __future__ import annotations

from typing import Any

from IPython.display import display

from ..render import report_bundle
from ..report import Report


def show(report: Report, text_only: bool = False, namespace: dict[str, Any] | None = None) -> None:
    """Front ends that cannot show widgets (nbconvert, GitHub, a notebook reopened without its
    kernel) fall back to the HTML in the same display. ``namespace`` is where Try finds the cell's
    inputs (the user's namespace)."""
    display(report_bundle(report, text_only=text_only, namespace=namespace), raw=True)
