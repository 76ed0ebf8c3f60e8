"""When AIP201's rewrite (a loop over numbers -> one NumPy expression) computes the same values,
and how it gives them back.

Preconditions, each a counterexample met in public code:

- **No list arithmetic.** ``[2 ** i for i in range(n)] * n_blocks`` repeats a list; on an array ``*``
  multiplies every element (equal only when ``n_blocks == 1``). ``[...] + [...]`` concatenates a
  list; on an array it adds. A comprehension that is an operand of ``*``, ``+`` or ``+=`` stays.
- **Numbers only.** Every other name in the element expression must not hold something known to be
  other than a number (a tensor, a frame, a list): ``torch.cat([x ** i for i in range(1, d)], 1)``
  over a tensor ``x`` is a list of tensors, and ``x ** np.arange(...)`` is a TypeError.
- **Integers stay within int64.** Python integers grow; NumPy's wrap around silently (``i ** 15``
  for ``i < 100`` reaches 7.6e28 and becomes -1.0e18). Where the loop walks a ``range`` of known
  bounds, the largest value of every sub-expression (and of the sum, for ``sum(...)``) is bounded
  and must fit; where the bounds are unknown, powers with an exponent above 2 and shifts are refused.
- **The result keeps its type.** A list stays a list and a sum stays the scalar the loop made:
  :func:`loop_scalars` tells whether the loop's values were NumPy scalars (it iterates or indexes an
  array: ``list(arr ** 2)``, ``out.extend(arr * 2)``, ``(arr * b).sum()``) or Python ones (a list of
  Python numbers, a ``range``: ``.tolist()``, ``.sum().item()``). Inside ``%%aiperf`` the live objects
  say; without a run, what the cell shows (``np.random.rand(n)``, ``.tolist()``, ``range``), and data
  nothing describes is taken to be an array (Try says when it is not).
"""

from __future__ import annotations

import math

import libcst as cst

from ...cell.parsed import ParsedCell
from ...cell.tree import call_name, walk_all
from ..elementwise import array_of, vectorise
from ..exprs import dotted_name, names_used
from ..facts import Facts
from ..result_types import NUMPY, PYTHON, attribute_of, live_value, scalar_kind, scalars_of

INT64_MAX = 2**63 - 1
_NUMBER_KINDS = frozenset({"int", "float", "param", "range"})
_TOO_BIG = float("inf")
_CONTAINER_LIBS = {"torch": "tensor", "pandas": "frame or series"}


def array_refused(
    cell: ParsedCell, node: cst.CSTNode, elt: cst.BaseExpression, var: str,
    iterable: cst.BaseExpression, facts: Facts, *, summed: bool = False,
) -> str | None:
    """Why the array form of ``[elt for var in iterable]`` would not equal the loop, or None."""
    parent = cell.parent(node)
    if isinstance(parent, cst.BinaryOperation) and isinstance(parent.operator, (cst.Multiply, cst.Add)):
        op = "repeated" if isinstance(parent.operator, cst.Multiply) else "concatenated"
        return f"the list is {op} ({cell.code(parent)}): on an array that operator works element by element"
    if isinstance(parent, cst.AugAssign):
        return "the list extends another list (+=): an array would be added element by element"
    containers = {b for n in walk_all(elt) if (b := indexed_by(n, var)) is not None}
    for name in sorted(containers):  # a[i] in an index loop: a must hold numbers
        kind = _container_kind(facts, name)
        if kind is not None:
            return f"{name} holds a {kind}, not an array of numbers: the element type is not proven numeric"
    for name in sorted(names_used(elt) - {var} - containers):
        kind = _kind(facts, name)
        if kind is not None:
            return f"{name} holds a {kind}, not a number: the element type is not proven numeric"
    top = _range_top(iterable, facts)
    if top is None:
        if _unbounded_ops(elt):
            return "the loop's values are not known and the expression has powers or shifts: int64 may overflow"
        return None
    peak = _peak(elt, var, top, facts)
    if peak is None:
        if _unbounded_ops(elt):
            return "the expression's size cannot be bounded and it has powers or shifts: int64 may overflow"
        return None
    count = top + 1
    if peak > INT64_MAX or (summed and peak * count > INT64_MAX):
        what = "its sum" if summed and peak <= INT64_MAX else "its values"
        size = _fmt(peak * count if what == "its sum" else peak)
        return f"{what} reach about {size}, beyond int64: Python ints do not overflow, NumPy's would"
    return None


