"""How many times a loop runs, when the code says so: the question every "in a loop" rule asks.

A trap inside a loop costs once per iteration. Over a handful of items (two file names, the five
folds of a cross-validation, a model's few parameter tensors) or in a loop that stops at its first
``break``, the cost is paid a handful of times: not a trap worth a finding.
"""

from __future__ import annotations

import libcst as cst

from .exprs import int_value
from .facts import Facts, Loop, Scope, unwrap_iterable

FEW = 8  # iterations at most that a loop over a written-out collection counts as "a few"

# ``model.parameters()`` and friends: one item per layer, a few dozen at most.
_PER_LAYER = frozenset({"parameters", "named_parameters", "children", "named_children", "buffers"})


def few_iterations(facts: Facts, loop: Loop, few: int = FEW) -> bool:
    """The loop runs at most ``few`` times, as far as the code shows."""
    if stops_at_once(loop):
        return True
    return count(facts, loop.iter, few, loop.scope) is not None


def count(
    facts: Facts, it: cst.BaseExpression | None, few: int = FEW, loop_scope: Scope | None = None
) -> int | None:
    """The number of items of a loop's iterable when the code spells it and it is at most ``few``
    (``range(max_attempts)`` with ``max_attempts=3`` a default of the function counts)."""
    it = unwrap_iterable(facts, it, also=("builtins.list", "builtins.sorted", "builtins.reversed"))
    if isinstance(it, (cst.Tuple, cst.List, cst.Set)):
        n = len(it.elements)
        return n if n <= few and not any(isinstance(e, cst.StarredElement) for e in it.elements) else None
    if isinstance(it, cst.Call):
        qname = facts.names.qname(it.func)
        if qname == "builtins.range":
            bounds = [_int(facts, loop_scope, a.value) for a in it.args if a.keyword is None]
            if len(bounds) == 1 and bounds[0] is not None:
                return bounds[0] if bounds[0] <= few else None
            if len(bounds) >= 2 and None not in bounds[:2]:
                n = bounds[1] - bounds[0]  # type: ignore[operator]
                return n if n <= few else None
            return None
        if qname == "builtins.zip" and it.args:
            sizes = [count(facts, a.value, few, loop_scope) for a in it.args]
            known = [s for s in sizes if s is not None]
            return min(known) if known else None
        if isinstance(it.func, cst.Attribute) and it.func.attr.value in _PER_LAYER:
            return few
        return None
    if isinstance(it, cst.Subscript) and len(it.slice) == 1 and isinstance(it.slice[0].slice, cst.Slice):
        cut = it.slice[0].slice  # items[:3]
        upper = int_value(cut.upper) if cut.lower is None and cut.step is None else None
        return upper if upper is not None and upper <= few else None
    if isinstance(it, cst.Name):
        binder = loop_scope.binder(it.value) if loop_scope is not None else None
        if binder is not None:  # a parameter: what the callers pass (``download(urls)``)
            from .models import passed_in

            sym = passed_in(facts, binder.node, it.value)
        else:
            sym = facts.symbol(it)
        if sym is not None and sym.size is not None and sym.size <= few:
            return sym.size
    return None


def _int(facts: Facts, scope: Scope | None, node: cst.BaseExpression) -> int | None:
    """A literal, a name bound to one in the notebook, or a parameter's literal default."""
    value = int_value(node)
    if value is not None or not isinstance(node, cst.Name):
        return value
    while scope is not None:
        if node.value in scope.params and isinstance(scope.node, cst.FunctionDef):
            param = next((p for p in scope.node.params.params if p.name.value == node.value), None)
            return int_value(param.default) if param is not None and param.default is not None else None
        scope = scope.parent
    sym = facts.symbols.get(node.value)
    return sym.size if sym is not None and sym.kind == "int" else None


def stops_at_once(loop: Loop) -> bool:
    """The loop body ends with an unconditional ``break``: it runs once (a peek, a demo)."""
    node = loop.node
    if not isinstance(node, (cst.For, cst.While)) or not isinstance(node.body, cst.IndentedBlock):
        return False
    body = node.body.body
    last = body[-1] if body else None
    return isinstance(last, cst.SimpleStatementLine) and any(isinstance(s, cst.Break) for s in last.body)
