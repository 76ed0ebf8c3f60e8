"""IPython adapter: the ``%%aiperf`` cell magic and the ``%aiperf`` subcommands.

How a ``%%aiperf`` cell runs: the cell must behave exactly as it would without the magic, so aiperf
does not execute the body itself. An input transformer blanks the ``%%aiperf`` line (keeping line
numbers, so tracebacks point at the user's own lines), IPython runs the body as an ordinary cell
(``_``, ``Out``, display, ``!cmd``, ``%magic``, top-level ``await``, exceptions and
KeyboardInterrupt all as usual, and a failing cell fails), and the ``pre_run_cell`` /
``post_run_cell`` events start and stop the measurement around it.
"""

from __future__ import annotations

import shlex
from typing import Any

from IPython.core.error import UsageError
from IPython.core.interactiveshell import InteractiveShell
from IPython.core.magic import Magics, line_cell_magic, magics_class
from IPython.core.magic_arguments import argument, magic_arguments, parse_argstring

from ..measure.run import CellRun, RunOptions
from .subcommands import SUBCOMMANDS, CommandContext, SessionState, resolve

MAGIC = "%%aiperf"
# IPython runs each cell's code from this coroutine; the frame just below it is the cell.
_RUN_CODE = InteractiveShell.run_code.__code__


