"""The ``%%aiperf`` cell magic (its options and help) and the ``%aiperf`` line magic.

How a ``%%aiperf`` cell runs: the cell must behave exactly as it would without the magic, so aiperf
does not execute the body itself. An input transformer (:mod:`.extension`) blanks the ``%%aiperf``
line (keeping line numbers, so tracebacks point at the user's own lines), IPython runs the body as
an ordinary cell (``_``, ``Out``, display, ``!cmd``, ``%magic``, top-level ``await``, exceptions
and KeyboardInterrupt all as usual, and a failing cell fails), and the one cell hook
(:mod:`.hook`) calls :meth:`AiperfMagics.begin` and :meth:`AiperfMagics.end` around it.
"""

from __future__ import annotations

import shlex
from typing import Any

from IPython.core.error import UsageError
from IPython.core.interactiveshell import InteractiveShell
from IPython.core.magic import Magics, line_cell_magic, magics_class
from IPython.core.magic_arguments import argument, magic_arguments, parse_argstring

from ..apply.origin import ORIGINS, origin_of
from ..cell.source import split_magic_cell
from ..measure.run import CellRun, RunOptions
from ..measure.sampler import MAX_INTERVAL_S, MIN_INTERVAL_S
from .hook import _NO_RESULT, parent_cell_id
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
        self.hook: Any = None  # the extension's CellHook (set when the extension loads)
        self.active: CellRun | None = None  # a cell the magic function itself measures

    @magic_arguments()
    @argument("-o", dest="return_report", action="store_true",
              help="Return the Report as the cell's result (it becomes Out[n] and _).")
    @argument("--var", metavar="NAME", help="Store the Report in the user namespace under NAME.")
    @argument("--interval", metavar="MS", type=float, default=20.0,
              help="Sampling period in milliseconds, from 0.5 to 10000 (default 20).")
    @argument("--budget", metavar="S", type=float, default=None,
              help="Seconds the work after the cell (analysis, DataFrame profiling, verdict) may take; "
                   "past it, frames and columns are sampled and the report says what was left out "
                   "(default: 0.5 s or a quarter of the cell's time, whichever is longer).")
    @argument("--no-hotspots", action="store_true", help="Do not sample which line is running.")
    @argument("--text", action="store_true", help="Show the plain-text view only.")
    @argument("--no-gpu", action="store_true", help="Do not sample GPUs or synchronise CUDA.")
    @argument("--memory", action="store_true",
              help="Count every allocation per line (memray when installed, else tracemalloc): exact "
                   "bytes per line and the line of the peak, at a cost on allocation-heavy cells. "
                   "Without it, memory per line is estimated from resident memory and the C "
                   "allocator at each sample.")
    @argument("--torch-profile", action="store_true",
              help="Also run torch.profiler (top ops, host-device copies, DataLoader share); "
                   "only when torch is imported.")
    @line_cell_magic
    def aiperf(self, line: str, cell: str | None = None) -> Any:
        """Measure a cell: time, CPU, memory, GPU, hot lines, known performance traps.

        Put ``%%aiperf`` on the first line of a slow cell. The cell runs exactly as it would
        without it, then a report shows wall, CPU and GPU-synchronised time, what the CPU cores,
        memory and GPUs did meanwhile, the lines that took the time and the memory (and the line
        that was running when memory peaked), and the traps found in the code, with fixes to try.

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

            %%aiperf --budget 5
            frames = {name: load(name) for name in names}   # profile every column of every frame

            %%aiperf --memory --var r
            df = pd.read_csv("big.csv")
            wide = df.pivot_table(index="day", columns="store", values="qty")
            # afterwards: r.memory_lines (line, allocated_bytes, net_bytes, peak_bytes, text),
            # r.peak_line, r.memory_peak_bytes, r.memory_mode ("sampled", "memray", "tracemalloc")

        Memory per line: every report's hot-lines table has a memory column (the most each line's
        allocations held at once, and what it still held at the end) and the header names the
        line memory peaked at ("peak +1.2 GB at line 4"). By default these are estimated from the
        samples, at no extra cost; ``--memory`` counts each allocation (memray, ``pip install
        memray``, sees NumPy, pandas, torch and Python objects; tracemalloc, without memray, sees
        Python and NumPy only and is much slower on allocation-heavy code). With CUDA in use,
        torch's allocator is read per line too (``cuda_allocated_bytes``, ``cuda_peak_line``).

        Line-magic subcommands (``%aiperf <subcommand>``)::

            %aiperf rules            the catalog of traps aiperf knows
            %aiperf explain AIP301   why a trap is slow and what to write instead
            %aiperf try AIP301       run the fix in copies of your kernel: speedup, equal results
            %aiperf fix              the last cell rewritten with its safe fixes, as a diff
            %aiperf apply N          put fix N of the last report into the notebook
            %aiperf auto on|off      light profiling of every cell
            %aiperf report           the slowest cells of this session
        """
        if cell is None:
            return self._subcommand(line)
        args = parse_argstring(self.aiperf, line)
        check_options(args)
        # Reached only when the input transformer could not take the cell (it is nested in a
        # measured cell, starts with another cell magic, or was called as a function):
        # run the body as a cell of its own.
        if self.active is not None or (self.hook is not None and self.hook.measuring_full):
            print("aiperf: nested %%aiperf ignored; the outer cell is already measured.")
            return self.shell.run_cell(cell, store_history=False).result
        run = self._new_run(cell, args, root_code=_RUN_CODE, line_offset=0)
        self.active = run
        run.start()
        try:
            result = self.shell.run_cell(cell, store_history=False)
        finally:
            self.active = None
        err = None if result is None else (result.error_in_exec or result.error_before_exec)
        report = run.finish(err)
        return self._deliver(report, args, as_return=True)

    # -- the hook's side: measure a cell that IPython runs normally --------------------------------
    def begin(self, raw: str | None, cell_id: str | None, execution_count: int | None) -> Any:
        """Start measuring a ``%%aiperf`` cell; None when the magic itself must handle it."""
        split = split_magic_cell(raw or "")
        if split is None:
            return None
        line, body = split
        args = parse_options(self, line)
        if args is None or body.lstrip().startswith("%%"):
            return None  # the magic function reports the usage error / runs the other cell magic
        run = self._new_run(body, args, root_code=_RUN_CODE, line_offset=1, cell_id=cell_id)
        run.magic_line = (raw or "").lstrip("\n").split("\n", 1)[0]
        run.state["args"] = args
        run.start()
        return run

    def end(self, run: CellRun, result: Any = _NO_RESULT) -> None:
        """Finish the measurement and show the report (nothing when the cell never ran)."""
        args = run.state["args"]
        try:
            if result is not None and result is not _NO_RESULT and result.error_before_exec is not None:
                run.cancel()  # syntax error: IPython already showed it at the user's line
                return
            error = KeyboardInterrupt() if result is None else getattr(result, "error_in_exec", None)
            report = run.finish(error)
            # IPython 9 numbers a stored cell before pre_run_cell: the result has the number the user sees.
            report.execution_count = getattr(result, "execution_count", None) or report.execution_count
            self._deliver(report, args, as_return=False)
        except KeyboardInterrupt:  # Ctrl-C while the report was being built or shown: stop quietly
            run.cancel()
            print("aiperf: report stopped by Ctrl-C (the cell's own result is unchanged).")
        except Exception as exc:
            run.cancel()
            print(f"aiperf: report failed ({type(exc).__name__}: {exc}); the cell itself ran normally.")

    # -- helpers ---------------------------------------------------------------------------------
    def _new_run(self, body: str, args: Any, *, root_code: Any, line_offset: int,
                 cell_id: str | None = None) -> CellRun:
        options = RunOptions(interval=args.interval, hotspots=not args.no_hotspots, gpu=not args.no_gpu,
                             torch_profile=args.torch_profile, text=args.text, budget=args.budget,
                             memory=args.memory)
        run = CellRun(body, user_ns=self.shell.user_ns, options=options,
                      cell_id=cell_id or parent_cell_id(self.shell),
                      execution_count=shown_count(self.shell, body),
                      root_code=root_code, line_offset=line_offset,
                      cell_files=getattr(getattr(self.shell, "compile", None), "_filename_map", None))
        # which notebook ran the cell: an Apply later edits that notebook only (a copy keeps the ids)
        ORIGINS.remember(run.cell_id, origin_of(_parent(self.shell)))
        return run

    def _deliver(self, report: Any, args: Any, *, as_return: bool) -> Any:
        self.state.remember(report)
        auto = self.state.extras.get("auto")
        if auto is not None:
            auto.keep(report)  # auto mode's ranking holds the full report
        if args.var:
            self.shell.user_ns[args.var] = report
        if args.return_report:
            if as_return:
                return report
            self.shell.displayhook(report)  # becomes Out[n] and _, as a returned value would
            return None
        from .display import show

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