def loop_scalars(facts: Facts, elt: cst.BaseExpression, var: str, iterable: cst.BaseExpression) -> str:
    """NUMPY or PYTHON: the scalars ``[elt for var in iterable]`` computes (NumPy ones when a value
    it reads comes from an array and no ``math`` function makes it a Python float, or when nothing
    tells)."""
    index_loop = len_source(iterable) is not None

    def leaf(node: cst.CSTNode) -> str | None:
        base = indexed_by(node, var)
        if base is not None:
            return scalars_of(facts, cst.Name(base), indexed=True)
        if isinstance(node, cst.Name) and node.value == var:
            return PYTHON if index_loop else scalars_of(facts, iterable, indexed=False)
        return ""

    def scalar(name: str) -> object:
        return live_value(facts, cst.Name(name))

    return scalar_kind(elt, leaf, scalar) or NUMPY


def indexed_by(node: cst.CSTNode, var: str) -> str | None:
    """``a`` for ``a[i]`` (a plain name indexed by the loop variable alone), else None."""
    if not (isinstance(node, cst.Subscript) and isinstance(node.value, cst.Name) and len(node.slice) == 1):
        return None
    index = node.slice[0].slice
    if isinstance(index, cst.Index) and isinstance(index.value, cst.Name) and index.value.value == var:
        return node.value.value if node.value.value != var else None
    return None


def len_source(iterable: cst.BaseExpression) -> str | None:
    """``a`` for ``range(len(a))``: the sequence an index loop walks."""
    if not (isinstance(iterable, cst.Call) and call_name(iterable) == "range" and len(iterable.args) == 1):
        return None
    inner = iterable.args[0].value
    if isinstance(inner, cst.Call) and call_name(inner) == "len" and len(inner.args) == 1:
        arg = inner.args[0].value
        return arg.value if isinstance(arg, cst.Name) else None
    return None


def _container_kind(facts: Facts, name: str) -> str | None:
    """What ``name`` holds when it is known not to be a flat sequence of numbers."""
    sym = facts.symbol(cst.Name(name))
    if sym is None:
        return _kind(facts, name)
    if sym.kind in ("ndarray", "series", "range"):
        return None
    if sym.kind in ("list", "tuple") and sym.numeric:
        return None
    return sym.kind if sym.kind not in ("list", "tuple") else f"{sym.kind} not known to hold numbers"


def _kind(facts: Facts, name: str) -> str | None:
    """What ``name`` holds when it is known not to be a number (a tensor, a frame, a list...)."""
    sym = facts.symbols.get(name)
    if sym is not None:
        return None if sym.kind in _NUMBER_KINDS else sym.kind
    for assign in facts.assigns:  # x = torch.linspace(0, 1, 64).unsqueeze(1): made by a library
        if assign.value is None or not any(isinstance(t, cst.Name) and t.value == name for t in assign.targets):
            continue
        for n in walk_all(assign.value):
            if isinstance(n, cst.Call):
                qname = facts.names.qname(n.func) if dotted_name(n.func) else None
                if qname and qname.split(".")[0] in _CONTAINER_LIBS:
                    return f"{_CONTAINER_LIBS[qname.split('.')[0]]} ({qname})"
    return None


def _fmt(x: float) -> str:
    return "infinity" if x == _TOO_BIG else f"{float(x):.2g}"


def _range_top(iterable: cst.BaseExpression, facts: Facts) -> int | None:
    """The largest absolute value a ``range(...)`` of known bounds yields."""
    if not (isinstance(iterable, cst.Call) and call_name(iterable) == "range"):
        return None
    bounds = [_int(a.value, facts) for a in iterable.args if a.keyword is None and not a.star]
    if not bounds or any(b is None for b in bounds):
        return None
    values = range(*bounds)  # type: ignore[arg-type]
    if not values:
        return 0
    return max(abs(values[0]), abs(values[-1]))


def _int(node: cst.BaseExpression, facts: Facts) -> int | None:
    if isinstance(node, cst.Integer):
        return int(node.evaluated_value)
    if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Minus):
        inner = _int(node.expression, facts)
        return -inner if inner is not None else None
    if isinstance(node, cst.Name):
        sym = facts.symbols.get(node.value)
        return sym.size if sym is not None and sym.kind == "int" else None
    if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, (cst.Add, cst.Subtract, cst.Multiply)):
        a, b = _int(node.left, facts), _int(node.right, facts)
        if a is None or b is None:
            return None
        op = node.operator
        return a + b if isinstance(op, cst.Add) else a - b if isinstance(op, cst.Subtract) else a * b
    return None


