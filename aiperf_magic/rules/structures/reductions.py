"""AIP201 for Python's ``sum``, ``min`` and ``max`` over a NumPy array (found by the run: the builtin
walks the elements as Python objects): NumPy's own reduction, for every such call on the statement.

``sum(big_array)`` -> ``np.cumsum(big_array)[-1]`` for floats, ``np.sum`` otherwise, and
``low, high = min(a), max(a)`` -> ``np.min(a), np.max(a)``. The results keep their types and values
(a NumPy scalar of the array's dtype, as the builtin's additions and comparisons of NumPy scalars
gave): floats are summed in order, as ``sum`` added them (``np.sum`` adds pairwise, and its last
digits differ). Refused unless the run shows a one-dimensional, non-empty array of numbers or
booleans (over a 2-D array ``sum`` adds rows and ``min`` fails), and for ``min``/``max`` no NaN (the
builtin's answer then depends on where the NaN sits; NumPy's is NaN). Tensors are told to use their
own methods.
"""

from __future__ import annotations

import libcst as cst

from ...cell.parsed import ParsedCell
from ...cell.tree import walk_all
from ...fixes.edits import Edits
from ..facts import Facts

BUILTIN_REDUCERS = frozenset({"builtins.sum", "builtins.min", "builtins.max"})


def builtin_reductions(cell: ParsedCell, call: cst.Call, facts: Facts) -> Edits | str:
    statement = cell.statement(call)
    calls = [n for n in walk_all(statement)
             if isinstance(n, cst.Call) and facts.names.qname(n.func) in BUILTIN_REDUCERS]
    edits = Edits("Reduce with NumPy", safety="unsafe")
    for node in [call, *(c for c in calls if c is not call)]:
        why = _refused(cell, node, facts)
        if why is not None:
            if node is call:
                return why
            continue  # another builtin on the line: left as it is
        np_name, name, arg = edits.need(cell, "numpy"), call_name_leaf(facts, node), cell.code(node.args[0].value)
        # floats added in order, as sum() added them (np.sum adds pairwise: its last digits differ)
        floats = name == "sum" and _live(facts, node.args[0].value).dtype.kind == "f"
        code = f"{np_name}.cumsum({arg})[-1]" if floats else f"{np_name}.{name}({arg})"
        edits.replace[node] = cst.parse_expression(code)
    return edits


def _refused(cell: ParsedCell, call: cst.Call, facts: Facts) -> str | None:
    if len(call.args) != 1 or call.args[0].keyword is not None or call.args[0].star:
        return "the builtin has a start value, a key or a default; NumPy's reduction has none of them"
    arg = call.args[0].value
    live = _live(facts, arg)
    module = type(live).__module__.split(".")[0]
    if module == "torch":
        return f"write {cell.code(arg)}.{call_name_leaf(facts, call)}() (the tensor's own reduction)"
    if module != "numpy" or getattr(live, "ndim", None) != 1 or getattr(live.dtype, "kind", "") not in "iufb":
        return f"the run does not show {cell.code(arg)} as a one-dimensional NumPy array of numbers"
    if live.size == 0:
        return f"{cell.code(arg)} is empty"
    if call_name_leaf(facts, call) in ("min", "max") and live.dtype.kind == "f":
        import numpy as np  # the array is NumPy's: NumPy is loaded

        if bool(np.isnan(live).any()):
            return f"{cell.code(arg)} holds NaN, where the builtin's answer depends on its position"
    return None


def call_name_leaf(facts: Facts, call: cst.Call) -> str:
    return (facts.names.qname(call.func) or "").rsplit(".", 1)[-1]


def _live(facts: Facts, node: cst.BaseExpression) -> object:
    ns = facts.names.namespace
    return ns.get(node.value) if ns is not None and isinstance(node, cst.Name) else None


def item_sum(cell: ParsedCell, loop: cst.For, small: cst.AugAssign, var: str, facts: Facts) -> str | None:
    """``for i in range(len(t)): total += t[i].item()`` (or ``for x in t: total += x.item()``) over a
    live 1-D floating tensor -> ``total += t.double().sum().item()``: the loop added the elements as
    Python floats, in float64, and so does the sum (pairwise: the last digits may differ, within
    Try's float64 tolerance); a float32 sum would round otherwise. None when it is not that shape."""
    value = small.value
    if not (isinstance(small.target, cst.Name) and isinstance(value, cst.Call) and not value.args
            and isinstance(value.func, cst.Attribute) and value.func.attr.value == "item"):
        return None
    item, it = value.func.value, loop.iter
    if isinstance(item, cst.Name) and item.value == var and isinstance(it, cst.Name):
        tensor = it  # for x in t: total += x.item()
    elif (isinstance(item, cst.Subscript) and isinstance(item.value, cst.Name) and len(item.slice) == 1
          and isinstance(item.slice[0].slice, cst.Index) and isinstance(item.slice[0].slice.value, cst.Name)
          and item.slice[0].slice.value.value == var and cell.code(it) == f"range(len({item.value.value}))"):
        tensor = item.value  # for i in range(len(t)): total += t[i].item()
    else:
        return None
    live = _live(facts, tensor)
    if type(live).__module__.split(".")[0] != "torch" or getattr(live, "ndim", None) != 1 or not getattr(
            live, "is_floating_point", lambda: False)():
        return None
    return f"{small.target.value} += {tensor.value}.double().sum().item()\n"
