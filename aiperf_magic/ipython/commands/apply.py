"""``%aiperf apply N``: put a finding's rewrite in a new cell below, for you to run.

The original cell is left as it was. This is the fallback when the notebook extension is missing;
it works in any front end that honours ``set_next_input`` (JupyterLab, Notebook, VS Code, the
IPython terminal), and is called while a cell executes, never from a widget callback.
"""

from __future__ import annotations

from typing import Any

from IPython.core.error import UsageError

from ...apply.bridge import cell_text
from ..subcommands import ADDRESS, CommandContext, Parser, finding_at, last_report
from .fixes import ensure_fix, tried_key


def apply_command(ctx: CommandContext, argv: list[str]) -> None:
    parser = Parser(prog="%aiperf apply", add_help=False)
    parser.add_argument("address", metavar=ADDRESS)
    args = parser.parse_args(argv)
    report = last_report(ctx)
    n, finding = finding_at(report, args.address)
    ensure_fix(report, finding, ctx.user_ns)
    fix = finding.fix
    if fix is None or not fix.source:
        why = fix.reason if fix is not None and fix.reason else "this rule offers no automatic rewrite"
        raise UsageError(f"Finding {n} ({finding.code}) has no rewrite: {why}.")
    note = _tried_note(ctx.state.comparisons.get(tried_key(fix)), fix.safety)
    if fix.cell:  # the rewrite is of a function an earlier cell defined: its definition, for that cell
        ctx.shell.set_next_input(fix.rebind, replace=False)
        print(f"Inserted the rewritten definition for finding {n} ({finding.code}: {fix.title}) as the next cell: "
              f"it replaces the one in {fix.cell}. Put it there (or run it here), then run this cell again.{note}")
        return
    # replace=False: a new cell below, so nothing the user wrote is overwritten.
    ctx.shell.set_next_input(cell_text(report, fix.source), replace=False)
    print(f"Inserted the rewrite for finding {n} ({finding.code}: {fix.title}) as the next cell.{note}")


def _tried_note(tried: Any, safety: str) -> str:
    """What ``%aiperf try`` proved about this rewrite, for the line printed after inserting it."""
    if tried is None:
        return " It was not checked for equal results; try it first." if safety == "unsafe" else ""
    if tried.blocked:
        return f" It was not tried: {tried.blocked} (a try never repeats that); check it before relying on it."
    if tried.error or tried.refused:
        return " Its try did not complete; check it before relying on it."
    if not tried.equal:
        return f" Careful: its try gave different results ({tried.difference})."
    speed = f", {tried.speedup:.1f}x faster" if tried.speedup else ""
    return f" Its try gave equal results{speed}."
