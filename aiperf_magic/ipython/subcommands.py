"""The ``%aiperf <subcommand>`` table, the context each subcommand receives, and what they share.

Subcommands live in :mod:`.commands`; this table only names them, so that loading the extension
imports none of them. Every usage error is an IPython ``UsageError`` (a red one-line message, no
traceback), and a finding is addressed the same way everywhere: ``N`` (its number in the last
report), ``CODE`` (the first finding of that rule) or ``CODE:LINE``.
"""

from __future__ import annotations

import argparse
import importlib
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from IPython.core.error import UsageError

from ..report import Comparison, Finding, Report

# name -> "module:function"; each function is ``fn(ctx: CommandContext, argv: list[str]) -> Any``.
# Its return value becomes the line magic's result (displayed as the cell's output); None shows nothing.
SUBCOMMANDS: dict[str, str] = {
    "rules": "aiperf_magic.ipython.commands.catalog:rules_command",
    "explain": "aiperf_magic.ipython.commands.catalog:explain_command",
    "try": "aiperf_magic.ipython.commands.fixes:try_command",
    "fix": "aiperf_magic.ipython.commands.fixes:fix_command",
    "apply": "aiperf_magic.ipython.commands.apply:apply_command",
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


ADDRESS = "N | CODE | CODE:LINE"


class Parser(argparse.ArgumentParser):
    """argparse for a subcommand: a bad argument is a UsageError with the usage line, never an exit."""

    def error(self, message: str) -> Any:
        raise UsageError(f"{self.prog}: {message}\nusage: {self.format_usage().split(':', 1)[1].strip()}")


def last_report(ctx: CommandContext) -> Report:
    report = ctx.state.last_report
    if report is None:
        raise UsageError("No %%aiperf cell has run yet in this kernel: run a cell with %%aiperf first.")
    return report


def finding_at(report: Report, address: str) -> tuple[int, Finding]:
    """The finding ``address`` names in ``report``, and its 1-based number there.

    ``3`` is the third finding as numbered in the panel and the text report; ``AIP301`` the first
    AIP301; ``AIP301:4`` the AIP301 on line 4 of the cell (lines as the report shows them).
    """
    findings = report.findings
    token = address.strip()
    if token.isdigit():
        n = int(token)
        if 1 <= n <= len(findings):
            return n, findings[n - 1]
        raise UsageError(f"There is no finding {n}: the last report has {len(findings)}.")
    code, _, line = token.upper().partition(":")
    if not re.fullmatch(r"AIP\d{3}", code) or (line and not line.isdigit()):
        raise UsageError(f"{address!r} is not a finding: give {ADDRESS}, e.g. 2, AIP301 or AIP301:4")
    for n, finding in enumerate(findings, 1):
        if finding.code == code and (not line or _shown_line(report, finding) == int(line)):
            return n, finding
    present = ", ".join(f"{f.code}:{_shown_line(report, f)}" for f in findings) or "none"
    where = f" on line {line}" if line else ""
    raise UsageError(f"The last %%aiperf cell has no {code} finding{where}. Its findings: {present}.")


def _shown_line(report: Report, finding: Finding) -> int | None:
    return report.cell_line(finding.line) if finding.line is not None else None
