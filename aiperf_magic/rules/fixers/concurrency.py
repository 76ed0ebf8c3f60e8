"""Fixes for concurrency: CPU-bound threads become processes (AIP401); a sequential loop of blocking
I/O calls runs through ``ThreadPoolExecutor.map`` (AIP402)."""

from __future__ import annotations

import libcst as cst

from ...fixes.base import Cell, append_parts, assigned_names, call_name, names_in, walk
from ...fixes.edits import Edits
from ...fixes.registry import fixer
from ...report import Finding

# Worker processes are forked so that functions defined in the notebook itself (module __main__)
# are there in the children; spawn/forkserver would have to import them from a file.
FORK = '{mp}.get_context("fork")'


@fixer("AIP401", "Run CPU-bound work in processes")
def fix_threads(cell: Cell, finding: Finding) -> Edits | str:
    call = cell.at_line(
        finding.line,
        cst.Call,
        finding.col,
        where=lambda n: call_name(n).rsplit(".", 1)[-1] in ("Thread", "ThreadPoolExecutor"),
    )
    if not isinstance(call, cst.Call):
        return "no Thread(...) or ThreadPoolExecutor(...) call on the finding's line"
    name = call_name(call)
    edits = Edits("Run the CPU-bound work in worker processes (forked; Linux)", safety="unsafe")
    mp = edits.need(cell, "multiprocessing")
    if name.endswith("ThreadPoolExecutor"):
        for n in walk(cell.module):
            if (
                isinstance(n, cst.Call)
                and isinstance(n.func, cst.Attribute)
                and n.func.attr.value in ("submit", "map")
                and n.args
                and isinstance(n.args[0].value, cst.Lambda)
            ):
                # a process pool pickles the function it sends; a lambda cannot be pickled
                return "the pool is given a lambda, which a process pool cannot send to its workers"
        prefix = name.rsplit(".", 1)[0] + "." if "." in name else ""
        new = (
            f"{prefix}ProcessPoolExecutor"
            if prefix
            else edits.need_from(cell, "concurrent.futures", "ProcessPoolExecutor")
        )
        edits.replace[call.func] = cst.parse_expression(new)
        edits.set_kwarg(call, "mp_context", FORK.format(mp=mp))
        return edits
    if any(a.keyword is None for a in call.args):
        # Thread(group, target, ...) positional order differs from Process only in name; keep it simple
        return "Thread(...) is called with positional arguments"
    edits.replace[call.func] = cst.parse_expression(f"{FORK.format(mp=mp)}.Process")
    return edits


@fixer("AIP402", "Run the blocking calls concurrently in threads")
def fix_io_loop(cell: Cell, finding: Finding) -> Edits | str:
    loop = cell.at_line(finding.line, cst.For, finding.col)
    if not isinstance(loop, cst.For):
        return "no for statement on the finding's line"
    if loop.orelse or not isinstance(loop.target, cst.Name) or not isinstance(loop.body, cst.IndentedBlock):
        return "the loop unpacks its items or has an else clause"
    var = loop.target.value
    body = loop.body.body
    if len(body) != 1 or not isinstance(body[0], cst.SimpleStatementLine) or len(body[0].body) != 1:
        # several statements per item may depend on each other's order (or break/continue)
        return "the loop body is more than one statement"
    if any(var in names_in(s) for s in cell.following(loop)):
        return f"{var} is used after the loop, where the last item would no longer be bound"
    small = body[0].body[0]
    per_item = assigned_names(loop.body) - {var}
    edits = Edits("Run the blocking calls concurrently with ThreadPoolExecutor.map", safety="unsafe")
    pool = cell.fresh("pool")
    items = cell.code(loop.iter)

    def mapped(value: cst.BaseExpression) -> str | None:
        if names_in(value) & per_item:
            return None
        return f"{pool}.map(lambda {var}: {cell.code(value)}, {items})"

    line: str | None = None
    if (parts := append_parts(small)) is not None:
        owner, value = parts
        m = mapped(value)
        if m is not None and var not in names_in(owner):
            line = f"{cell.code(owner)}.extend({m})"
    elif (
        isinstance(small, cst.Assign) and len(small.targets) == 1 and isinstance(small.targets[0].target, cst.Subscript)
    ):
        target = small.targets[0].target
        key = target.slice[0].slice if len(target.slice) == 1 else None
        m = mapped(small.value)
        if (
            m is not None
            and isinstance(key, cst.Index)
            and cell.code(key.value) == var
            and isinstance(loop.iter, cst.Name)
            and var not in names_in(target.value)
        ):
            # the items are walked twice (keys and map), so only a named collection qualifies
            line = f"{cell.code(target.value)}.update(zip({items}, {m}))"
    elif isinstance(small, cst.Expr) and isinstance(small.value, cst.Call):
        m = mapped(small.value)
        if m is not None:
            line = f"list({m})"
    if line is None:
        return "the loop body is not results.append(f(item)), d[item] = f(item) or f(item)"
    tpe = edits.need_from(cell, "concurrent.futures", "ThreadPoolExecutor")
    edits.replace[loop] = cst.parse_statement(f"with {tpe}() as {pool}:\n    {line}\n")
    return edits
