"""Fix for pandas readers (AIP304): the column pick and the casts that follow a ``read_csv`` /
``read_parquet`` move into the reader call, so unneeded columns are never parsed."""

from __future__ import annotations

import libcst as cst

from ...fixes.base import Cell, call_name, kwarg, names_in
from ...fixes.edits import Edits
from ...fixes.registry import fixer
from ...report import Finding


@fixer("AIP304", "Let the reader select columns and parse types")
def fix_reader(cell: Cell, finding: Finding) -> Edits | str:
    call = cell.at_line(
        finding.line,
        cst.Call,
        finding.col,
        where=lambda n: call_name(n).rsplit(".", 1)[-1] in ("read_csv", "read_parquet"),
    )
    if not isinstance(call, cst.Call):
        return "no read_csv(...)/read_parquet(...) call on the finding's line"
    statement = cell.statement(call)
    assign = statement.body[0] if isinstance(statement, cst.SimpleStatementLine) else None
    if not (isinstance(assign, cst.Assign) and assign.value is call and isinstance(assign.targets[0].target, cst.Name)):
        return "the frame read is not assigned to a name"
    frame = assign.targets[0].target.value
    csv = call_name(call).endswith("read_csv")
    columns: str | None = None
    dtypes: dict[str, str] = {}
    drop: set[cst.CSTNode] = set()
    for later in cell.following(statement):
        if frame not in names_in(later):
            continue
        small = later.body[0] if isinstance(later, cst.SimpleStatementLine) and len(later.body) == 1 else None
        pick = _selection(cell, small, frame)
        if pick is not None and columns is None and not dtypes:
            columns = pick
            continue
        cast = _cast(cell, small, frame) if csv else None
        if cast is None:
            break  # any other use of the frame may need columns or types as read
        dtypes.update(cast)
        drop.add(later)
    key = "usecols" if csv else "columns"
    if kwarg(call, key) is not None:
        columns = None
    if dtypes and kwarg(call, "dtype") is not None:
        dtypes, drop = {}, set()
    if columns is None and not dtypes:
        return "no column selection or cast right after the read that could move into it"
    edits = Edits(
        "Let the reader pick the columns" + (" and parse the types" if dtypes else ""),
        safety="unsafe" if dtypes else "safe",
    )
    if columns is not None:
        edits.set_kwarg(call, key, columns)
        # a cast of a column the selection drops has nothing left to cast
        kept = {cell.code(e.value) for e in cst.parse_expression(columns).elements}  # type: ignore[attr-defined]
        dtypes = {k: v for k, v in dtypes.items() if k in kept or k.strip("'\"") in {x.strip("'\"") for x in kept}}
    if dtypes:
        edits.set_kwarg(call, "dtype", "{" + ", ".join(f"{k}: {v}" for k, v in dtypes.items()) + "}")
    edits.remove |= drop
    return edits


def _selection(cell: Cell, small: cst.CSTNode | None, frame: str) -> str | None:
    """``df = df[["a", "b"]]`` -> ``["a", "b"]``."""
    if not (isinstance(small, cst.Assign) and len(small.targets) == 1 and cell.code(small.targets[0].target) == frame):
        return None
    value = small.value
    if isinstance(value, cst.Subscript) and cell.code(value.value) == frame and len(value.slice) == 1:
        inner = value.slice[0].slice
        if (
            isinstance(inner, cst.Index)
            and isinstance(inner.value, cst.List)
            and all(isinstance(e.value, cst.SimpleString) for e in inner.value.elements)
        ):
            return cell.code(inner.value)
    return None


def _cast(cell: Cell, small: cst.CSTNode | None, frame: str) -> dict[str, str] | None:
    """``df["a"] = df["a"].astype(T)`` or ``df = df.astype({...})`` -> the column types."""
    if not (isinstance(small, cst.Assign) and len(small.targets) == 1):
        return None
    target, value = small.targets[0].target, small.value
    if not (
        isinstance(value, cst.Call)
        and isinstance(value.func, cst.Attribute)
        and value.func.attr.value == "astype"
        and len(value.args) == 1
        and value.args[0].keyword is None
    ):
        return None
    arg = value.args[0].value
    if cell.code(target) == frame and cell.code(value.func.value) == frame and isinstance(arg, cst.Dict):
        out = {}
        for el in arg.elements:
            if not isinstance(el, cst.DictElement) or not isinstance(el.key, cst.SimpleString):
                return None
            out[cell.code(el.key)] = cell.code(el.value)
        return out
    if (
        isinstance(target, cst.Subscript)
        and cell.code(target.value) == frame
        and len(target.slice) == 1
        and cell.code(value.func.value) == cell.code(target)
    ):
        key = target.slice[0].slice
        if isinstance(key, cst.Index) and isinstance(key.value, cst.SimpleString):
            return {cell.code(key.value): cell.code(arg)}
    return None
