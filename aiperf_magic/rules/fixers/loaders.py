"""Fixes for data loading: DataLoader workers (AIP101), pinned batches (AIP102), streamed files (AIP104)."""

from __future__ import annotations

import builtins

import libcst as cst

from ...fixes.base import Cell, call_name, expr
from ...fixes.edits import Edits
from ...fixes.registry import fixer
from ...report import Finding

MOVES = ("to", "cuda")


def _loader_call(cell: Cell, finding: Finding) -> cst.Call | None:
    named = cell.at_line(finding.line, cst.Call, finding.col, where=lambda n: call_name(n).endswith("DataLoader"))
    # DataLoader imported under another name (DL(...)): any call on the line that is not a builtin
    other = cell.at_line(finding.line, cst.Call, finding.col, where=lambda n: not hasattr(builtins, call_name(n)))
    return named or other  # type: ignore[return-value]


@fixer("AIP101", "Load batches in worker processes")
def fix_workers(cell: Cell, finding: Finding) -> Edits | str:
    call = _loader_call(cell, finding)
    if call is None:
        return "no DataLoader(...) call on the finding's line"
    if any(a.star for a in call.args):
        # DataLoader(*args, **opts): the workers may already be set through the unpacked options
        return "the call unpacks *args/**kwargs, which may already set num_workers"
    edits = Edits(
        "Load batches in worker processes (num_workers from the CPU count, persistent workers)", safety="unsafe"
    )
    os_name = edits.need(cell, "os")
    edits.set_kwarg(call, "num_workers", f"max(1, ({os_name}.cpu_count() or 1) - 1)")
    edits.set_kwarg(call, "persistent_workers", "True")
    return edits


@fixer("AIP102", "Pin batches and copy them without blocking")
def fix_pinned(cell: Cell, finding: Finding) -> Edits | str:
    move = cell.at_line(
        finding.line,
        cst.Call,
        finding.col,
        where=lambda n: isinstance(n.func, cst.Attribute) and n.func.attr.value in MOVES,
    )
    if not isinstance(move, cst.Call):
        return "no .to(...)/.cuda() call on the finding's line"
    edits = Edits("Pin the loader's memory and copy batches with non_blocking=True")
    edits.set_kwarg(move, "non_blocking", "True")
    loader = _loader_of_loop(cell, move)
    if loader is not None:
        edits.set_kwarg(loader, "pin_memory", "True")
    return edits


def _loader_of_loop(cell: Cell, node: cst.CSTNode) -> cst.Call | None:
    """The ``DataLoader(...)`` call that made the loader the enclosing loop iterates, if in this cell."""
    loop = cell.enclosing_loop(node)
    if not isinstance(loop, cst.For):
        return None
    it = loop.iter
    while isinstance(it, cst.Call) and it.args and call_name(it) in ("enumerate", "tqdm", "tqdm.tqdm", "iter"):
        it = it.args[0].value
    if not isinstance(it, cst.Name):
        return None
    for assign in cell.nodes(cst.Assign):
        targets = assign.targets  # type: ignore[attr-defined]
        value = assign.value  # type: ignore[attr-defined]
        if (
            len(targets) == 1
            and isinstance(targets[0].target, cst.Name)
            and targets[0].target.value == it.value
            and isinstance(value, cst.Call)
            and call_name(value).endswith("DataLoader")
        ):
            return value
    return None


@fixer("AIP104", "Iterate the file instead of reading it whole")
def fix_stream(cell: Cell, finding: Finding) -> Edits | str:
    call = cell.at_line(finding.line, cst.Call, finding.col, where=_whole_read)
    if not isinstance(call, cst.Call):
        return "no .readlines(), .read().split() or list(open(...)) call on the finding's line"
    parent = cell.parent(call)
    if not (isinstance(parent, (cst.For, cst.CompFor)) and parent.iter is call):
        # lines = fh.readlines(): the list may be used after the file is closed, or indexed, or
        # iterated twice; streaming is only equivalent where the list is iterated once, in place.
        return "the lines are kept in a variable; iterate the file directly where they are used"
    edits = Edits("Iterate the file line by line instead of reading it whole")
    assert isinstance(call.func, (cst.Attribute, cst.Name))
    if call_name(call) == "list":  # list(open(p)) -> open(p)
        edits.replace[call] = call.args[0].value
    elif isinstance(call.func, cst.Attribute) and call.func.attr.value == "readlines":
        edits.replace[call] = call.func.value
    else:  # fh.read().split() -> one word at a time, line by line; only the no-argument split
        inner = call.func.value  # type: ignore[union-attr]
        assert isinstance(inner, cst.Call) and isinstance(inner.func, cst.Attribute)
        if call.args:
            # .split(",") joins the last field of a line with the first of the next one
            return "split with a separator crosses line ends; only .read().split() streams unchanged"
        fh = cell.code(inner.func.value)
        edits.replace[call] = expr(f"(_word for _line in {fh} for _word in _line.split())")
    return edits


def _whole_read(node: cst.CSTNode) -> bool:
    if not isinstance(node, cst.Call):
        return False
    name = call_name(node)
    if name == "list" and len(node.args) == 1 and call_name(node.args[0].value) == "open":
        return True
    func = node.func
    if isinstance(func, cst.Attribute) and func.attr.value == "readlines" and not node.args:
        return True
    return (
        isinstance(func, cst.Attribute)
        and func.attr.value == "split"
        and isinstance(func.value, cst.Call)
        and isinstance(func.value.func, cst.Attribute)
        and func.value.func.attr.value == "read"
        and not func.value.args
    )
