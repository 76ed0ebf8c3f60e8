"""``%aiperf rules [PREFIX...]`` and ``%aiperf explain CODE``."""

from __future__ import annotations

from typing import Any

from IPython.core.error import UsageError

from ...rules.catalog import RuleDoc, RuleTable, catalog, explain


def rules_command(ctx: Any, argv: list[str]) -> RuleTable:
    """The catalog; ``%aiperf rules AIP3`` shows only the pandas family."""
    return catalog(argv or None)


def explain_command(ctx: Any, argv: list[str]) -> RuleDoc:
    """One code's documentation: ``%aiperf explain AIP301`` (rules and verdicts alike)."""
    if len(argv) != 1:
        raise UsageError("usage: %aiperf explain CODE   (for example: %aiperf explain AIP301)")
    doc = explain(argv[0])
    if doc.rule is None:
        raise UsageError(doc.error)
    return doc
