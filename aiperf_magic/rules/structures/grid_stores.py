"""AIP201 for two nested index loops that store into every ``[i, j]`` of a tensor or array the cell
made before them, a value of ``i`` and ``j`` alone, or a constant under a condition on them (a causal
mask):

```python
mask = torch.zeros(seq_len, seq_len)
for i in range(seq_len):
    for j in range(seq_len):
        if j > i:
            mask[i, j] = float("-inf")
# becomes
mask = torch.zeros(seq_len, seq_len)
mask[:seq_len, :seq_len][torch.arange(seq_len)[None, :] > torch.arange(seq_len)[:, None]] = float("-inf")
```

``i`` becomes a column of the row indices and ``j`` a row of the column indices, so that an
expression of both is the grid of its values; the store writes the same elements (the ``[:n, :m]``
view is the part the loops walked). Refused unless: the loops are ``for i in range(n)`` and
``for j in range(m)``, the outer one's body is the inner one, the inner one's body is the store (or
one ``if`` around it, without ``else``), the store is ``t[i, j]`` or ``t[i][j]`` of a tensor or array
made by a factory just before the loops, the value is a number (under a condition) or arithmetic of
``i``, ``j``, numbers and names from outside, the condition is comparisons of the same, and neither
``i`` nor ``j`` is read after the loops.
"""

from __future__ import annotations

import libcst as cst

from ...cell.parsed import ParsedCell
from ...cell.tree import call_name, names_in
from ...fixes.edits import Edits
from ..elementwise import vectorise
from ..facts import Facts
from .scatter_stores import _indices, _maker


def grid_store(cell: ParsedCell, loop: cst.For, edits: Edits, facts: Facts) -> Edits | str | None:
    """The rewrite, why there is none, or None when ``loop`` (either of the two) is not that shape."""
    outer, inner = _pair(cell, loop)
    if outer is None or inner is None:
        return None
    i, j = outer.target.value, inner.target.value  # type: ignore[attr-defined]
    n, m = _bound(outer), _bound(inner)
    if n is None or m is None or i == j:
        return None
    body = inner.body.body if isinstance(inner.body, cst.IndentedBlock) else []
    test = None
    statement = body[0] if len(body) == 1 else None
    if isinstance(statement, cst.If) and statement.orelse is None and isinstance(statement.body, cst.IndentedBlock) \
            and len(statement.body.body) == 1:
        test, statement = statement.test, statement.body.body[0]
    small = statement.body[0] if isinstance(statement, cst.SimpleStatementLine) and len(statement.body) == 1 else None
    if not isinstance(small, cst.Assign) or len(small.targets) != 1:
        return None  # not a grid store: the inner loop may still be rewritten on its own
    found = _indices(small.targets[0].target)
    if found is None or [cell.code(p) for p in found[1]] != [i, j]:
        return None
    owner = found[0]
    lib = _maker(cell, outer, owner, facts)
    if lib is None:
        return f"{owner} is not a tensor or an array made just before the loops"
    if any({i, j} & names_in(s) for s in cell.following(outer)):
        return f"{i} or {j} is read after the loops, where the rewrite leaves it unbound"
    mod = edits.need(cell, "torch" if lib == "torch" else "numpy")
    grid = {i: f"{mod}.arange({n})[:, None]", j: f"{mod}.arange({m})[None, :]"}

    def subst(node: cst.CSTNode) -> str | None:
        return grid.get(node.value) if isinstance(node, cst.Name) else None

    def numpy() -> str:
        return edits.need(cell, "numpy")

    part = f"{owner}[:{n}, :{m}]"
    if test is not None:
        number = small.value.expression if isinstance(small.value, cst.UnaryOperation) else small.value
        if not (isinstance(number, (cst.Integer, cst.Float)) or _float_constant(small.value)):
            return "the stored value under the condition is not a number"
        where = vectorise(test, subst, {i, j}, numpy)
        if where is None or "where(" in where:
            return "the condition is not comparisons of the loops' indices"
        line = f"{part}[{where}] = {cell.code(small.value)}"
    else:
        value = vectorise(small.value, subst, {i, j}, numpy)
        if value is None or "where(" in value:
            return "the stored value is not arithmetic of the loops' indices"
        line = f"{part} = {value}"
    edits.title, edits.measure_first = "Store the whole grid at once", None
    edits.replace[outer] = cst.parse_statement(line + "\n")
    return edits


def _pair(cell: ParsedCell, loop: cst.For) -> tuple[cst.For | None, cst.For | None]:
    """(outer, inner) when ``loop`` is either of two loops nested with nothing else in the outer."""
    body = loop.body.body if isinstance(loop.body, cst.IndentedBlock) else []
    if len(body) == 1 and isinstance(body[0], cst.For):
        outer, inner = loop, body[0]
    else:
        parent = cell.parents.get(cell.parents.get(loop))  # IndentedBlock -> For
        block = parent.body.body if isinstance(parent, cst.For) and isinstance(parent.body, cst.IndentedBlock) else []
        if not (len(block) == 1 and block[0] is loop):
            return None, None
        outer, inner = parent, loop
    ok = all(isinstance(x.target, cst.Name) and x.orelse is None and x.asynchronous is None for x in (outer, inner))
    return (outer, inner) if ok else (None, None)


def _bound(loop: cst.For) -> str | None:
    """``n`` of ``for i in range(n)``."""
    it = loop.iter
    if isinstance(it, cst.Call) and call_name(it) == "range" and len(it.args) == 1 and it.args[0].keyword is None:
        return cst.Module(body=[]).code_for_node(it.args[0].value)
    return None


def _float_constant(node: cst.BaseExpression) -> bool:
    """``float("-inf")``, ``float("nan")``: a number written as a call."""
    return (isinstance(node, cst.Call) and call_name(node) == "float" and len(node.args) == 1
            and isinstance(node.args[0].value, cst.SimpleString))
