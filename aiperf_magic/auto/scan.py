"""The static scan auto mode runs on every cell, keeping what earlier cells imported and defined."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..report import Finding

PARSE_ERROR = "AIP000"  # IPython itself reports a cell that does not parse


class StaticScan:
    """``scan(source, namespace)`` → findings. The rule engine (libcst) loads on the first cell."""

    def __init__(self) -> None:
        self._context: Any = None
        self.note: str | None = None

    def __call__(self, source: str, namespace: Mapping[str, Any] | None = None) -> list[Finding]:
        from ..rules import Context, analyze

        if self._context is None:
            self._context = Context()
        try:
            # Fixes are not needed for a one-line note; they are computed when the user asks.
            findings = analyze(source, namespace=namespace, context=self._context, fixes=False)
        except Exception as exc:  # a rule that trips on odd code must not cost the cell its record
            self.note = f"static scan failed on a cell: {type(exc).__name__}: {exc}"
            return []
        return [f for f in findings if f.code != PARSE_ERROR]
