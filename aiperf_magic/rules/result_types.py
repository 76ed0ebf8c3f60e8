"""The types a loop's results have, so that its rewrite keeps every one the user can observe.

A loop over numbers gets Python scalars or NumPy scalars from what it walks, and keeps them in what
it builds:

- iterating a list gives its items as they are (Python numbers, or NumPy scalars for ``list(arr)``);
  iterating a ``range`` or a Series (``for v in s``) and ``itertuples()`` give Python scalars;
- iterating an array, indexing an array or a Series (``a[i]``, ``s[i]``), ``df.loc[i, c]`` and
  ``df.at[i, c]`` give NumPy scalars of the array's or column's dtype;
- ``iterrows()`` gives each row as a Series of the frame's common dtype: NumPy scalars of it when
  every column is numeric, Python objects when some column is not (the row is object dtype).

Whole-array code gives NumPy scalars: ``list(arr)`` keeps them and ``arr.tolist()`` makes them
Python ones; ``arr.sum()`` is a NumPy scalar and ``.item()`` a Python one. The dtype a whole-array
expression will have is computed by NumPy itself, on empty arrays (:func:`dtype_of`), so the
promotion rules are those of the NumPy the user runs. All of this reads the live objects that
``%%aiperf`` hands the rules after the run; without them (``aiperf lint``) callers assume the
common case and say so in their docs.
"""

from __future__ import annotations

import operator
import sys
import warnings
from collections.abc import Callable
from typing import Any

import libcst as cst

from ..cell.tree import call_name
from .elementwise import UFUNCS
from .facts import Facts
from .names import type_names

NUMPY, PYTHON = "numpy", "python"

_OPERATORS: dict[type, Callable[[Any, Any], Any]] = {
    cst.Add: operator.add, cst.Subtract: operator.sub, cst.Multiply: operator.mul, cst.Divide: operator.truediv,
    cst.FloorDivide: operator.floordiv, cst.Modulo: operator.mod, cst.Power: operator.pow,
    cst.LessThan: operator.lt, cst.GreaterThan: operator.gt, cst.LessThanEqual: operator.le,
    cst.GreaterThanEqual: operator.ge, cst.Equal: operator.eq, cst.NotEqual: operator.ne,
    cst.And: operator.and_, cst.Or: operator.or_,
}


class _Unknown(Exception):
    """A part of the expression whose type the run does not tell."""


def live_value(facts: Facts, node: cst.BaseExpression | None) -> Any:
    """The object a name holds in the live namespace (after the run, inside ``%%aiperf``), or None."""
    if not isinstance(node, cst.Name):
        return None
    sym = facts.symbol(node)
    if sym is not None and sym.obj is not None:
        return sym.obj
    namespace = facts.names.namespace
    return namespace.get(node.value) if namespace is not None else None


def is_a(obj: Any, qname: str) -> bool:
    """``obj`` is an instance of the class named ``qname`` (``"pandas.DataFrame"``), nothing imported."""
    try:
        return obj is not None and qname in type_names(obj)
    except Exception:  # exotic metaclasses: not a known kind
        return False


def scalars_of(facts: Facts, node: cst.BaseExpression, *, indexed: bool) -> str | None:
    """NUMPY or PYTHON: the scalars a loop gets from ``node``, iterating it or (``indexed``) reading
    ``node[i]``; None when neither the run nor the cell tells."""
    if isinstance(node, cst.Call) and facts.names.qname(node.func) == "builtins.range":
        return PYTHON
    obj = live_value(facts, node)
    if obj is not None:
        return _live_scalars(obj, indexed)
    sym = facts.symbol(node) if isinstance(node, cst.Name) else None
    if sym is None:
        return None
    if sym.kind == "ndarray":
        return NUMPY
    if sym.kind == "series":
        return NUMPY if indexed else PYTHON
    if sym.kind == "range":
        return PYTHON
    if sym.kind in ("list", "tuple"):
        made = sym.node
        if isinstance(made, cst.Call) and made.args and call_name(made) in ("list", "tuple", "sorted"):
            return NUMPY if scalars_of(facts, made.args[0].value, indexed=False) == NUMPY else PYTHON
        return PYTHON
    return None


def _live_scalars(obj: Any, indexed: bool) -> str | None:
    if isinstance(obj, (list, tuple)):
        return NUMPY if obj and is_a(obj[0], "numpy.generic") else PYTHON
    if isinstance(obj, range):
        return PYTHON
    if is_a(obj, "numpy.ndarray") or (indexed and is_a(obj, "pandas.Series")):
        return PYTHON if getattr(obj.dtype, "kind", "O") == "O" else NUMPY
    if is_a(obj, "pandas.Series"):
        return PYTHON
    return None


def scalar_kind(
    node: cst.CSTNode,
    leaf: Callable[[cst.CSTNode], str | None],
    scalar: Callable[[str], Any],
) -> str | None:
    """NUMPY or PYTHON: the scalars the element-wise ``node`` computes, one element at a time.

    ``leaf(n)`` is what an element read ``n`` gives (NUMPY, PYTHON, None when unknown; "" when
    ``n`` is not one). NumPy scalars win in arithmetic (``np.float64 * 2.0`` is one), ``math``
    functions return Python floats, ``x if c else y`` returns one of its branches, and values
    from outside the loop read through an attribute or an index are taken as Python numbers;
    None when a part is unknown."""
    got = leaf(node)
    if got != "":
        return got
    if isinstance(node, (cst.Integer, cst.Float, cst.SimpleString)):
        return PYTHON
    if isinstance(node, cst.Name):
        value = scalar(node.value)
        return NUMPY if is_a(value, "numpy.generic") else PYTHON
    if isinstance(node, (cst.Attribute, cst.Subscript)):
        return PYTHON  # cfg.scale, weights[0] from outside the loop: taken as Python numbers
    if isinstance(node, cst.Call):
        head = call_name(node).rpartition(".")[0]
        if head == "math":
            return PYTHON
        if head in ("np", "numpy"):
            return NUMPY
        parts: list[cst.CSTNode] = [a.value for a in node.args]
    elif isinstance(node, cst.IfExp):
        parts = [node.body, node.orelse]  # the test picks a branch; its own type is not kept
    elif isinstance(node, cst.Comparison):
        parts = [node.left, *(t.comparator for t in node.comparisons)]
    else:
        parts = [c for c in node.children if isinstance(c, cst.BaseExpression)]
    kinds = {scalar_kind(p, leaf, scalar) for p in parts}
    return NUMPY if NUMPY in kinds else None if None in kinds or not kinds else PYTHON


