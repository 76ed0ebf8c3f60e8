"""``%aiperf try`` and ``%aiperf fix``: try a finding's rewrite on copies of the user's data, or
show the whole rewritten cell with its diff. Both work on the last ``%%aiperf`` cell's Report."""

from __future__ import annotations

from dataclasses import dataclass
from html import escape
from typing import Any

from IPython.core.error import UsageError

from ...report import Comparison, Finding, Report
from ..subcommands import ADDRESS, CommandContext, Parser, finding_at, last_report


@dataclass
class CellFix:
    """The rewritten cell and its diff, as ``%aiperf fix`` shows it."""

    source: str
    diff: str
    applied: list[str]
    skipped: list[str]

    def headline(self) -> str:
        if not self.applied:
            return "aiperf fix: no rewrite applies to this cell"
        return (f"aiperf fix: the cell rewritten with {', '.join(self.applied)} "
                "(shown only: the notebook cell is unchanged; Apply in the panel or %aiperf apply N edits it)")

    def text(self) -> str:
        parts = [self.headline(), *(f"  not included: {s}" for s in self.skipped)]
        if self.diff:
            parts += ["", "--- rewritten cell ---", self.source.rstrip("\n")]
            parts += ["", "--- diff ---", self.diff.rstrip("\n")]
        return "\n".join(parts)

    def _repr_pretty_(self, p: Any, cycle: bool) -> None:
        p.text(self.text())

    def _repr_html_(self) -> str:
        # monospace throughout, like the text view, in JupyterLab, nbconvert and GitHub alike
        mono = "font-family:var(--jp-code-font-family,ui-monospace,SFMono-Regular,Menlo,monospace);font-size:12px"
        pre = "margin:4px 0;padding:4px 8px;background:#f6f8fa;white-space:pre;overflow:auto"
        skipped = "".join(f"<li>not included: {escape(s)}</li>" for s in self.skipped)
        lines = []
        for line in self.diff.splitlines():
            color = {"+": "#dafbe1", "-": "#ffebe9"}.get(line[:1], "") if not line.startswith(("+++", "---")) else ""
            lines.append(f'<div style="{"background:" + color if color else ""}">{escape(line) or " "}</div>')
        body = ""
        if self.diff:
            body = (f'<div>rewritten cell:</div><div style="{pre}"><pre>{escape(self.source)}</pre></div>'
                    f'<div>diff:</div><div style="{pre}">{"".join(lines)}</div>')
        return (
            f'<div class="aiperf-fix" style="{mono}"><div>{escape(self.headline())}</div>'
            + (f'<ul style="margin:2px 0 4px 18px;padding:0">{skipped}</ul>' if skipped else "")
            + body
            + "</div>"
        )


def ensure_fix(report: Report, finding: Finding, namespace: dict[str, Any] | None = None) -> None:
    """Build the finding's rewrite when its report was made without fixes (auto mode)."""
    if finding.fix is None:
        from ...rules import propose

        finding.fix = propose(report.source, finding, namespace)
        finding.fixable = bool(finding.fix and finding.fix.source)


def tried_key(fix: Any) -> str:
    """What a Try is remembered by: the rewritten cell (the earlier cell's, for a fix of its function)."""
    return fix.cell_source or fix.source


def _try_parser() -> Parser:
    parser = Parser(prog="%aiperf try", add_help=False)
    parser.add_argument("address", metavar=ADDRESS)
    # without --repeat a Try fits the cell's time (up to 5 timed runs each); with it, exactly N
    parser.add_argument("--repeat", metavar="N", type=int, default=None)
    parser.add_argument("--timeout", metavar="SECONDS", type=float, default=None)
    parser.add_argument("--allow-io", action="store_true", help="let the cell's writes run (in every run)")
    return parser


