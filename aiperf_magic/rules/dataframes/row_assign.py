"""AIP302 for a row function that assigns to the row and returns it, applied with ``axis=1``:

```python
def fill_totals(row):
    row["total"] = row["price"] * row["qty"]
    row["discount"] = 0.1 if row["qty"] > 3 else 0.0
    return row


priced = orders.apply(fill_totals, axis=1)
# becomes
priced = orders.copy()
priced["total"] = priced["price"] * priced["qty"]
priced["discount"] = np.where(priced["qty"] > 3, 0.1, 0.0)
```

The copy has the frame's index and columns; each assignment adds (or overwrites in place) one
column, in the function's order, and reads the columns as the row did after the assignments before
it. ``apply`` hands each row over as one Series: when the frame holds text (or other objects) the
row is an object Series, and the frame ``apply`` builds from the rows infers each column's dtype
again, as the column expressions give it. Refused when every column of the live frame is a number
(the row is then one dtype, float64 for ints and floats, and ``apply`` returns the ints as floats),
when a statement is not ``row["c"] = <element-wise expression>``, when the function does not end in
``return row``, and when the result is not bound to a name (``name = frame.apply(f, axis=1)``).
"""

from __future__ import annotations

import libcst as cst

from ...cell.parsed import ParsedCell
from ...cell.tree import names_in
from ...fixes.edits import Edits
from ..elementwise import vectorise
from ..facts import Facts
from ..work import definition
from .row_access import RowAccess


def assigning_row_function(cell: ParsedCell, call: cst.Call, facts: Facts) -> Edits | str | None:
    """The rewrite, why there is none, or None when the applied function is not one that assigns
    to its row (the caller tries the other shapes)."""
    func = call.args[0].value if call.args else None
    func_def = definition(facts, func.value) if isinstance(func, cst.Name) else None
    if func_def is None or not isinstance(func_def.body, cst.IndentedBlock):
        return None
    params = func_def.params.params
    if len(params) != 1:
        return None
    row = params[0].name.value
    body = [s for s in func_def.body.body if not _docstring(s)]
    stores = [_store(s, row) for s in body[:-1]]
    if not body or not _returns(body[-1], row) or not stores or not all(stores):
        return None if not any(stores) else "the row function does more than assign columns of the row and return it"
    statement = cell.statement(call)
    small = statement.body[0] if isinstance(statement, cst.SimpleStatementLine) and len(statement.body) == 1 else None
    if not (isinstance(small, cst.Assign) and len(small.targets) == 1 and isinstance(small.targets[0].target, cst.Name)
            and small.value is call and isinstance(call.func, cst.Attribute) and isinstance(call.func.value, cst.Name)):
        return "the applied frame is not bound to a name (result = frame.apply(f, axis=1))"
    frame, target = call.func.value.value, small.targets[0].target.value
    live = facts.names.namespace.get(frame) if facts.names.namespace is not None else None
    dtypes = getattr(live, "dtypes", None)
    if dtypes is not None and all(getattr(d, "kind", "O") in "iufb" for d in dtypes):
        return (f"every column of {frame} is a number, so apply hands each row over as one dtype (ints as floats) "
                "and returns them so; the column expressions would keep each column's own dtype")
    edits = Edits("Assign the columns the row function assigned", safety="unsafe")
    subst = RowAccess(cell, target, "row", row, None).subst
    lines = [f"{target} = {frame}.copy()"]
    for key, value in stores:  # type: ignore[misc]
        if not names_in(value) & {row}:
            vec = _code(value)  # a constant: one value for every row
        else:
            vec = vectorise(value, subst, {row}, lambda: edits.need(cell, "numpy"))
        if vec is None:
            return f"the value stored in {key} is not element-wise arithmetic on the row's columns"
        lines.append(f"{target}[{key}] = {vec}")
    edits.replace[statement] = cst.FlattenSentinel([cst.parse_statement(x + "\n") for x in lines])  # type: ignore[assignment]
    return edits


def _store(statement: cst.BaseStatement, row: str) -> tuple[str, cst.BaseExpression] | None:
    """``row["c"] = value`` -> ('"c"', value)."""
    small = statement.body[0] if isinstance(statement, cst.SimpleStatementLine) and len(statement.body) == 1 else None
    if not isinstance(small, cst.Assign) or len(small.targets) != 1:
        return None
    target = small.targets[0].target
    if not (isinstance(target, cst.Subscript) and isinstance(target.value, cst.Name) and target.value.value == row
            and len(target.slice) == 1 and isinstance(target.slice[0].slice, cst.Index)
            and isinstance(target.slice[0].slice.value, cst.SimpleString)):
        return None
    return _code(target.slice[0].slice.value), small.value


def _returns(statement: cst.BaseStatement, row: str) -> bool:
    small = statement.body[0] if isinstance(statement, cst.SimpleStatementLine) and len(statement.body) == 1 else None
    return isinstance(small, cst.Return) and isinstance(small.value, cst.Name) and small.value.value == row


def _docstring(statement: cst.BaseStatement) -> bool:
    return (isinstance(statement, cst.SimpleStatementLine) and len(statement.body) == 1
            and isinstance(statement.body[0], cst.Expr) and isinstance(statement.body[0].value, cst.SimpleString))


def _code(node: cst.CSTNode) -> str:
    return cst.Module(body=[]).code_for_node(node)
