"""A row loop's ``if``/``elif``/``else`` whose branches each store one value into the same place
(append to one list, assign one column, add to one total) is that store of one conditional value:

```python
if row["qty"] > 2:                         out.append(row["price"] * 0.9 if row["qty"] > 2
    out.append(row["price"] * 0.9)     ->             else row["price"])
else:
    out.append(row["price"])
```

which the column rewrite turns into ``np.where`` (nested for ``elif``: the first true condition
wins, as ``np.select`` takes it). Without ``else`` only a total qualifies (``total += v if c else 0``):
a list or a column would miss the rows the condition skips. Branches with more than one statement,
with ``break``/``continue``, or storing into different places are left alone.
"""

from __future__ import annotations

import libcst as cst

_PARENS = {"lpar": [cst.LeftParen()], "rpar": [cst.RightParen()]}


def merged_branches(node: cst.If) -> cst.BaseSmallStatement | None:
    """The single store ``node`` amounts to, or None."""
    arms: list[tuple[cst.BaseExpression, cst.BaseSmallStatement]] = []
    current: cst.If | cst.Else | None = node
    last: cst.BaseSmallStatement | None = None
    while isinstance(current, cst.If):
        small = _single(current.body)
        if small is None:
            return None
        arms.append((current.test, small))
        current = current.orelse
    if isinstance(current, cst.Else):
        last = _single(current.body)
        if last is None:
            return None
    slots = {_slot(s) for _, s in arms} | ({_slot(last)} if last is not None else set())
    if len(slots) != 1 or None in slots:
        return None
    first = arms[0][1]
    if last is None:
        if not (isinstance(first, cst.AugAssign) and isinstance(first.operator, cst.AddAssign)):
            return None
        value: cst.BaseExpression = cst.Integer("0")
    else:
        value = _value(last)
    for test, small in reversed(arms):
        value = cst.IfExp(test=_p(test), body=_p(_value(small)), orelse=_p(value))
    return _with_value(first, value)


def _single(body: cst.BaseSuite) -> cst.BaseSmallStatement | None:
    if isinstance(body, cst.IndentedBlock) and len(body.body) == 1:
        line = body.body[0]
        if isinstance(line, cst.SimpleStatementLine) and len(line.body) == 1:
            return line.body[0]
    return None


def _code(node: cst.CSTNode) -> str:
    return cst.Module(body=[]).code_for_node(node)


def _slot(small: cst.BaseSmallStatement | None) -> tuple[str, str] | None:
    """Where the statement stores: ("append", owner), ("assign", target) or ("add", target)."""
    call = small.value if isinstance(small, cst.Expr) else None
    if isinstance(call, cst.Call) and isinstance(call.func, cst.Attribute) and call.func.attr.value == "append" \
            and len(call.args) == 1:
        return "append", _code(call.func.value)
    if isinstance(small, cst.Assign) and len(small.targets) == 1:
        return "assign", _code(small.targets[0].target)
    if isinstance(small, cst.AugAssign) and isinstance(small.operator, cst.AddAssign):
        return "add", _code(small.target)
    return None


def _value(small: cst.BaseSmallStatement) -> cst.BaseExpression:
    if isinstance(small, cst.Expr):
        return small.value.args[0].value  # type: ignore[attr-defined]
    return small.value  # type: ignore[attr-defined]


def _with_value(small: cst.BaseSmallStatement, value: cst.BaseExpression) -> cst.BaseSmallStatement:
    if isinstance(small, cst.Expr):
        call = small.value
        assert isinstance(call, cst.Call)
        return small.with_changes(value=call.with_changes(args=[call.args[0].with_changes(value=value)]))
    return small.with_changes(value=value)  # type: ignore[return-value]


def _p(node: cst.BaseExpression) -> cst.BaseExpression:
    # only a lambda binds looser than a conditional expression's parts
    return node.with_changes(**_PARENS) if isinstance(node, cst.Lambda) and not node.lpar else node