def try_command(ctx: CommandContext, argv: list[str]) -> Comparison:
    """Run the last cell and the rewrite of one finding in copies of the kernel; show the Comparison."""
    args = _try_parser().parse_args(argv)
    asked = args.repeat is not None
    args.repeat = args.repeat if asked else 5
    if args.repeat < 1 or (args.timeout is not None and not args.timeout > 0):
        raise UsageError("--repeat takes a positive number of runs and --timeout a positive number of seconds")
    report = last_report(ctx)
    n, finding = finding_at(report, args.address)
    ensure_fix(report, finding, ctx.user_ns)
    if finding.fix is None or not finding.fix.source:
        reason = finding.fix.reason if finding.fix is not None else "no rewrite exists for this rule"
        raise UsageError(f"Finding {n} ({finding.code}, line {report.cell_line(finding.line or 0)}) "
                         f"has no fix to try: {reason}.")
    from ...verification import planned_runs, verify

    show = _progress_line(ctx)
    if args.allow_io:  # said before anything runs: the writes are real, and how many times they happen
        show(0, 0, f"--allow-io: the cell's writes run for real, {planned_runs(args.repeat)} times for each version")
    comparison = verify(
        report.source,
        finding.fix.source,
        ctx.user_ns,
        repeat=args.repeat,
        timeout_s=args.timeout,
        allow_io=args.allow_io,
        progress=show,
        expected_s=report.wall_s or None,
        first_line=report.cell_line(1),
        budget_s=float("inf") if asked else None,  # the runs the user asked for, however long
        rebind=finding.fix.rebind or None,  # a rewrite of an earlier cell's function: the cell calls it
    )
    comparison.finding_code = finding.code
    comparison.title = finding.fix.title + ("" if finding.fix.safety == "safe" else " (unsafe)")
    ctx.state.comparisons[tried_key(finding.fix)] = comparison  # `%aiperf apply` says what Try proved
    return comparison


@dataclass
class Line:
    """One line of progress or announcement, shown as text (escaped in HTML)."""

    text: str

    def _repr_pretty_(self, p: Any, cycle: bool) -> None:
        p.text(self.text)

    def _repr_html_(self) -> str:
        return f'<pre class="aiperf-message">{escape(self.text)}</pre>'


def _progress_line(ctx: CommandContext) -> Any:
    """Try's progress: one line updated in place in a notebook; a terminal gets the announcements only."""
    from IPython.display import display

    in_kernel = getattr(ctx.shell, "kernel", None) is not None
    handle: Any = None

    def show(done: int, total: int, text: str) -> None:
        nonlocal handle
        message = Line(f"aiperf try: {text}")
        if total == 0 and in_kernel:  # an announcement stays on screen, apart from the progress line
            display(message)
        elif total == 0:
            print(message.text)
        elif handle is not None:
            handle.update(message)
        elif in_kernel:
            handle = display(message, display_id=True)
        elif done == 0 and text.startswith("trying: about"):  # a terminal is told the cost, once
            print(message.text)

    return show


def _fix_parser() -> Parser:
    parser = Parser(prog="%aiperf fix", add_help=False)
    parser.add_argument("codes", nargs="*", metavar="CODE")
    parser.add_argument("--unsafe", action="store_true")
    return parser


def fix_command(ctx: CommandContext, argv: list[str]) -> CellFix:
    """Print the last cell with every fix applied (safe ones; ``--unsafe`` adds the rest) and its diff."""
    args = _fix_parser().parse_args(argv)
    report = last_report(ctx)
    from ...fixes.edits import unified_diff
    from ...rules import fix_findings

    codes = tuple(c.upper() for c in args.codes)
    chosen = [f for f in report.findings if not codes or f.code.startswith(codes)]
    wanted, skipped = [], []
    for f in chosen:
        ensure_fix(report, f, ctx.user_ns)
        if f.fix is None:
            continue
        if not f.fix.source:
            skipped.append(f"{f.code} line {report.cell_line(f.line or 0)}: {f.fix.reason}")
        elif f.fix.cell:
            skipped.append(f"{f.code} line {report.cell_line(f.line or 0)}: its rewrite is of {f.fix.cell}, which "
                           f"defines the function; %aiperf apply {report.findings.index(f) + 1} inserts it")
        elif f.fix.safety != "safe" and not args.unsafe:
            skipped.append(f"{f.code} line {report.cell_line(f.line or 0)}: unsafe fix ({f.fix.title}); "
                           "add --unsafe to include it")
        else:
            wanted.append(f)
    new = fix_findings(report.source, wanted, unsafe=args.unsafe, namespace=ctx.user_ns)
    applied = []
    if new != report.source:
        # named only when its own rewrite applies to this cell (a runtime finding's does not here)
        for f in wanted:
            if fix_findings(report.source, [f], unsafe=args.unsafe, namespace=ctx.user_ns) != report.source:
                applied.append(f.code)
            else:
                skipped.append(f"{f.code} line {report.cell_line(f.line or 0)}: its rewrite does not apply "
                               f"here; %aiperf apply {report.findings.index(f) + 1} inserts it as a new cell")
    return CellFix(source=new, diff=unified_diff(report.source, new), applied=applied, skipped=skipped)