def shown_count(shell: Any, body: str) -> int | None:
    """The number the user sees on the running cell (``In [14]``), whose text holds ``body``.

    IPython stores a cell's input under its number before running it, but moves
    ``execution_count`` on before the cell runs in IPython 9 and after it in IPython 8: the input
    history says the same in both. (A report over a nested cell magic, ``%%aiperf`` over
    ``%%time``, read ``execution_count`` and was labelled one higher than its cell in IPython 9.)"""
    history = getattr(getattr(shell, "history_manager", None), "input_hist_raw", None)
    if isinstance(history, list) and len(history) > 1 and body.strip() in str(history[-1]):
        return len(history) - 1
    count = getattr(shell, "execution_count", None)
    return count if isinstance(count, int) else None


def _parent(shell: Any) -> Any:
    """The execute request being run (None outside a kernel)."""
    kernel: Any = getattr(shell, "kernel", None)
    try:
        return kernel.get_parent() if hasattr(kernel, "get_parent") else getattr(kernel, "_parent_header", None)
    except Exception:
        return None


def parse_options(magics: AiperfMagics, line: str) -> Any:
    """The ``%%aiperf`` options, or None when they do not parse (the magic then says why)."""
    try:
        args = parse_argstring(magics.aiperf, line)
        check_options(args)
        return args
    except (UsageError, SystemExit, ValueError):
        return None


def check_options(args: Any) -> None:
    if not MIN_INTERVAL_S * 1000 <= args.interval <= MAX_INTERVAL_S * 1000:  # NaN and inf fail too
        raise UsageError(f"--interval must be between {MIN_INTERVAL_S * 1000:g} and {MAX_INTERVAL_S * 1000:g} "
                         f"milliseconds, not {args.interval:g}")
    if args.budget is not None and not 0 <= args.budget < float("inf"):  # NaN fails too
        raise UsageError(f"--budget must be a number of seconds (0 or more), not {args.budget:g}")
    if args.var is not None and not args.var.isidentifier():
        raise UsageError(f"--var needs a Python name, not {args.var!r}")
