"""``%aiperf try CODE`` and ``%aiperf fix``: try a finding's rewrite on copies of the user's data, or
show the whole rewritten cell with its diff. Both work on the last ``%%aiperf`` cell's Report."""

from __future__ import annotations

from dataclasses import dataclass
from html import escape
from typing import Any

from ..commands import CommandContext
from ..report import Comparison, Finding, Report

USAGE_TRY = "usage: %aiperf try CODE[:LINE] [--repeat N] [--timeout SECONDS] [--allow-io]   e.g. %aiperf try AIP301:4"
USAGE_FIX = "usage: %aiperf fix [CODE ...] [--unsafe]"


@dataclass
class Message:
    """A sentence shown as the line magic's result (text and escaped HTML)."""

    text: str

    def _repr_pretty_(self, p: Any, cycle: bool) -> None:
        p.text(self.text)

    def _repr_html_(self) -> str:
        return f'<pre class="aiperf-message">{escape(self.text)}</pre>'

    def __repr__(self) -> str:
        return self.text


@dataclass
class CellFix:
    """The rewritten cell and its diff, as ``%aiperf fix`` shows it."""

    source: str
    diff: str
    applied: list[str]
    skipped: list[str]

    def text(self) -> str:
        head = f"aiperf fix: applied {', '.join(self.applied)}" if self.applied else "aiperf fix: no fix applied"
        parts = [head, *(f"  not applied: {s}" for s in self.skipped)]
        if self.diff:
            parts += [
                "",
                "--- rewritten cell ---",
                self.source.rstrip("\n"),
                "",
                "--- diff ---",
                self.diff.rstrip("\n"),
            ]
        return "\n".join(parts)

    def _repr_pretty_(self, p: Any, cycle: bool) -> None:
        p.text(self.text())

    def _repr_html_(self) -> str:
        skipped = "".join(f"<li>{escape(s)}</li>" for s in self.skipped)
        head = escape(f"applied {', '.join(self.applied)}" if self.applied else "no fix applied")
        return (
            f'<div class="aiperf-fix"><div><b>aiperf fix</b>: {head}</div>'
            + (f"<ul>{skipped}</ul>" if skipped else "")
            + (f"<pre>{escape(self.source)}</pre><pre>{escape(self.diff)}</pre>" if self.diff else "")
            + "</div>"
        )


def _last(ctx: CommandContext) -> Report | Message:
    report = ctx.state.last_report
    if report is None:
        return Message("No %%aiperf cell has run yet in this kernel: run a cell with %%aiperf first.")
    return report


def _ensure_fix(report: Report, finding: Finding) -> None:
    if finding.fix is None:
        from . import propose

        finding.fix = propose(report.source, finding)


def try_command(ctx: CommandContext, argv: list[str]) -> Comparison | Message:
    """Run the last cell and the rewrite for ``CODE`` on copies of the data; show the Comparison."""
    opts: dict[str, float] = {}
    args = list(argv)
    allow_io = "--allow-io" in args
    args = [a for a in args if a != "--allow-io"]
    for flag in ("--repeat", "--timeout"):
        if flag in args:
            i = args.index(flag)
            try:
                opts[flag] = float(args[i + 1])
            except (IndexError, ValueError):
                return Message(f"{flag} needs a number\n{USAGE_TRY}")
            del args[i : i + 2]
    if len(args) != 1:
        return Message(USAGE_TRY)
    report = _last(ctx)
    if isinstance(report, Message):
        return report
    code, _, line = args[0].upper().partition(":")
    if line and not line.isdigit():
        return Message(USAGE_TRY)
    matches = [f for f in report.findings if f.code == code and (not line or f.line == int(line))]
    if not matches:
        present = sorted({f.code for f in report.findings})
        return Message(
            f"The last %%aiperf cell has no {code} finding{' on line ' + line if line else ''}."
            + (f" Its findings: {', '.join(present)}." if present else " It had no findings.")
        )
    for f in matches:
        _ensure_fix(report, f)
    finding = next((f for f in matches if f.fix is not None and f.fix.source), matches[0])
    if finding.fix is None or not finding.fix.source:
        reason = finding.fix.reason if finding.fix is not None else "no rewrite exists for this rule"
        return Message(f"{code} (line {finding.line}) has no fix to try: {reason}.")
    from ..verification import planned_runs, verify

    repeat = int(opts.get("--repeat", 5))
    show = _progress_line()
    if allow_io:  # said before anything runs: the writes are real, and how many times they happen
        show(0, 0, f"--allow-io: the cell's writes run for real, {planned_runs(repeat)} times for each version")
    comparison = verify(
        report.source,
        finding.fix.source,
        ctx.user_ns,
        repeat=repeat,
        timeout_s=opts.get("--timeout"),
        allow_io=allow_io,
        progress=show,
        expected_s=report.wall_s or None,
    )
    comparison.finding_code = code
    comparison.title = finding.fix.title + ("" if finding.fix.safety == "safe" else " (unsafe)")
    ctx.state.comparisons[finding.fix.source] = comparison  # `%aiperf apply` says what Try proved
    return comparison


def _progress_line() -> Any:
    """Try's progress: one line updated in place in a notebook; a terminal gets the announcements only."""
    try:
        from IPython import get_ipython
        from IPython.display import display
    except ImportError:
        return lambda done, total, text: None
    shell = get_ipython()
    in_kernel = shell is not None and getattr(shell, "kernel", None) is not None
    handle: Any = None

    def show(done: int, total: int, text: str) -> None:
        nonlocal handle
        message = Message(f"aiperf try: {text}")
        if total == 0 and in_kernel:  # an announcement stays on screen, apart from the progress line
            display(message)
        elif total == 0:
            print(message.text)
        elif handle is not None:
            handle.update(message)
        elif in_kernel:
            handle = display(message, display_id=True)
        elif done == 0 and ("about" in text or "allow-io" in text):  # the cost, or real writes ahead
            print(message.text)

    return show


def fix_command(ctx: CommandContext, argv: list[str]) -> CellFix | Message:
    """Print the last cell with every fix applied (safe ones; ``--unsafe`` adds the rest) and its diff."""
    unsafe = "--unsafe" in argv
    codes = {a.upper() for a in argv if a != "--unsafe"}
    if any(a.startswith("-") for a in codes):
        return Message(USAGE_FIX)
    report = _last(ctx)
    if isinstance(report, Message):
        return report
    from . import fix_findings
    from .edits import unified_diff

    chosen = [f for f in report.findings if not codes or any(f.code.startswith(c) for c in codes)]
    applied, skipped = [], []
    for f in chosen:
        _ensure_fix(report, f)
        if f.fix is None:
            continue
        if not f.fix.source:
            skipped.append(f"{f.code} line {f.line}: {f.fix.reason}")
        elif f.fix.safety != "safe" and not unsafe:
            skipped.append(f"{f.code} line {f.line}: unsafe fix ({f.fix.title}); add --unsafe to include it")
        else:
            applied.append(f.code)
    new = fix_findings(report.source, chosen, unsafe=unsafe)
    if new == report.source:
        applied = []
    return CellFix(source=new, diff=unified_diff(report.source, new), applied=applied, skipped=skipped)
