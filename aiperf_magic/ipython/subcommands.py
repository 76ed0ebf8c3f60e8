"""The ``%aiperf <subcommand>`` table and the context each subcommand receives.

Subcommands live beside the layer they belong to; this table only names them, so that loading
the extension imports none of them.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..report import Comparison, Report

# name -> "module:function"; each function is ``fn(ctx: CommandContext, argv: list[str]) -> Any``.
# Its return value becomes the line magic's result (displayed as the cell's output); None shows nothing.
SUBCOMMANDS: dict[str, str] = {
    "rules": "aiperf_magic.ipython.commands.catalog:rules_command",
    "explain": "aiperf_magic.ipython.commands.catalog:explain_command",
    "try": "aiperf_magic.ipython.commands.fixes:try_command",
    "fix": "aiperf_magic.ipython.commands.fixes:fix_command",
    "apply": "aiperf_magic.apply.bridge:apply_command",
    "auto": "aiperf_magic.ipython.commands.auto:auto_command",
    "report": "aiperf_magic.ipython.commands.auto:report_command",
}


@dataclass
class SessionState:
    """What the extension remembers between cells of one kernel."""

    last_report: Report | None = None
    reports: list[Report] = field(default_factory=list)  # bounded, newest last
    max_reports: int = 50
    extras: dict[str, Any] = field(default_factory=dict)  # per-feature state (auto mode, bridge)
    # what `%aiperf try` (or the panel's Try) measured, by the rewritten source it ran
    comparisons: dict[str, Comparison] = field(default_factory=dict)

    def remember(self, report: Report) -> None:
        self.last_report = report
        self.reports.append(report)
        del self.reports[: -self.max_reports]


@dataclass
class CommandContext:
    shell: Any  # the InteractiveShell
    state: SessionState

    @property
    def user_ns(self) -> dict[str, Any]:
        return self.shell.user_ns  # type: ignore[no-any-return]


def resolve(name: str) -> Callable[[CommandContext, list[str]], Any] | None:
    target = SUBCOMMANDS.get(name)
    if target is None:
        return None
    module_name, func = target.split(":")
    return getattr(importlib.import_module(module_name), func)  # type: ignore[no-any-return]