@magics_class
class AiperfMagics(Magics):
    shell: Any  # the InteractiveShell that loaded the extension (typed loosely: IPython says Optional)

    def __init__(self, shell: Any) -> None:
        super().__init__(shell)
        self.state = SessionState()
        # (run, options, started by the pre_run_cell event?)
        self.active: tuple[CellRun, Any, bool] | None = None

    @magic_arguments()
    @argument("-o", dest="return_report", action="store_true",
              help="Return the Report as the cell's result (it becomes Out[n] and _).")
    @argument("--var", metavar="NAME", help="Store the Report in the user namespace under NAME.")
    @argument("--interval", metavar="MS", type=float, default=20.0,
              help="Sampling period in milliseconds (default 20).")
    @argument("--no-hotspots", action="store_true", help="Do not sample which line is running.")
    @argument("--text", action="store_true", help="Show the plain-text view only.")
    @argument("--no-gpu", action="store_true", help="Do not sample GPUs or synchronise CUDA.")
    @argument("--torch-profile", action="store_true",
              help="Also run torch.profiler (top ops, host-device copies, DataLoader share); "
                   "only when torch is imported.")
    @line_cell_magic
    def aiperf(self, line: str, cell: str | None = None) -> Any:
        """Measure a cell: time, CPU, memory, GPU, hot lines, known performance traps.

        Put ``%%aiperf`` on the first line of a slow cell. The cell runs exactly as it would
        without it, then a report shows wall, CPU and GPU-synchronised time, what the CPU cores,
        memory and GPUs did meanwhile, the lines that took the time, and the traps found in the
        code, with fixes to try.

        Examples::

            %load_ext aiperf_magic

            %%aiperf
            total = 0
            for _, row in df.iterrows():
                total += row["price"] * row["qty"]

            %%aiperf --var r --interval 50
            model_output = [model(x) for x in batches]
            # afterwards: r.wall_s, r.hotspots, r.findings, r.to_json()

            %%aiperf -o --text
            slow_function()

        Line-magic subcommands (``%aiperf <subcommand>``)::

            %aiperf rules            the catalog of traps aiperf knows
            %aiperf explain AIP301   why a trap is slow and what to write instead
            %aiperf try AIP301       run the fix on copies of your data: speedup, equal results
            %aiperf fix              the last cell rewritten with its safe fixes, as a diff
            %aiperf apply N          put fix N of the last report into the notebook
            %aiperf auto on|off      light profiling of every cell
            %aiperf report           the slowest cells of this session
        """
        if cell is None:
            return self._subcommand(line)
        args = parse_argstring(self.aiperf, line)
        _check(args)
        # Reached only when the input transformer could not take the cell (it is nested in a
        # measured cell, starts with another cell magic, or was called as a function):
        # run the body as a cell of its own.
        if self.active is not None:
            print("aiperf: nested %%aiperf ignored; the outer cell is already measured.")
            return self.shell.run_cell(cell, store_history=False).result
        run = self._new_run(cell, args, root_code=_RUN_CODE, line_offset=0)
        self.active = (run, args, False)
        run.start()
        try:
            result = self.shell.run_cell(cell, store_history=False)
        finally:
            self.active = None
        err = None if result is None else (result.error_in_exec or result.error_before_exec)
        report = run.finish(err)
        return self._deliver(report, args, as_return=True)

    # -- events: measure a cell that IPython runs normally --------------------------------------------
    def pre_run_cell(self, info: Any) -> None:
        try:
            self._pre_run_cell(info)
        except Exception as exc:  # never break the user's cell
            print(f"aiperf: measurement not started ({type(exc).__name__}: {exc})")
            self.active = None

    def _pre_run_cell(self, info: Any) -> None:
        raw = getattr(info, "raw_cell", None) or ""
        split = split_magic_cell(raw)
        if split is None:
            return
        if self.active is not None:
            self.active[0].notes.append("nested %%aiperf ignored: the outer cell is measured")
            return
        line, body = split
        args = _parse_or_none(self, line)
        if args is None or body.lstrip().startswith("%%"):
            return  # the magic function reports the usage error / runs the other cell magic
        cell_id = getattr(info, "cell_id", None) or _parent_cell_id(self.shell)
        run = self._new_run(body, args, root_code=_RUN_CODE, line_offset=1, cell_id=cell_id)
        run.magic_line = raw.lstrip("\n").split("\n", 1)[0]
        self.active = (run, args, True)
        run.start()

    def post_run_cell(self, result: Any) -> None:
        if self.active is None or not self.active[2]:
            return
        run, args, _ = self.active
        self.active = None
        try:
            if result is not None and result.error_before_exec is not None:
                run.cancel()  # syntax error: IPython already showed it at the user's line
                return
            error = KeyboardInterrupt() if result is None else result.error_in_exec
            report = run.finish(error)
            # IPython 9 numbers a stored cell before pre_run_cell: the result has the number the user sees.
            report.execution_count = getattr(result, "execution_count", None) or report.execution_count
            self._deliver(report, args, as_return=False)
        except Exception as exc:
            run.cancel()
            print(f"aiperf: report failed ({type(exc).__name__}: {exc}); the cell itself ran normally.")

    # -- helpers ---------------------------------------------------------------------------------
    def _new_run(self, body: str, args: Any, *, root_code: Any, line_offset: int,
                 cell_id: str | None = None) -> CellRun:
        options = RunOptions(interval=args.interval, hotspots=not args.no_hotspots, gpu=not args.no_gpu,
                             torch_profile=args.torch_profile, text=args.text)
        return CellRun(body, user_ns=self.shell.user_ns, options=options,
                       cell_id=cell_id or _parent_cell_id(self.shell),
                       execution_count=getattr(self.shell, "execution_count", None),
                       root_code=root_code, line_offset=line_offset)

    def _deliver(self, report: Any, args: Any, *, as_return: bool) -> Any:
        self.state.remember(report)
        if args.var:
            self.shell.user_ns[args.var] = report
        if args.return_report:
            if as_return:
                return report
            self.shell.displayhook(report)  # becomes Out[n] and _, as a returned value would
            return None
        from ..render import show

        show(report, text_only=args.text, namespace=self.shell.user_ns)
        return None

    def _subcommand(self, line: str) -> Any:
        try:
            argv = shlex.split(line)
        except ValueError as exc:
            raise UsageError(f"aiperf: {exc}") from None
        if not argv:
            raise UsageError("%aiperf needs a subcommand: " + ", ".join(SUBCOMMANDS)
                             + ". Use %%aiperf on a cell to measure it; %aiperf? for help.")
        func = resolve(argv[0])
        if func is None:
            raise UsageError(f"unknown subcommand {argv[0]!r}; known: {', '.join(SUBCOMMANDS)}")
        return func(CommandContext(shell=self.shell, state=self.state), argv[1:])