def _peak(node: cst.BaseExpression, var: str, top: int, facts: Facts) -> float | None:
    """An upper bound of |value| over every sub-expression of ``node`` (None when unknown)."""
    peaks: list[float] = []
    bound = _bound(node, var, top, facts, peaks)
    if bound is None:
        return None
    return max([bound, *peaks])


def _bound(node: cst.BaseExpression, var: str, top: int, facts: Facts, peaks: list[float]) -> float | None:
    if isinstance(node, (cst.Integer, cst.Float)):
        return abs(node.evaluated_value)
    if isinstance(node, cst.Name):
        if node.value == var:
            return top
        value = _int(node, facts)
        return abs(value) if value is not None else None
    if isinstance(node, cst.UnaryOperation):
        return _bound(node.expression, var, top, facts, peaks)
    if isinstance(node, cst.BinaryOperation):
        a = _bound(node.left, var, top, facts, peaks)
        b = _bound(node.right, var, top, facts, peaks)
        if a is None or b is None:
            return None
        out = _combine(node.operator, a, b, node.right)
        peaks.append(out)
        return out
    if isinstance(node, cst.Call):  # math.sqrt(...), abs(...): the argument is bounded on its own
        for arg in node.args:
            inner = _bound(arg.value, var, top, facts, peaks)
            if inner is None:
                return None
            peaks.append(inner)
        return None  # a float of unknown size: no int64 concern after it, but nothing to bound either
    return None


def _combine(op: cst.BaseBinaryOp, a: float, b: float, right: cst.BaseExpression) -> float:
    if isinstance(op, (cst.Add, cst.Subtract)):
        return a + b
    if isinstance(op, cst.Multiply):
        return a * b
    if isinstance(op, cst.Power):
        if a <= 1:
            return 1.0 if a < 1 else a
        if b * math.log2(a) > 1000:
            return _TOO_BIG
        return a**b
    if isinstance(op, cst.LeftShift):
        return _TOO_BIG if b > 1000 else a * 2**b
    if isinstance(op, cst.Modulo):
        return min(a, b)
    # division: |a / b| <= |a| when the divisor is a literal of at least 1
    if isinstance(right, (cst.Integer, cst.Float)) and abs(right.evaluated_value) >= 1:
        return a
    return _TOO_BIG if isinstance(op, cst.FloorDivide) else a


def _unbounded_ops(node: cst.CSTNode) -> bool:
    """Powers with an exponent above 2 (or not a literal) and shifts: they overflow int64 quickly."""
    for n in walk_all(node):
        if isinstance(n, cst.BinaryOperation):
            if isinstance(n.operator, cst.LeftShift):
                return True
            if isinstance(n.operator, cst.Power):
                right = n.right
                if not (isinstance(right, (cst.Integer, cst.Float)) and abs(right.evaluated_value) <= 2):
                    return True
    return False


def as_list(vec: str, numbers: str) -> str:
    """The list the comprehension built: ``list(arr)`` keeps NumPy scalars, ``.tolist()`` makes Python ones."""
    return f"list({vec})" if numbers == NUMPY else attribute_of(vec, "tolist()")


def total_of(vec: str, numbers: str) -> str:
    """The sum as the loop's scalars made it: a NumPy scalar, or a Python one (``.item()``)."""
    total = attribute_of(vec, "sum()")
    return total if numbers == NUMPY else f"{total}.item()"


def vector(
    cell: ParsedCell, elt: cst.BaseExpression, var: str, iterable: cst.BaseExpression, numpy: object
) -> str | None:
    """The array form of ``elt`` over ``iterable``. In an index loop (``for i in range(len(a))``),
    ``a[i]`` becomes ``np.asarray(a)`` and ``b[i]`` becomes ``np.asarray(b)[:len(a)]``: the loop
    reads the first ``len(a)`` items of ``b``."""
    arr = array_of(iterable, cell.code, numpy)  # type: ignore[arg-type]
    if arr is None:
        return None
    length = len_source(iterable)

    def subst(n: cst.CSTNode) -> str | None:
        if isinstance(n, cst.Name) and n.value == var:
            return arr
        base = indexed_by(n, var)
        if length is None or base is None:
            return None
        whole = f"{numpy()}.asarray({base})"  # type: ignore[operator]
        return whole if base == length else f"{whole}[:len({length})]"

    return vectorise(elt, subst, {var}, numpy)  # type: ignore[arg-type]
