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

from collections.abc import Callable
from typing import Any

import libcst as cst

from ...cell.parsed import ParsedCell
from ...cell.tree import assigned_names, call_name, names_in
from ...fixes.edits import Edits
from ..elementwise import vectorise
from ..facts import Facts
from ..result_types import is_a, live_value
from .matmul_loops import _scope
from .scatter_stores import _indices, _maker

OVERFLOWS = "an integer element is added or multiplied as an integer, which may wrap: the scalar warns, the array not"


def grid_store(cell: ParsedCell, loop: cst.For, edits: Edits, facts: Facts) -> Edits | str | None:
    """The rewrite, why there is none, or None when ``loop`` (either of the two) is not that shape."""
    outer, inner = _pair(cell, loop)
    if outer is None or inner is None:
        return None
    i, j = outer.target.value, inner.target.value  # type: ignore[attr-defined]
    n, m = _bound(outer), _bound(inner)
    if n is None or m is None or i == j:
        return None
    body = list(inner.body.body) if isinstance(inner.body, cst.IndentedBlock) else []
    test = None
    statement = body[-1] if body else None
    leading = body[:-1]  # r, g, b = img[i, j]; y = 0.3 * r: values of this element, named
    if not all(_bound_names(st) for st in leading):
        return None  # not a grid store: the inner loop may still be rewritten on its own
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
    local = {name for st in leading for name in _bound_names(st)}
    if any(({i, j} | local) & names_in(s) for s in cell.following(outer)):
        return f"{', '.join(sorted({i, j} | local))} is read after the loops, where the rewrite leaves it unbound"
    if any(owner in names_in(st) for st in leading) or owner in names_in(small.value):
        return f"the loops read {owner} itself: each element may depend on one stored before"
    def grid(name: str) -> str | None:  # the module is imported only where an index is written
        if name not in (i, j):
            return None
        mod = edits.need(cell, "torch" if lib == "torch" else "numpy")
        return f"{mod}.arange({n})[:, None]" if name == i else f"{mod}.arange({m})[None, :]"

    sub = _Elements(cell, facts, (i, j, n, m), assigned_names(_scope(cell, outer)))

    def subst(node: cst.CSTNode) -> str | None:
        if isinstance(node, cst.Name):
            return grid(node.value) or sub.names.get(node.value)
        return sub.element(node)

    def numpy() -> str:
        return edits.need(cell, "numpy")

    for st in leading:
        why = sub.bind(st, subst, {i, j} | local, numpy)
        if why is not None:
            return why
    if not sub.floats_first(small.value):
        return OVERFLOWS

    part = f"{owner}[:{n}, :{m}]"
    if test is not None:
        number = small.value.expression if isinstance(small.value, cst.UnaryOperation) else small.value
        if not (isinstance(number, (cst.Integer, cst.Float)) or _float_constant(small.value)):
            return "the stored value under the condition is not a number"
        where = vectorise(test, subst, {i, j} | local, numpy)
        if where is None or "where(" in where:
            return "the condition is not comparisons of the loops' indices"
        line = f"{part}[{where}] = {cell.code(small.value)}"
    else:
        value = vectorise(small.value, subst, {i, j} | local, numpy)
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


def _bound_names(statement: cst.CSTNode) -> list[str]:
    """The names ``name = ...`` or ``a, b, c = ...`` binds (none for any other statement)."""
    small = statement.body[0] if isinstance(statement, cst.SimpleStatementLine) and len(statement.body) == 1 else None
    if not isinstance(small, cst.Assign) or len(small.targets) != 1:
        return []
    target = small.targets[0].target
    if isinstance(target, cst.Name):
        return [target.value]
    if isinstance(target, (cst.Tuple, cst.List)) and all(isinstance(e, cst.Element) and isinstance(e.value, cst.Name)
                                                          for e in target.elements):
        return [e.value.value for e in target.elements]  # type: ignore[attr-defined]
    return []


