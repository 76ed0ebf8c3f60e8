"""Names a cell binds to clock readings: ``start = time.time()``, ``duration = time.time() - start``.

Two runs of the same cell bind them to other values (the rewrite is meant to change a duration), so
Try does not compare them and says so in a note, as it does for durations in printed output and in a
displayed string. A name counts when every value the cell's own top-level code assigns to it is an
expression that reads a clock (``time.time()``, ``perf_counter``, ``monotonic``, ``process_time``
and their ``_ns`` forms, ``timeit.default_timer``, ``datetime.now()``/``utcnow()``) or another such
name, and nothing but names, numbers and arithmetic: ``total = data.sum() + time.time()`` is not a
clock reading, nor is a name also assigned anything else.
"""

from __future__ import annotations

import ast

CLOCKS = frozenset({"time", "perf_counter", "monotonic", "process_time", "time_ns", "perf_counter_ns",
                    "monotonic_ns", "process_time_ns", "default_timer", "now", "utcnow"})
_ARITHMETIC = (ast.BinOp, ast.UnaryOp, ast.Constant, ast.Name, ast.Load, ast.operator, ast.unaryop)


def clock_names(python: str) -> set[str]:
    """The names of the cell's top level (outside functions and classes) that hold clock readings."""
    try:
        tree = ast.parse(python)
    except SyntaxError:
        return set()
    values: dict[str, list[ast.expr]] = {}
    other: set[str] = set()
    for node in _top_level(tree):
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            values.setdefault(node.targets[0].id, []).append(node.value)
        elif isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.For, ast.With, ast.NamedExpr)):
            for target in _targets(node):
                other.add(target)
    found: set[str] = set()
    changed = True
    while changed:  # a duration reads a start time: found once the start is
        changed = False
        for name, exprs in values.items():
            if name not in found and name not in other and all(_reading(e, found) for e in exprs):
                found.add(name)
                changed = True
    return found


def _top_level(tree: ast.Module) -> list[ast.AST]:
    out: list[ast.AST] = []
    stack: list[ast.AST] = list(tree.body)
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            continue
        out.append(node)
        stack.extend(ast.iter_child_nodes(node))
    return out


def _targets(node: ast.AST) -> list[str]:
    if isinstance(node, ast.Assign):
        roots: list[ast.AST] = list(node.targets)
    elif isinstance(node, (ast.AugAssign, ast.AnnAssign, ast.For, ast.NamedExpr)):
        roots = [node.target]
    elif isinstance(node, ast.With):
        roots = [i.optional_vars for i in node.items if i.optional_vars is not None]
    else:
        roots = []
    return [n.id for r in roots for n in ast.walk(r) if isinstance(n, ast.Name)]


def _reading(expr: ast.expr, found: set[str]) -> bool:
    """Arithmetic of clock calls and clock names, with at least one of them."""
    clock = False
    stack: list[ast.AST] = [expr]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Call):
            if node.args or node.keywords or not _clock_call(node.func):
                return False
            clock = True
            continue
        if isinstance(node, ast.Name):
            if node.id not in found:
                return False
            clock = True
            continue
        if not isinstance(node, _ARITHMETIC):
            return False
        stack.extend(ast.iter_child_nodes(node))
    return clock


def _clock_call(func: ast.expr) -> bool:
    """``time.time``, ``time.perf_counter``, ``datetime.now``, ``datetime.datetime.now``, or a bare
    ``perf_counter`` (imported from time)."""
    if isinstance(func, ast.Name):
        return func.id in CLOCKS - {"now"}
    return isinstance(func, ast.Attribute) and func.attr in CLOCKS
