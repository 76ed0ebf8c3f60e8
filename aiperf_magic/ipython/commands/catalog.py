"""``%aiperf rules [PREFIX...]`` and ``%aiperf explain CODE``."""

from __future__ import annotations

from typing import Any

from ...rules.catalog import RuleDoc, RuleTable, catalog, explain


def rules_command(ctx: Any, argv: list[str]) -> RuleTable:
    """The catalog; ``%aiperf rules AIP3`` shows only the pandas family."""
    return catalog(argv or None)


def explain_command(ctx: Any, argv: list[str]) -> RuleDoc:
    """One rule's documentation: ``%aiperf explain AIP301``."""
    if len(argv) != 1:
        return RuleDoc(None, "Usage: %aiperf explain CODE   (for example: %aiperf explain AIP301)")
    return explain(argv[0])
