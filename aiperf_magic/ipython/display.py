"""Publishing a Report in the shell: the panel (in Jupyter) and the static text and HTML views."""

from __future__ import annotations

from typing import Any

from IPython.display import display

from ..render import report_outputs
from ..report import Report


def show(report: Report, text_only: bool = False, namespace: dict[str, Any] | None = None) -> None:
    """In Jupyter the panel comes first and the static views after it, as their own output: front
    ends that draw the panel hide them, and nbconvert, GitHub or a notebook reopened without its
    kernel show them. ``namespace`` is where Try finds the cell's inputs (the user's namespace)."""
    for bundle in report_outputs(report, text_only=text_only, namespace=namespace):
        display(bundle, raw=True)