def dtype_of(
    node: cst.BaseExpression,
    leaf: Callable[[cst.CSTNode], Any | None],
    scalar: Callable[[str], Any | None],
) -> Any | None:
    """The NumPy dtype of the whole-array form of the element-wise ``node``.

    ``leaf(n)`` is the dtype of what an element read ``n`` reads (a column, the loop's array), or
    None when ``n`` is not one; ``scalar(name)`` is the value of a name from outside the loop.
    None when NumPy is not loaded or any part's type is unknown."""
    np = sys.modules.get("numpy")
    if np is None:
        return None
    try:
        with np.errstate(all="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            value = _value(np, node, leaf, scalar)
            return np.asarray(value).dtype
    except _Unknown:
        return None
    except Exception:  # NumPy refuses the operation (int64 ** -1): the rewrite would too, or differ
        return None


def _value(np: Any, node: cst.CSTNode, leaf: Callable[[cst.CSTNode], Any | None], scalar: Callable[[str], Any]) -> Any:
    def of(part: cst.CSTNode) -> Any:
        return _value(np, part, leaf, scalar)

    dtype = leaf(node)
    if dtype is not None:
        return np.empty(0, dtype=dtype)
    if isinstance(node, (cst.Integer, cst.Float)):
        return node.evaluated_value
    if isinstance(node, cst.Name):
        if node.value in ("True", "False"):
            return node.value == "True"
        value = scalar(node.value)
        if isinstance(value, (int, float)) or is_a(value, "numpy.generic"):
            return value
        raise _Unknown(node.value)
    if isinstance(node, cst.BinaryOperation):
        return _OPERATORS[type(node.operator)](of(node.left), of(node.right))
    if isinstance(node, cst.UnaryOperation):
        inner = of(node.expression)
        return -inner if isinstance(node.operator, cst.Minus) else +inner
    if isinstance(node, cst.Comparison) and len(node.comparisons) == 1:
        return _OPERATORS[type(node.comparisons[0].operator)](of(node.left), of(node.comparisons[0].comparator))
    if isinstance(node, cst.BooleanOperation):
        return _OPERATORS[type(node.operator)](of(node.left), of(node.right))
    if isinstance(node, cst.IfExp):
        return np.where(of(node.test), of(node.body), of(node.orelse))
    if isinstance(node, cst.Call) and len(node.args) == 1:
        name = call_name(node).rpartition(".")[2]
        if name == "abs" or name in UFUNCS:
            return getattr(np, "abs" if name in ("abs", "fabs") else name)(of(node.args[0].value))
    raise _Unknown(type(node).__name__)


def literal_kind(node: cst.CSTNode, element: Callable[[cst.CSTNode], str | None] | None = None) -> str | None:
    """The kind of values an element-wise expression gives, from the code and the kinds of its
    element reads: "b" (a comparison: True/False), "U" (text), "i" (``1 if c else 0``), "f" (a
    division, a float literal, ``np.sqrt``); None when the data decides or the kinds mix.
    ``element(n)`` is the kind an element read gives (None when ``n`` is not one)."""
    read = element(node) if element is not None else None
    if read is not None:
        return read
    if isinstance(node, (cst.Comparison, cst.BooleanOperation)):
        return "b"
    if isinstance(node, (cst.SimpleString, cst.ConcatenatedString, cst.FormattedString)):
        return "U"
    if isinstance(node, cst.Integer):
        return "i"
    if isinstance(node, cst.Float):
        return "f"
    if isinstance(node, cst.Name) and node.value in ("True", "False"):
        return "b"
    if isinstance(node, cst.UnaryOperation):
        return literal_kind(node.expression, element)
    if isinstance(node, cst.IfExp):
        body, orelse = literal_kind(node.body, element), literal_kind(node.orelse, element)
        return body if body == orelse else None
    if isinstance(node, cst.Call) and len(node.args) == 1:
        name = call_name(node).rpartition(".")[2]
        if name == "abs":
            return literal_kind(node.args[0].value, element)
        return "f" if name in UFUNCS else None
    if isinstance(node, cst.BinaryOperation):
        kinds = {literal_kind(node.left, element), literal_kind(node.right, element)}
        if "U" in kinds:
            return "U"
        if isinstance(node.operator, cst.Divide) or "f" in kinds:
            return "f"
        return "i" if kinds == {"i"} else None
    return None


def attribute_of(code: str, attribute: str) -> str:
    """``code.attribute``, parenthesised when ``code`` is an operation (``(a * b).sum()``)."""
    node = cst.parse_expression(code)
    atom = isinstance(node, (cst.Name, cst.Attribute, cst.Subscript, cst.Call)) or bool(node.lpar)
    return f"{code}.{attribute}" if atom else f"({code}).{attribute}"
