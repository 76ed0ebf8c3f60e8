"""Before/after proof of a rewrite: both versions run side by side, timed, and their results compared,
without changing anything: not the namespace, not objects behind functions, not RNG streams, not a
file, a database or a server.

``verify(before, after, namespace)`` runs each version in fresh forked copies of the kernel where a
fork is possible (:mod:`.fork`), with external side effects refused (:mod:`.guard`); elsewhere it runs
them in-process on copies, guarded, restoring what the cell's functions reach (:mod:`.inprocess`),
and says so. It returns a :class:`~aiperf_magic.report.Comparison` whose ``better`` is True only when
the results are equal and the rewrite is faster.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable
from typing import Any

from ..cell.source import runnable
from ..report import Comparison
from . import outside
from .clocks import clock_names
from .compare import TOLERANCES
from .coverage import sandbox_note
from .fork import Cancelled, ForkRunner, OutOfMemory, fork_available
from .inprocess import InProcessRunner
from .observed import compile_cell, summary
from .pace import estimate, kernel_note, traces_first
from .precheck import hints, kernel_changing_lines
from .rebind import compile_rebind
from .sandbox import Refused, missing, reads_and_writes, size_of
from .schedule import FIRST_LIMIT_S, Progress, Schedule, describe_isolation, planned_runs
from .touched import reachable_globals
from .trial import Plan

__all__ = ["fork_available", "planned_runs", "verify"]

MEMORY_MARGIN = 256 << 20
WORKER_DATA_LIMIT = 256 << 20  # above this much input data, timed runs are fresh forks (no copies)


def verify(
    before: str,
    after: str,
    namespace: dict[str, Any],
    *,
    compare: Iterable[str] | None = None,
    repeat: int = 5,
    timeout_s: float | None = None,
    allow_io: bool = False,
    progress: Progress | None = None,
    cancel: Callable[[], bool] | Any = None,
    expected_s: float | None = None,
    isolation: str = "auto",
    first_line: int = 1,
    budget_s: float | None = None,
    rebind: str | None = None,
) -> Comparison:
    """Run ``before`` and ``after`` from the state in ``namespace``, compare them, time them.

    Each version runs once for its values and peak memory, then up to ``repeat`` times, interleaved,
    for the timings: ``planned_runs(repeat)`` times at most. A long cell runs fewer: the Try stays
    within ``budget_s`` (default: 3x the original's time plus 1 s, at least 4 s; ``float("inf")``
    runs all ``repeat``, as ``allow_io`` always does). ``Comparison.faster`` says whether the rewrite
    is faster beyond the runs' noise (the rule is in :mod:`.noise`). ``compare`` names the values to
    compare (default: what the original cell writes, plus the data it reads, since a cell may change its
    inputs in place). A rewrite that runs past ``timeout_s`` (default 10x the original's time, at
    least 10 s) is stopped and reported.

    Trials never repeat a cell's external side effects: the first refused write, connection or command
    stops the Try and ``Comparison.blocked`` says what and where. ``allow_io=True`` lets them happen,
    for real, ``planned_runs(repeat)`` times per version. ``progress(done, total, text)`` is called once
    the state is captured (``done == 0``; ``text`` gives the cost when known), as each run starts ("run
    k of n", the time left), and about once a second while a forked run is in progress (``done`` counts
    the runs finished). ``cancel`` (a callable or a ``threading.Event``) is polled while trials run;
    Ctrl-C has the same effect: the trials stop and the Comparison says so. ``expected_s`` (the
    original's measured time) sizes the cost estimate, the budget and the first run's time limit; from
    0.4 s on, the first runs are not traced for memory and count as timing samples. ``isolation`` forces
    ``"in-process"`` trials (or ``"process"``; default ``"auto"``).
    ``first_line`` is the number the user sees on the first line of ``before`` (2 under a
    ``%%aiperf`` line), so that "line N" in what Try says is the line of the cell as shown.
    ``rebind`` is the rewritten definitions of functions an earlier cell defined (``Fix.rebind``): they
    run before each run of ``after`` (untimed), so that the cell calls them; what they bind is not
    compared (:mod:`.rebind`).
    """
    repeat = max(1, int(repeat))
    # blank lines keep every line number where the user sees it, as IPython does for the magic line
    pad = "\n" * max(0, first_line - 1)
    py_before, py_after = pad + runnable(before), pad + runnable(after)
    before, after = pad + before, pad + after
    result = Comparison(equal=False, repeat=repeat, notes=[], isolation="process", runs=0)
    try:
        codes = {"before": _compile(py_before, "before"), "after": _compile(py_after, "after")}
        rebind_code, rebind_names = compile_rebind(rebind) if rebind else (None, set())
    except SyntaxError as exc:
        result.error = f"{type(exc).__name__}: {exc}"
        return result
    reads_b, writes_b, loop_only = reads_and_writes(py_before)
    reads_a, writes_a, loop_a = reads_and_writes(py_after)
    inputs = list(dict.fromkeys(reads_b + reads_a))
    absent = missing(namespace, inputs, writes_b | writes_a)
    if absent:
        result.refused = (
            f"{', '.join(absent)} {'is' if len(absent) == 1 else 'are'} not defined yet: "
            "run the cells that define them first"
        )
        return result
    clocks = clock_names(py_before) & clock_names(py_after)  # start = time.time(): differs in any two runs
    plan = Plan(
        codes=codes,
        namespace=namespace,
        inputs=inputs,
        # what either version binds, reads or can change through the functions it calls (touched.py)
        candidates=((writes_b - loop_only - {"_"})
                    | {n for n in reads_b if n in namespace}
                    | {n for n in writes_a - loop_a if n in namespace}
                    | reachable_globals(namespace, [*codes.values(), *([rebind_code] if rebind_code else [])]))
        - rebind_names - clocks,
        loop_names=loop_only | loop_a | clocks,  # never compared
        compare=list(compare) if compare is not None else None,
        allow_io=allow_io,
        lines={
            "before": {h.line: h.what for h in hints(before, py_before)},
            "after": {h.line: h.what for h in hints(after, py_after)},
        },
        trace_first=traces_first(expected_s),
        rebind=rebind_code,
        rebind_names=rebind_names,
    )
    can_fork, why = fork_available()
    reached = outside.first(namespace, py_before, py_after, in_process=isolation == "in-process" or not can_fork)
    if reached is not None and not allow_io:  # a pool, a cluster, a connection: refused before anything runs
        result.blocked = reached
        result.notes.append(_blocked_advice(result, plan, repeat))
        return result
    if reached is not None:  # allowed to act for real: only this kernel can reach it
        isolation, why = "in-process", f"the cell uses what only this kernel can reach ({reached})"
    if isolation == "in-process" or not can_fork:
        result.isolation = "in-process"
        why = why or "in-process trials were asked for"
        static = [] if allow_io else kernel_changing_lines(before) + kernel_changing_lines(after)
        if static:
            result.blocked = f"line {static[0].line} {static[0].what}"
            result.notes.append(f"not tried in this kernel ({why}): it would change the kernel itself")
            return result
    data = sum(size_of(namespace[n]) for n in inputs if n in namespace)
    refused = _memory_refusal(data, result.isolation)
    if refused:
        result.refused = refused
        return result
    runner: ForkRunner | InProcessRunner = (
        ForkRunner(plan, _poll(cancel), workers=_copies_are_cheaper(data))
        if result.isolation == "process"
        else InProcessRunner(plan, why)
    )
    fit = budget_s if not allow_io else float("inf")  # --allow-io runs exactly the announced count
    schedule = Schedule(runner, plan, result, progress, expected_s, fit)
    cost_s, cost = estimate(expected_s, repeat, fit is None)
    if cost_s is not None and cost_s > 5:
        result.notes.append(f"estimated cost before starting: {cost}")
    first_limit = max(10.0, 20 * expected_s) if expected_s else FIRST_LIMIT_S  # a hang shows in seconds
    try:
        runner.start()
        schedule.say(f"trying: {cost}" + ("; Ctrl-C stops it" if cost_s and cost_s > 5 else ""))
        schedule.execute(timeout_s, first_limit if result.isolation == "process" else None)
    except (Cancelled, KeyboardInterrupt):
        result.refused = f"cancelled after {schedule.done} of {schedule.total} runs; nothing was changed"
    except OutOfMemory as exc:
        result.refused = str(exc)
    except (RuntimeError, OSError) as exc:  # the trial machinery itself failed: say so, never crash the caller
        result.error = f"aiperf could not run the trials: {type(exc).__name__}: {exc}"
    except Refused as exc:
        result.refused = str(exc)
    finally:
        runner.close()
    result.sandbox, result.uncovered = list(runner.sandbox), list(runner.uncovered)
    result.notes += runner.notes
    covered = sandbox_note(result)
    if covered and not result.refused:
        result.notes.append(covered)
    one_thread = result.isolation == "process" and "torch" in sys.modules and "torch" in before + after
    if one_thread:
        result.notes.append("torch ran on one CPU thread in the trials (OpenMP thread pools do not survive a fork)")
    differs = kernel_note(expected_s, schedule.times_b, ["torch ran on one CPU thread here"] if one_thread else [])
    if result.blocked:
        result.notes.append(_blocked_advice(result, plan, repeat))
    elif not result.refused:
        if clocks:
            result.notes.append(f"not compared: {', '.join(sorted(clocks))} (clock readings: they differ "
                                "between any two runs)")
        if rebind_names:
            result.notes.append(f"the rewrite's runs called the rewritten {', '.join(sorted(rebind_names))}, "
                                "defined before the cell in each of its copies; the kernel's own are unchanged, "
                                "and what the definitions bind is not compared")
        result.notes += [
            describe_isolation(result, plan),
            *([differs] if differs else []),
            schedule.timing_how() + (", CUDA-synchronised" if _cuda_used() else ""),
            *schedule.peak_how,
            *summary(result, TOLERANCES),
        ]
    return result


def _blocked_advice(result: Comparison, plan: Plan, repeat: int) -> str:
    where = "forked copies of this kernel" if result.isolation == "process" else "this kernel"
    return (
        "nothing was written, sent or run: a Try never repeats a cell's external side effects. "
        f"To run them anyway (for real, {planned_runs(repeat)} times per version, in {where}), "
        "use --allow-io (or tick the panel's box), ideally on test data"
    )


def _copies_are_cheaper(data: int) -> bool:
    """Timed runs in two long-lived copies, each run on a copy of the inputs, when those copies are
    small (at most 256 MiB, and four of them fit in free memory); otherwise a fresh fork per timed
    run, which copies no data but pays the fork (in proportion to the kernel's memory) and a page
    copy on each first write inside the timed region."""
    if data > WORKER_DATA_LIMIT:
        return False
    try:
        import psutil

        return 4 * data <= int(psutil.virtual_memory().available)
    except Exception:
        return True


def _memory_refusal(data: int, isolation: str) -> str | None:
    """A Try needs room for the data the cell may change: one trial at a time, copy-on-write."""
    need = (data if isolation == "process" else 2 * data) + MEMORY_MARGIN
    try:
        import psutil

        free = int(psutil.virtual_memory().available)
    except Exception:
        return None
    if free < need:
        return (
            f"not enough free memory: a trial may need {need / 2**30:.1f} GiB for a copy of the data the cell "
            f"uses, and {free / 2**30:.1f} GiB are available"
        )
    return None


def _poll(cancel: Any) -> Callable[[], bool] | None:
    if cancel is None:
        return None
    if hasattr(cancel, "is_set"):
        return lambda: bool(cancel.is_set())
    return lambda: bool(cancel())


def _compile(python: str, label: str) -> Any:
    return compile_cell(python, f"<aiperf {label}>")  # keeps the displayed result, as IPython shows it


def _cuda_used() -> bool:
    torch = sys.modules.get("torch")
    return bool(torch is not None and torch.cuda.is_available() and torch.cuda.is_initialized())
