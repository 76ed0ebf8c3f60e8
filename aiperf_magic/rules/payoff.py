"""Whether a "measure first" rewrite pays on the data of this run: ``%%aiperf`` decides and says so.

Some rewrites win only at scale: a loop turned into one NumPy expression pays once there are
about a thousand items (converting a Python list to an array and back costs more than a short
loop), worker processes pay once each task is heavier than sending it to a process, a compiled
model pays once the loop runs long enough to repay tens of seconds of compilation. Their fixers
mark them (``Fix.measure_first``); after the cell ran, the sizes of the live data and the time of
the flagged lines decide. A rewrite the run does not justify is not proposed: the finding keeps
the reason, with the numbers (``Fix.reason``), and is not fixable here. One that pays carries
the numbers that say so (``Fix.evidence_note``). Loader workers (``TRY_MEASURES``) stay proposed
either way: the panel's Try measures them before Apply.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import libcst as cst

from ..cell.parsed import ParsedCell
from ..cell.tree import call_name, walk_all
from ..report import Finding
from .evidence import loop_iterations, measure

# A loop turned into one array expression: from these sizes on, the array form is faster (measured
# with ``benchmarks/fixes.py`` and ``benchmarks/fix_coverage.py``: a range or an array of 1,000
# items 3x; a Python list must first be converted to an array, which costs about what the loop
# did: 1.0x at 20,000 items, 1.6x at 1,000,000).
MIN_ITEMS = 1_000
MIN_LIST_ITEMS = 100_000
# A list built from a Python list goes to an array and back to a list of Python numbers
# (``.tolist()``, to keep its type): about 55 ns an item whatever the size (1,000,000 floats or
# ints on a shared 2-core machine), so it pays only for a loop slower than that per item: 1.7x
# for ``(f - 32) * 5 / 9`` at 90 ns an item, 0.8x for ``x ** 2`` at 47 ns.
LIST_ROUND_TRIP_NS = 55
PAYS_PER_ITEM_NS = 1.5 * LIST_ROUND_TRIP_NS
MIN_PROCESS_S = 1.0  # starting worker processes and sending them the work costs about 0.1 s
MIN_TASK_S = 0.001  # below it, pickling a task and its result outweighs the work of the task
MIN_COMPILE_S = 60.0  # torch.compile's first call takes tens of seconds on a small model
MIN_WORKERS_S = 2.0  # a DataLoader's workers start (and copy the dataset) at every epoch
# Rewrites whose gain the cell's time cannot predict (loader workers: the dataset's cost per item and
# the free cores decide): proposed anyway, for Try to measure; the panel applies them only once Try
# measured them equal and faster, and says "x0.99 on this machine: 2 cores; not worth it here" when not.
TRY_MEASURES = frozenset({"AIP101"})

Judge = Callable[[Finding, "cst.CSTNode | None", "Mapping[str, Any]", float, bool], tuple[bool, str]]


def decide(
    finding: Finding,
    node: cst.CSTNode | None,
    cell: ParsedCell | None,
    namespace: Mapping[str, Any],
    wall_s: float,
    *,
    sampled: bool,
) -> None:
    """Keep a measure-first fix when this run shows that it pays, else withdraw it with the reason."""
    fix = finding.fix
    if fix is None or not fix.source or fix.measure_first is None:
        return
    if node is not None and cell is not None and finding.code == "AIP401":
        node = cell.statement(node)  # ``with ThreadPoolExecutor() as pool:`` and the map inside it
    judge = _JUDGES.get(finding.code, _no_measure)
    pays, why = judge(finding, node, namespace, wall_s, sampled)
    if pays:
        fix.evidence_note = f"proposed because this run shows it pays: {why}"
        return
    if finding.code in TRY_MEASURES:
        # the run's time cannot tell: the panel's Try is the measurement, and Apply waits for it
        fix.evidence_note = f"Try measures whether it pays here: {why}"
        return
    fix.evidence_note = f"not proposed: {why}"
    fix.reason = f"measure first ({fix.measure_first}); in this run {why}"
    fix.source = fix.diff = ""
    finding.fixable = False


def _loop_items(node: cst.CSTNode | None, namespace: Mapping[str, Any]) -> tuple[int | None, bool]:
    """(number of items the flagged loop walks, whether they are a Python list or tuple)."""
    if node is None:
        return None, False
    it: Any = None
    if isinstance(node, cst.For):
        it = node.iter
    elif isinstance(node, (cst.ListComp, cst.GeneratorExp, cst.SetComp, cst.DictComp)):
        it = node.for_in.iter
    while isinstance(it, cst.Call) and call_name(it) in ("enumerate", "zip") and it.args:
        it = it.args[0].value
    is_list = isinstance(it, cst.Name) and isinstance(namespace.get(it.value), (list, tuple))
    return loop_iterations(node, namespace), is_list


def _arrays(
    finding: Finding, node: cst.CSTNode | None, ns: Mapping[str, Any], wall_s: float, sampled: bool
) -> tuple[bool, str]:
    n, is_list = _loop_items(node, ns)
    if n is None:
        # the run's own count: a loop whose bounds are parameters (range(len(values)) in a function)
        n = max((finding.evidence.get(k, 0) for k in ("items", "elements", "iterations")), default=0) or None
    if n is None:
        return False, "the number of items the loop walks is not known"
    need = MIN_LIST_ITEMS if is_list else MIN_ITEMS
    what = "a Python list of" if is_list else ""
    text = f"the loop walked {what} {n:,} items".replace("  ", " ")
    if n < need:
        return False, f"{text}; the array form pays from about {need:,}, below that the loop is as fast or faster"
    if is_list and _builds_list(node):
        seconds = float(finding.evidence.get("seconds", 0.0)) if sampled else 0.0
        per_item_ns = (seconds or wall_s) / n * 1e9
        if per_item_ns < PAYS_PER_ITEM_NS:
            return False, (
                f"{text} at about {per_item_ns:.0f} ns each; making the list an array and the result a list "
                f"again costs about {LIST_ROUND_TRIP_NS} ns an item, so the array form would not be faster"
            )
    return True, f"{text} (the array form pays from about {need:,})"


def _builds_list(node: cst.CSTNode | None) -> bool:
    """The flagged loop builds a list (a comprehension, ``out.append``), rather than a sum."""
    if isinstance(node, cst.ListComp):
        return True
    return isinstance(node, cst.For) and any(
        isinstance(n, cst.Call) and isinstance(n.func, cst.Attribute) and n.func.attr.value == "append"
        for n in walk_all(node.body)
    )


def _processes(
    finding: Finding, node: cst.CSTNode | None, ns: Mapping[str, Any], wall_s: float, sampled: bool
) -> tuple[bool, str]:
    tasks = _tasks(node, ns)
    if wall_s < MIN_PROCESS_S:
        return False, f"the whole cell took {wall_s:.3g} s; starting processes costs about 0.1 s"
    if tasks:
        per = wall_s / tasks
        if per < MIN_TASK_S:
            return False, f"{tasks:,} tasks of about {per * 1e3:.2g} ms each: sending them to processes costs more"
        return True, f"{tasks:,} tasks of about {per * 1e3:.3g} ms each in a {wall_s:.3g} s cell"
    return True, f"the threads' cell took {wall_s:.3g} s of CPU-bound work"


def _tasks(node: cst.CSTNode | None, ns: Mapping[str, Any]) -> int | None:
    """The number of items handed to the pool's ``map``, when the live namespace knows them."""
    if node is None:
        return None
    for n in walk_all(node):
        if (
            isinstance(n, cst.Call) and isinstance(n.func, cst.Attribute) and n.func.attr.value == "map"
            and len(n.args) >= 2 and isinstance(n.args[1].value, cst.Name) and n.args[1].value.value in ns
        ):
            kind, size = measure(ns[n.args[1].value.value])
            return size if kind else None
    return None


