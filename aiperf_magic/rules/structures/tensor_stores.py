"""AIP201 for an index loop that stores into a torch tensor the cell made before it:

```python
c = torch.zeros(n)
for i in range(n):          ->    c = torch.zeros(n)
    c[i] = a[i] + b[i]            c[:n] = a[:n] + b[:n]
```

Each ``a[i]`` becomes ``a[:n]``: the same elements, in one operation. The element expression may
use only arithmetic (``+ - * / // % **``, unary minus), numbers, names from outside the loop and
tensors indexed by the loop's own index; every tensor indexed must be a torch tensor (live in the
kernel, or made by a torch function in the cell): on a list ``a[:n] + b[:n]`` would concatenate.
Element-wise operations give each element what the 0-d operation gave it, with the same type
promotion, and the slice store casts to ``c``'s dtype as each store did.
"""

from __future__ import annotations

import libcst as cst

from ...cell.parsed import ParsedCell
from ...cell.tree import names_in
from ...fixes.edits import Edits
from ..facts import Facts
from ..result_types import is_a

_MAKERS = frozenset({"zeros", "empty", "ones", "full", "zeros_like", "empty_like", "ones_like", "full_like"})
_ARITH = (cst.Add, cst.Subtract, cst.Multiply, cst.Divide, cst.FloorDivide, cst.Modulo, cst.Power)


def made_tensor(cell: ParsedCell, loop: cst.For, owner: str, facts: Facts) -> bool:
    """``owner = torch.zeros(...)`` (or another factory) is the last statement before the loop that names it."""
    value = _last_value(cell, loop, owner)
    qname = facts.names.qname(value.func) if isinstance(value, cst.Call) else None
    return bool(qname) and qname.startswith("torch.") and qname.rsplit(".", 1)[1] in _MAKERS  # type: ignore[union-attr]


def tensor_store(cell: ParsedCell, loop: cst.For, owner: str, value: cst.BaseExpression, var: str,
                 edits: Edits, facts: Facts) -> Edits | str:
    it = loop.iter
    if not (isinstance(it, cst.Call) and isinstance(it.func, cst.Name) and it.func.value == "range"
            and len(it.args) == 1 and not it.args[0].keyword and not it.args[0].star):
        return "the loop is not over range(n)"
    n = cell.code(it.args[0].value)
    if var in names_in(it.args[0].value):
        return "the loop's bound reads its own index"
    tensors: set[str] = set()
    why = _elementwise(value, var, owner, tensors)
    if why is not None:
        return why
    if not tensors:
        return "the stored value reads no tensor at the loop's index"
    for name in sorted(tensors):
        if not _is_tensor(cell, loop, name, facts):
            return f"{name} is not known to be a torch tensor (a list sliced and added would be concatenated)"
    new = value.visit(_Sliced(var, n))
    code = cst.Module(body=[]).code_for_node(new)
    edits.measure_first = "one tensor operation pays from about a thousand elements; below that the loop is as fast"
    edits.title = "Compute with one tensor operation"
    edits.replace[loop] = cst.parse_statement(f"{owner}[:{n}] = {code}\n")
    return edits


def _elementwise(node: cst.BaseExpression, var: str, owner: str, tensors: set[str]) -> str | None:
    if isinstance(node, (cst.Integer, cst.Float)):
        return None
    if isinstance(node, cst.Name):
        if node.value == var:
            return "the loop's index itself is part of the value"
        return f"{owner}[i] reads {owner} itself" if node.value == owner else None
    if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Minus):
        return _elementwise(node.expression, var, owner, tensors)
    if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, _ARITH):
        return _elementwise(node.left, var, owner, tensors) or _elementwise(node.right, var, owner, tensors)
    if (isinstance(node, cst.Subscript) and isinstance(node.value, cst.Name) and len(node.slice) == 1
            and isinstance(node.slice[0].slice, cst.Index) and isinstance(node.slice[0].slice.value, cst.Name)
            and node.slice[0].slice.value.value == var):
        if node.value.value == owner:
            return f"{owner}[i] reads {owner} itself: each element may depend on the one before"
        tensors.add(node.value.value)
        return None
    return "the stored value is not arithmetic on tensors at the loop's index"


def _is_tensor(cell: ParsedCell, loop: cst.For, name: str, facts: Facts) -> bool:
    value = _last_value(cell, loop, name)
    if isinstance(value, cst.Call):
        qname = facts.names.qname(value.func) or ""
        return qname.startswith("torch.") and not qname.startswith("torch.nn.")
    if value is None and not any(name in names_in(s) for s in cell.preceding(loop)):
        return is_a(facts.names.live(name), "torch.Tensor")
    return False


def _last_value(cell: ParsedCell, loop: cst.For, name: str) -> cst.BaseExpression | None:
    for statement in reversed(cell.preceding(loop)):
        if name not in names_in(statement):
            continue
        small = statement.body[0] if isinstance(statement, cst.SimpleStatementLine) and len(statement.body) == 1 \
            else None
        if (isinstance(small, cst.Assign) and len(small.targets) == 1
                and isinstance(small.targets[0].target, cst.Name) and small.targets[0].target.value == name):
            return small.value
        return None
    return None


class _Sliced(cst.CSTTransformer):
    def __init__(self, var: str, n: str) -> None:
        super().__init__()
        self.var, self.n = var, n

    def leave_Subscript(self, original: cst.Subscript, updated: cst.Subscript) -> cst.BaseExpression:
        index = original.slice[0].slice if len(original.slice) == 1 else None
        if isinstance(index, cst.Index) and isinstance(index.value, cst.Name) and index.value.value == self.var:
            return cst.parse_expression(f"{cst.Module(body=[]).code_for_node(updated.value)}[:{self.n}]")
        return updated