class _Elements:
    """What the element ``[i, j]`` of the grid reads, as whole-grid code: a NumPy array of the run read
    at ``[i, j]`` (``img[i, j, 0]``, ``img[i][j]``) is its ``[:n, :m]`` part, and a name the loop body
    bound before the store is the grid of its value. With NumPy 2 a scalar and an array promote
    alike (NEP 50), so each element of the grid gets the dtype the scalar got. An integer element is
    taken only as a factor of a float constant (``0.299 * r``): integer arithmetic on it could wrap,
    where the scalar warns and the array does not."""

    def __init__(self, cell: ParsedCell, facts: Facts, loops: tuple[str, str, str, str], rebound: set[str]) -> None:
        self.cell, self.facts, self.rebound = cell, facts, rebound
        self.i, self.j, self.n, self.m = loops
        self.names: dict[str, str] = {}
        self.integers: set[str] = set()  # names and element code that hold integers

    def _array(self, name: str) -> Any:
        """The live NumPy array the loops read under ``name`` (not one the cell binds again)."""
        obj = live_value(self.facts, cst.Name(name)) if name not in self.rebound else None
        if not is_a(obj, "numpy.ndarray"):
            return None
        import numpy as np  # the run holds an array, so NumPy is loaded

        return obj if int(np.__version__.split(".")[0]) >= 2 else None

    def floats_first(self, node: cst.CSTNode) -> bool:
        """Every integer element under ``node`` is a factor of a float constant."""
        def integer(n: cst.CSTNode) -> bool:
            code = self.element(n)
            named = isinstance(n, cst.Name) and n.value in self.integers
            return named or (code is not None and code in self.integers)

        def ok(n: cst.CSTNode) -> bool:
            if integer(n):
                return False
            if isinstance(n, cst.BinaryOperation) and isinstance(n.operator, (cst.Multiply, cst.Divide)):
                sides = [n.left, n.right]
                if any(isinstance(x, cst.Float) for x in sides):
                    return all(integer(x) or ok(x) for x in sides)
            return all(ok(c) for c in n.children)

        return ok(node)

    def element(self, node: cst.CSTNode, ndim: int | None = None) -> str | None:
        """``a[i, j]`` of a 2-D array (``a[i, j, c]`` of a 3-D one, ``c`` an integer) -> ``a[:n, :m]``
        (``a[:n, :m, c]``); ``ndim`` asks for ``a[i, j]`` of an array of that many dimensions."""
        if not isinstance(node, cst.Subscript):
            return None
        found = _indices(node)
        if found is None or found[0] in self.names:
            return None
        owner, parts = found
        arr = self._array(owner)
        if arr is None or [self.cell.code(p) for p in parts[:2]] != [self.i, self.j]:
            return None
        rest = parts[2:]
        if not all(isinstance(p, cst.Integer) for p in rest):
            return None
        if getattr(arr, "ndim", None) != (ndim if ndim is not None else 2 + len(rest)):
            return None
        code = f"{owner}[{', '.join([f':{self.n}', f':{self.m}', *(self.cell.code(p) for p in rest)])}]"
        if arr.dtype.kind in "iub":
            self.integers.add(code)
        return code

    def bind(self, statement: cst.CSTNode, subst: Callable[[cst.CSTNode], str | None], loop_names: set[str],
             numpy: Callable[[], str]) -> str | None:
        """Learn what ``statement`` names, or say why the rewrite cannot."""
        names = _bound_names(statement)
        if not names or set(names) & {self.i, self.j}:
            return "the loop body holds more than values of the element and one store"
        small = statement.body[0]  # type: ignore[attr-defined]
        if len(names) > 1 or isinstance(small.targets[0].target, (cst.Tuple, cst.List)):
            whole = self.element(small.value, ndim=3)
            arr = self._array(_indices(small.value)[0]) if whole is not None else None  # type: ignore[index]
            if arr is None or arr.shape[2] != len(names):
                return ("the unpacked element is not a pixel of an array of the run with as many channels "
                        "as names")
            for c, name in enumerate(names):
                self.names[name] = f"{str(whole)[:-1]}, {c}]"
                if arr.dtype.kind in "iub":
                    self.integers.add(name)
            return None
        if not self.floats_first(small.value):
            return OVERFLOWS
        value = vectorise(small.value, subst, loop_names, numpy)
        if value is None or "where(" in value:
            return f"the value of {names[0]} is not arithmetic of the element"
        self.names[names[0]] = f"({value})"
        return None