def _compile(
    finding: Finding, node: cst.CSTNode | None, ns: Mapping[str, Any], wall_s: float, sampled: bool
) -> tuple[bool, str]:
    loop_s = float(finding.evidence.get("seconds", 0.0)) if sampled else None
    spent = loop_s if loop_s is not None else wall_s
    if spent < MIN_COMPILE_S:
        where = "the loop" if loop_s is not None else "the whole cell"
        return False, f"{where} took {spent:.3g} s; compiling takes tens of seconds on the first call"
    if loop_s is None:
        return False, "the loop's own time was not measured (run with line timing to decide)"
    return True, f"the loop took {loop_s:.3g} s, long enough to repay the compilation"


def _workers(
    finding: Finding, node: cst.CSTNode | None, ns: Mapping[str, Any], wall_s: float, sampled: bool
) -> tuple[bool, str]:
    if wall_s < MIN_WORKERS_S:
        return False, f"the cell took {wall_s:.3g} s; worker processes start at every epoch"
    return True, f"the cell took {wall_s:.3g} s loading and using batches"


def _no_measure(
    finding: Finding, node: cst.CSTNode | None, ns: Mapping[str, Any], wall_s: float, sampled: bool
) -> tuple[bool, str]:
    return False, "nothing measured says whether it pays"


_JUDGES: dict[str, Judge] = {
    "AIP101": _workers,
    "AIP201": _arrays,
    "AIP401": _processes,
    "AIP506": _compile,
}
