"""AIP304 read-without-dtype: the detector, its documentation and its fixer."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

import libcst as cst

from ...cell.parsed import ParsedCell
from ...cell.tree import call_name, expect, kwarg, names_in
from ...fixes.edits import Edits
from ..exprs import dotted_name
from ..facts import Call, Facts
from ..registry import Hit, fixer_for, rule

_READERS = {
    "pandas.read_csv": ("dtype", "usecols"),
    "pandas.read_table": ("dtype", "usecols"),
    "pandas.read_parquet": (None, "columns"),
}


def _follow_ups(facts: Facts, name: str) -> tuple[bool, bool]:
    """Whether the frame called ``name`` is later cast (``astype``) or cut to some columns."""
    cast = select = cleaned = False
    for call in facts.calls:
        root = call.receiver
        while isinstance(root, (cst.Attribute, cst.Subscript, cst.Call)):
            root = root.func if isinstance(root, cst.Call) else root.value
        if isinstance(root, cst.Name) and root.value == name:
            select = select or (call.method == "drop" and call.kwarg("columns") is not None)
            cleaned = cleaned or call.method in _CLEANERS or _on_str_accessor(call)
    for assign in facts.assigns:
        value = assign.value
        cast = cast or _recast(assign.targets, value, name)
        if (
            isinstance(value, cst.Subscript)
            and isinstance(value.value, cst.Name)
            and value.value.value == name
            and value.slice
        ):
            index = value.slice[0].slice
            if isinstance(index, cst.Index) and isinstance(index.value, cst.List):
                select = True
    # Cleaned first (blanks filled, rows dropped, text fixed): the raw column would not parse as
    # the final type at read time, so the cast cannot move into the read.
    return cast and not cleaned, select


_CLEANERS = frozenset({"fillna", "dropna", "replace", "interpolate", "ffill", "bfill", "where", "mask", "clip"})


def _on_str_accessor(call: Call) -> bool:
    receiver = call.receiver
    return isinstance(receiver, cst.Attribute) and receiver.attr.value == "str"


@rule(
    "AIP304",
    "read-without-dtype",
    "File read with default dtypes and all columns, then cast or cut: say so in the read",
)
def read_without_dtype(facts: Facts) -> Iterator[Hit]:
    """
    ## What it does
    Flags `pd.read_csv(...)` without `dtype=` when the frame is cast afterwards (`astype`,
    `pd.to_numeric`), and without `usecols=` (`columns=` for `read_parquet`) when only some
    columns are kept afterwards (`df[["a", "b"]]`, `drop(columns=...)`). A cast after the data
    is cleaned (`fillna`, `dropna`, `replace`, `.str` fixes) or a parse with `errors="coerce"`
    is not a missing `dtype=`: the raw column would not parse as that type at read time.

    ## Why is this bad?
    The reader first builds every column at its widest type (int64, float64, Python strings),
    and the cast or selection then copies what it keeps. Declaring types and columns lets the
    parser build the final frame directly: less memory at peak and less time. Reading a
    200,000-row CSV and keeping 2 of 6 columns as int32/float32 took 107 ms the first way and
    62 ms with `usecols=` and `dtype=`: 1.7x, with a smaller peak (`benchmarks/traps/AIP304.py`).

    ## Example
    ```python
    df = pd.read_csv("events.csv")
    df = df[["user", "amount"]]
    df["amount"] = df["amount"].astype("float32")
    ```

    ## Use instead
    ```python
    df = pd.read_csv("events.csv", usecols=["user", "amount"], dtype={"amount": "float32"})
    ```

    ## Fix safety
    Unsafe: a declared dtype makes the read fail on values that do not fit (a stray "n/a"),
    where the later cast would have failed too, but at a different line.

    ## References
    - Seed article, chapter 2.4 (memory use and dtype optimisation table).
    - pandas: `read_csv` parameters `dtype` and `usecols`.
    """
    for call in facts.calls:
        spec = _READERS.get(call.qname or "")
        if spec is None or call.has_star_kwargs:
            continue
        names = [t.value for a in facts.assigns if a.value is call.node for t in a.targets if isinstance(t, cst.Name)]
        if not names:
            continue
        cast, select = _follow_ups(facts, names[0])
        missing = []
        if spec[0] and cast and call.kwarg(spec[0]) is None:
            missing.append(f"`{spec[0]}=`")
        if select and call.kwarg(spec[1]) is None:
            missing.append(f"`{spec[1]}=`")
        if missing:
            yield (
                call.node,
                (
                    f"`{call.qname}` without {' or '.join(missing)}, then cast or cut "
                    "afterwards: declare them in the read"
                ),
            )


def _recast(targets: Sequence[cst.BaseExpression], value: cst.BaseExpression | None, name: str) -> bool:
    """``df["c"] = df["c"].astype(..)``, ``df = df.astype(..)``, ``df["c"] = pd.to_numeric(df["c"])``:
    a column (or the frame) replaced by a narrower copy of itself."""
    if not isinstance(value, cst.Call):
        return False
    if isinstance(value.func, cst.Attribute) and value.func.attr.value == "astype":
        source: cst.BaseExpression = value.func.value
    elif value.args and (dotted_name(value.func) or "").rsplit(".", 1)[-1] in ("to_numeric", "to_datetime"):
        if any(a.keyword is not None and a.keyword.value == "errors" for a in value.args):
            return False  # errors="coerce": the column holds values that do not parse; no read dtype would
        source = value.args[0].value
    else:
        return False
    root = source
    while isinstance(root, (cst.Attribute, cst.Subscript)):
        root = root.value
    if not (isinstance(root, cst.Name) and root.value == name):
        return False
    return any(_EMPTY.code_for_node(t) == _EMPTY.code_for_node(source) for t in targets)


_EMPTY = cst.Module(body=[])


@fixer_for("AIP304", "Let the reader select columns and parse types")
def fix_reader(cell: ParsedCell, node: cst.CSTNode, facts: Facts) -> Edits | str:
    call = expect(node, cst.Call, where=lambda n: call_name(n).rsplit(".", 1)[-1] in ("read_csv", "read_parquet"))
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


def _selection(cell: ParsedCell, small: cst.CSTNode | None, frame: str) -> str | None:
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


def _cast(cell: ParsedCell, small: cst.CSTNode | None, frame: str) -> dict[str, str] | None:
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
