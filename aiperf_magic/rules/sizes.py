"""Sizes the code spells out: elements of an array made from literal sizes, items of a range,
rows of a frame typed into a cell. Small by construction means a trap cannot cost much there."""

from __future__ import annotations

import libcst as cst

TINY_ROWS = 20  # rows a person types into a cell to show something; not a workload


def is_number(node: cst.BaseExpression) -> bool:
    if isinstance(node, (cst.Integer, cst.Float)):
        return True
    return isinstance(node, cst.UnaryOperation) and isinstance(node.expression, (cst.Integer, cst.Float))


def array_size(qname: str, call: cst.Call) -> int | None:
    """Elements of ``np.arange(200)``, ``np.linspace(0, 1, 50)``, ``np.zeros((3, 4))``,
    ``rng.normal(size=10_000)``, when the code spells the sizes."""
    leaf = qname.rsplit(".", 1)[-1]
    pos = [_number(a.value) for a in call.args if a.keyword is None]
    kw = {a.keyword.value: a.value for a in call.args if a.keyword is not None}
    if leaf == "arange" and pos and None not in pos:
        start, stop, step = (0.0, pos[0], 1.0) if len(pos) == 1 else (pos[0], pos[1], pos[2] if len(pos) > 2 else 1.0)
        return max(0, int((stop - start) / step)) if step else None  # type: ignore[operator]
    if leaf == "linspace":
        num = kw.get("num") or (call.args[2].value if len(call.args) > 2 and call.args[2].keyword is None else None)
        count = _number(num) if num is not None else 50.0
        return int(count) if count is not None else None
    shape = kw.get("size") or kw.get("shape")
    if shape is None and leaf in ("zeros", "ones", "empty", "full", "rand", "randn", "random", "standard_normal"):
        shape = call.args[0].value if call.args and call.args[0].keyword is None else None
    if shape is None:
        return None
    dims = [e.value for e in shape.elements] if isinstance(shape, cst.Tuple) else [shape]
    total = 1
    for dim in dims:
        value = _number(dim)
        if value is None:
            return None
        total *= int(value)
    return total


def range_size(call: cst.Call) -> int | None:
    bounds = [_number(a.value) for a in call.args if a.keyword is None]
    if not bounds or None in bounds:
        return None
    start, stop = (0.0, bounds[0]) if len(bounds) == 1 else (bounds[0], bounds[1])
    step = bounds[2] if len(bounds) > 2 else 1.0
    return max(0, int((stop - start) / step)) if step else None  # type: ignore[operator]


def _number(node: cst.BaseExpression | None) -> float | None:
    if isinstance(node, (cst.Integer, cst.Float)):
        try:
            return float(node.evaluated_value)
        except ValueError:
            return None
    if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Minus):
        inner = _number(node.expression)
        return -inner if inner is not None else None
    return None


def literal_args(call: cst.Call) -> bool:
    """``pd.DataFrame({"a": [1, 2]})``: a frame spelled out in the cell, small by construction.

    Only constants count: ``{"price": rng.random(20_000)}`` is a dict literal holding a large array."""
    data = call.args[0].value if call.args and call.args[0].keyword is None else None
    rows = _literal_rows(data) if data is not None else None
    return rows is not None and rows <= TINY_ROWS


def _literal_rows(node: cst.BaseExpression) -> int | None:
    """Rows of a frame spelled with constants only (a dict of lists, a list of rows); else None."""
    if isinstance(node, cst.Dict):
        lengths = []
        for el in node.elements:
            if not isinstance(el, cst.DictElement):
                return None
            value = el.value
            if isinstance(value, (cst.List, cst.Tuple)):
                if not all(_constant(e.value) for e in value.elements):
                    return None
                lengths.append(len(value.elements))
            elif _constant(value):
                lengths.append(1)
            else:
                return None
        return max(lengths, default=0)
    if isinstance(node, (cst.List, cst.Tuple)):
        for item in node.elements:
            row = item.value
            if isinstance(row, (cst.List, cst.Tuple, cst.Dict)):
                if _literal_rows(row) is None:
                    return None
            elif not _constant(row):
                return None
        return len(node.elements)
    return None


def _constant(node: cst.BaseExpression) -> bool:
    if isinstance(node, (cst.SimpleString, cst.ConcatenatedString)) or is_number(node):
        return True
    return isinstance(node, cst.Name) and node.value in ("None", "True", "False")
