"""Small questions about expressions that several rules ask."""

from __future__ import annotations

import libcst as cst

from ..cell.tree import walk
from .elementwise import NUMERIC_FUNCS as _ELEMENTWISE_FUNCS
from .names import dotted

# Functions whose result is a number (beyond those the fixers can rewrite element-wise).
NUMERIC_FUNCS = _ELEMENTWISE_FUNCS | {"power", "square", "maximum", "minimum", "float_power", "arctan", "sign"}

_ARITH = (
    cst.Add,
    cst.Subtract,
    cst.Multiply,
    cst.Divide,
    cst.FloorDivide,
    cst.Modulo,
    cst.Power,
    cst.MatrixMultiply,
    cst.LeftShift,
    cst.RightShift,
)


def names_used(node: cst.CSTNode) -> set[str]:
    return {n.value for n in walk(node) if isinstance(n, cst.Name)}


def names_read(node: cst.CSTNode) -> set[str]:
    """The variables ``node`` reads: its names, less attribute names (``mean`` in ``img.mean()``) and
    keyword names (``dim`` in ``f(dim=1)``), which are not variables."""
    skip = {id(n.attr) for n in walk(node) if isinstance(n, cst.Attribute)}
    skip |= {id(a.keyword) for a in walk(node) if isinstance(a, cst.Arg) and a.keyword is not None}
    return {n.value for n in walk(node) if isinstance(n, cst.Name) and id(n) not in skip}


def is_arithmetic(node: cst.CSTNode) -> bool:
    """True when ``node``'s value is a number computed right here: ``x * 2``, ``-x``,
    ``math.sqrt(x)``, ``a[i] + b[i]``, ``x if x > 0 else -x``.

    Arithmetic buried in a call's arguments (``make(i * n)``) or an index (``parts[i + 1]``) is
    bookkeeping around other work, not element-wise number crunching: it does not count.
    """
    if isinstance(node, cst.BinaryOperation):
        return isinstance(node.operator, _ARITH) and not _is_string_format(node) and not is_sequence_op(node)
    if isinstance(node, cst.UnaryOperation):
        return isinstance(node.operator, cst.Minus) and not isinstance(node.expression, (cst.Integer, cst.Float))
    if isinstance(node, cst.IfExp):
        return is_arithmetic(node.body) or is_arithmetic(node.orelse)
    if isinstance(node, cst.Call):
        name = dotted_name(node.func) or ""
        return name.rsplit(".", 1)[-1] in NUMERIC_FUNCS
    return False


_SEQUENCES = (
    cst.List, cst.Tuple, cst.ListComp, cst.SimpleString, cst.FormattedString, cst.ConcatenatedString,
)
_SEQUENCE_MAKERS = frozenset({"list", "tuple", "str", "sorted", "split", "join", "strip", "format", "keys", "values"})


def is_sequence_op(node: cst.BinaryOperation) -> bool:
    """``["<bos>"] + tokens``, ``ids + [eos]``, ``[0] * n``, ``"-" * 20``: joining or repeating lists
    and strings, written with the arithmetic operators."""
    if not isinstance(node.operator, (cst.Add, cst.Multiply)):
        return False
    for side in (node.left, node.right):
        if isinstance(side, _SEQUENCES):
            return True
        if isinstance(side, cst.BinaryOperation) and is_sequence_op(side):
            return True
        if isinstance(side, cst.Call):
            name = (dotted_name(side.func) or "").rsplit(".", 1)[-1]
            if name in _SEQUENCE_MAKERS:
                return True
    return False


def is_scalar_arithmetic(node: cst.CSTNode) -> bool:
    """Arithmetic on numbers only: names, constants, subscripts, attributes and numeric functions
    (``x[i] * w[i]``, ``math.exp(-x)``); a call to anything else (a model, a loss, a helper that
    works on whole arrays) makes the element's work more than one number."""
    if not is_arithmetic(node):
        return False
    for sub in walk(node):
        if isinstance(sub, cst.Call):
            name = (dotted_name(sub.func) or "").rsplit(".", 1)[-1]
            if name not in NUMERIC_FUNCS:
                return False
        if isinstance(sub, cst.BinaryOperation) and is_sequence_op(sub):
            return False
    return True


def _is_string_format(node: cst.BinaryOperation) -> bool:
    """``"%d" % x`` and ``"a" + s`` are string work, not arithmetic."""
    return isinstance(node.left, (cst.SimpleString, cst.FormattedString, cst.ConcatenatedString))


def dotted_name(node: cst.CSTNode) -> str | None:
    """``a.b.c`` -> "a.b.c"; None for anything that is not a plain dotted name."""
    parts = dotted(node) if isinstance(node, cst.BaseExpression) else None
    return ".".join(parts) if parts is not None else None


def same_ref(a: cst.CSTNode, b: cst.CSTNode) -> bool:
    """Both are the same plain reference (``x``, ``self.buf``)."""
    da, db = dotted_name(a), dotted_name(b)
    return da is not None and da == db


def int_value(node: cst.CSTNode | None) -> int | None:
    if isinstance(node, cst.Integer):
        try:
            return int(node.evaluated_value)
        except ValueError:
            return None
    return None


def is_true(node: cst.CSTNode | None) -> bool:
    return isinstance(node, cst.Name) and node.value == "True"


def looks_like_device(node: cst.BaseExpression) -> bool:
    """An argument of ``.to(...)`` that names an accelerator rather than a dtype or the CPU."""
    if isinstance(node, cst.SimpleString):
        text = node.evaluated_value
        return isinstance(text, str) and text.startswith(("cuda", "mps", "xpu"))
    if isinstance(node, cst.Call):
        name = dotted_name(node.func) or ""
        return name.endswith("device") and bool(node.args) and looks_like_device(node.args[0].value)
    name = (dotted_name(node) or "").lower()
    if not name or "dtype" in name or name.startswith(("torch.float", "torch.int", "torch.bfloat", "torch.half")):
        return False
    leaf = name.rsplit(".", 1)[-1]
    return "dev" in leaf or "cuda" in leaf or "gpu" in leaf or leaf in ("rank", "local_rank")