def split_magic_cell(raw: str) -> tuple[str, str] | None:
    """(option line, body) when ``raw`` is a ``%%aiperf`` cell, else None."""
    text = raw.lstrip("\n")
    first, _, body = text.partition("\n")
    if not first.startswith(MAGIC) or first[len(MAGIC):len(MAGIC) + 1] not in ("", " ", "\t"):
        return None
    options = first[len(MAGIC):].strip()
    if options.endswith("?"):
        return None  # "%%aiperf?" asks for help
    return options, body


def _parse_or_none(magics: AiperfMagics, line: str) -> Any:
    try:
        args = parse_argstring(magics.aiperf, line)
        _check(args)
        return args
    except (UsageError, SystemExit, ValueError):
        return None


def _check(args: Any) -> None:
    if not args.interval > 0:
        raise UsageError("--interval must be a positive number of milliseconds")
    if args.var is not None and not args.var.isidentifier():
        raise UsageError(f"--var needs a Python name, not {args.var!r}")


def _parent_cell_id(shell: Any) -> str | None:
    """The notebook cell id JupyterLab 4 / Notebook 7 send with each execute request."""
    kernel: Any = getattr(shell, "kernel", None)
    try:
        parent = kernel.get_parent() if hasattr(kernel, "get_parent") else getattr(kernel, "_parent_header", {})
        cell_id = (parent or {}).get("metadata", {}).get("cellId")
        return str(cell_id) if cell_id else None
    except Exception:
        return None


# -- extension entry ------------------------------------------------------------------------------
class _Transformer:
    """Input transformer: the ``%%aiperf`` line becomes blank, the body runs as the cell."""

    def __init__(self, magics: AiperfMagics) -> None:
        self.magics = magics
        self.has_side_effects = False

    def __call__(self, lines: list[str]) -> list[str]:
        if not lines:
            return lines
        split = split_magic_cell("".join(lines))
        if split is None or split[1].lstrip().startswith("%%"):
            return lines
        if _parse_or_none(self.magics, split[0]) is None:
            return lines  # let the magic itself raise the usage error
        return ["\n", *lines[1:]]


def load(shell: Any) -> None:
    if getattr(shell, "_aiperf_magics", None) is not None:
        return  # loading twice is harmless
    magics = AiperfMagics(shell)
    shell.register_magics(magics)
    transformer = _Transformer(magics)
    shell.input_transformers_cleanup.append(transformer)
    shell.events.register("pre_run_cell", magics.pre_run_cell)
    shell.events.register("post_run_cell", magics.post_run_cell)
    shell._aiperf_magics = magics
    shell._aiperf_transformer = transformer


def unload(shell: Any) -> None:
    magics = getattr(shell, "_aiperf_magics", None)
    if magics is None:
        return
    if magics.active is not None:
        magics.active[0].cancel()
        magics.active = None
    for name in ("pre_run_cell", "post_run_cell"):
        try:
            shell.events.unregister(name, getattr(magics, name))
        except ValueError:
            pass
    for extra in list(magics.state.extras.values()):
        close = getattr(extra, "close", None)
        if callable(close):
            close()  # auto mode hooks, bridge comms...
    magics.state.extras.clear()
    transformer = getattr(shell, "_aiperf_transformer", None)
    if transformer in shell.input_transformers_cleanup:
        shell.input_transformers_cleanup.remove(transformer)
    for kind in ("line", "cell"):
        shell.magics_manager.magics[kind].pop("aiperf", None)
    shell._aiperf_magics = None
    shell._aiperf_transformer = None
