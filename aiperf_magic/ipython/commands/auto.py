"""``%aiperf auto on|off`` and ``%aiperf report``: the commands, and the value the report returns.

The hooks, probes and history behind them are :class:`~aiperf_magic.auto.mode.AutoMode`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from IPython.core.error import UsageError

from ...auto.history import CellRecord, CellTable
from ...auto.mode import INTERVAL_MS, AutoMode, KeptProbe, default_probes
from ..subcommands import CommandContext, Parser

DEFAULT_TOP = 10

__all__ = ["AutoMode", "CellTableView", "KeptProbe", "auto_command", "default_probes", "report_command"]

def _auto_parser() -> Parser:
    parser = Parser(prog="%aiperf auto", add_help=False)
    parser.add_argument("switch", nargs="?", choices=("on", "off", "status"), default="status")
    parser.add_argument("--threshold", metavar="SECONDS", type=float, default=None)
    return parser


def _report_parser() -> Parser:
    parser = Parser(prog="%aiperf report", add_help=False)
    parser.add_argument("--top", metavar="N", type=int, default=None)
    parser.add_argument("--save", metavar="PATH.html|PATH.json", default=None)
    parser.add_argument("--clear", action="store_true")
    return parser


def mode_of(ctx: CommandContext, create: bool = True) -> AutoMode | None:
    mode = ctx.state.extras.get("auto")
    if not isinstance(mode, AutoMode) and create:
        mode = AutoMode(ctx.shell, ctx.state)
        ctx.state.extras["auto"] = mode
    return mode if isinstance(mode, AutoMode) else None


def auto_command(ctx: CommandContext, argv: list[str]) -> None:
    """``%aiperf auto on|off [--threshold SECONDS]``: light profiling of every cell."""
    args = _auto_parser().parse_args(argv)
    if args.threshold is not None and (args.switch != "on" or not args.threshold >= 0):
        raise UsageError("--threshold takes a number of seconds ≥ 0 and goes with 'on', "
                         "e.g. %aiperf auto on --threshold 0.5")
    mode = mode_of(ctx)
    assert mode is not None
    if args.switch == "on":
        fresh = mode.on(args.threshold)
        state = "on" if fresh else "already on"
        print(f"aiperf auto: {state}. Every cell is timed lightly (wall, CPU, peak memory, GPU; a sample "
              f"every {INTERVAL_MS:.0f} ms) and its code scanned; a one-line note follows cells of "
              f"≥ {mode.threshold_s:g} s or with findings. %aiperf report ranks them; "
              "%aiperf auto off stops.")
        for note in mode.notes:
            print(f"  note: {note}")
    elif args.switch == "off":
        was_on = mode.enabled
        mode.off()
        kept = len(mode.history.records)
        print(f"aiperf auto: {'off' if was_on else 'was not on'}; {kept} cell{'s' * (kept != 1)} "
              "kept for %aiperf report.")
    else:
        kept = len(mode.history.records)
        print(f"aiperf auto: {'on' if mode.enabled else 'off'}, threshold {mode.threshold_s:g} s, "
              f"{kept} cell{'s' * (kept != 1)} in the history.")


def report_command(ctx: CommandContext, argv: list[str]) -> Any:
    """``%aiperf report [--top N] [--save PATH.html|PATH.json] [--clear]``: the slowest cells."""
    args = _report_parser().parse_args(argv)
    if args.top is not None and args.top < 1:
        raise UsageError("--top takes a positive number of cells, e.g. %aiperf report --top 5")
    target = _save_target(args.save) if args.save else None
    mode = mode_of(ctx)
    assert mode is not None
    if target is not None:
        # The file holds every cell unless --top says otherwise; the display shows the top 10.
        saved = mode.table(args.top)
        _write(saved, target)
        print(f"aiperf report: {len(saved.rows)} cell{'s' * (len(saved.rows) != 1)} saved to {target}")
    if args.clear:
        count = mode.clear()
        print(f"aiperf report: history cleared ({count} cell{'s' * (count != 1)}).")
        return None
    table = mode.table(args.top or DEFAULT_TOP)
    if not table.cells:
        print("aiperf report: no profiled cells yet. %aiperf auto on times every cell from now on; "
              "%%aiperf measures one cell fully.")
        return None
    return CellTableView(table)


def _save_target(path: str) -> Path:
    target = Path(path).expanduser()
    if target.is_dir():
        raise UsageError(f"--save needs a file name, and {path!r} is a folder")
    if target.suffix.lower() not in (".html", ".htm", ".json"):
        raise UsageError(f"--save needs a file name ending in .html or .json, not {path!r}")
    return target


def _write(table: CellTable, target: Path) -> None:
    from ...render.auto_report import render_table_document

    text = table.to_json(indent=1) if target.suffix.lower() == ".json" else render_table_document(table)
    try:
        target.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise UsageError(f"could not save the report to {str(target)!r}: {exc.strerror or exc}") from None


class CellTableView:
    """What ``%aiperf report`` returns: shows as widgets, HTML or text; ``.table`` holds the data."""

    def __init__(self, table: CellTable) -> None:
        self.table = table

    @property
    def records(self) -> list[CellRecord]:
        return self.table.rows

    def _repr_pretty_(self, p: Any, cycle: bool) -> None:
        from ...render.auto_report import render_table_text

        p.text("CellTableView(...)" if cycle else render_table_text(self.table))

    def _repr_mimebundle_(self, include: Any = None, exclude: Any = None) -> dict[str, Any]:
        from ...render.auto_report import render_table_html, render_table_text

        bundle: dict[str, Any] = {"text/plain": render_table_text(self.table),
                                  "text/html": render_table_html(self.table)}
        try:
            from ...render.frontend import can_render_widgets
            from ...render.panel.auto_table import auto_bundle

            if can_render_widgets():
                bundle = auto_bundle(self.table, bundle)
        except Exception as exc:  # no ipywidgets/plotly, or an old front end: the static views stay
            self.table.notes.append(f"interactive view unavailable: {type(exc).__name__}: {exc}")
        return bundle

