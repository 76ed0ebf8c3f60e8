"""AIP3xx: pandas used row by row, or loading more than it keeps."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

import libcst as cst

from ..exprs import MATH_FUNCS, dotted_name, names_used, same_ref, walk
from ..facts import Call, Facts, unwrap_iterable
from ..registry import Hit, rule
from ..work import definition

_ROW_ITERATORS = ("iterrows", "itertuples")
_SMALL_VIEWS = ("head", "tail", "sample", "nlargest", "nsmallest")
_ROW_ACCESSORS = ("loc", "iloc", "at", "iat")



def _is_small_view(facts: Facts, frame: cst.BaseExpression | None) -> bool:
    """``df.head(5)``, ``df[:5]``, a literal frame: rows for a human to read, not a workload."""
    if isinstance(frame, cst.Call) and isinstance(frame.func, cst.Attribute):
        return frame.func.attr.value in _SMALL_VIEWS
    if isinstance(frame, cst.Subscript) and frame.slice and isinstance(frame.slice[0].slice, cst.Slice):
        return True
    sym = facts.symbol(frame) if frame is not None else None
    return sym is not None and sym.tiny


def _row_access(body: cst.CSTNode, frame: cst.BaseExpression, index: frozenset[str]) -> bool:
    """The body reads ``frame.loc[i, ...]``/``.iloc[i]``/``.at[i, c]`` with the loop's index."""
    for node in walk(body):
        if (
            isinstance(node, cst.Subscript)
            and isinstance(node.value, cst.Attribute)
            and node.value.attr.value in _ROW_ACCESSORS
            and same_ref(node.value.value, frame)
            and any(names_used(el) & index for el in node.slice)
        ):
            return True
    return False


@rule(
    "AIP301",
    "dataframe-row-loop",
    "Row loop over a DataFrame: each row becomes a Python object; use a column expression",
    fixable=True,
)
def dataframe_row_loop(facts: Facts) -> Iterator[Hit]:
    """
    ## What it does
    Flags loops over a DataFrame's rows: `for i, row in df.iterrows()`, `df.itertuples()`, and
    `for i in range(len(df))` (or `for i in df.index`) that read `df.loc[i, ...]`, `.iloc[i]`,
    `.at[i, ...]` per row. Loops over `df.head(n)`, `df[:n]` or a small literal frame (rows
    printed for a human) are not flagged.

    ## Why is this bad?
    `iterrows` builds a new Series (with its own index) for every row, and `.loc[i, c]` pays an
    index lookup per cell; a column expression touches each column once in C. Computing
    `price * qty` on 100,000 rows, `iterrows` ran at 43,000 rows/s (2.3 s); the column expression
    took 0.6 ms, about 3,700x faster (`benchmarks/traps/AIP301.py`).

    ## Example
    ```python
    for i, row in df.iterrows():
        df.loc[i, "total"] = row["price"] * row["qty"]
    ```

    ## Use instead
    ```python
    df["total"] = df["price"] * df["qty"]
    ```

    ## Fix safety
    Safe when the loop body is arithmetic or a condition on the row's own columns (the fix
    rewrites it as column arithmetic or `np.where`); other bodies get no automatic fix.
    Integer columns holding missing values may come back as floats.

    ## References
    - Seed article, chapter 2.4 ("`.iterrows()` over millions of rows performs very poorly").
    - pandas: "Enhancing performance" and "Iteration" in the user guide.
    """
    for loop in facts.loops:
        it = unwrap_iterable(facts, loop.iter, also=("builtins.list",))
        if isinstance(it, cst.Call) and isinstance(it.func, cst.Attribute) and it.func.attr.value in _ROW_ITERATORS:
            if not _is_small_view(facts, it.func.value):
                yield loop.node
            continue
        frame = _range_len_frame(facts, it)
        if frame is not None and not _is_small_view(facts, frame):
            body = loop.node.body if isinstance(loop.node, (cst.For, cst.While)) else loop.node
            if _row_access(body, frame, loop.targets):
                yield loop.node


def _range_len_frame(facts: Facts, it: cst.BaseExpression | None) -> cst.BaseExpression | None:
    """``range(len(df))`` -> df; ``df.index`` -> df."""
    if isinstance(it, cst.Attribute) and it.attr.value == "index":
        return it.value
    if isinstance(it, cst.Call) and facts.names.qname(it.func) == "builtins.range" and len(it.args) == 1:
        inner = it.args[0].value
        if isinstance(inner, cst.Call) and facts.names.qname(inner.func) == "builtins.len" and inner.args:
            return inner.args[0].value
    return None


_NAMESPACES = frozenset({"np", "numpy", "math", "True", "False", "None"})


def vectorisable(expr: cst.BaseExpression, params: set[str]) -> bool:
    """Column arithmetic, comparisons, conditions and ufuncs of the parameter, nothing else."""
    ok, computes = _vector_check(expr, params)
    return ok and computes


def _vector_check(node: cst.BaseExpression, params: set[str]) -> tuple[bool, bool]:
    """(only vectorisable parts, computes something) for one expression."""
    if isinstance(node, (cst.Integer, cst.Float, cst.SimpleString)):
        return True, False
    if isinstance(node, cst.Name):
        return node.value in params or node.value in _NAMESPACES, False
    if isinstance(node, cst.Attribute):  # row.price
        name = dotted_name(node)
        return name is not None and name.split(".")[0] in params, False
    if isinstance(node, cst.Subscript):  # row["price"]
        return isinstance(node.value, cst.Name) and node.value.value in params and len(node.slice) == 1 and isinstance(
            node.slice[0].slice, cst.Index
        ) and isinstance(node.slice[0].slice.value, (cst.SimpleString, cst.Integer)), False
    parts: list[cst.BaseExpression]
    if isinstance(node, cst.Call):
        name = dotted_name(node.func) or ""
        head, _, leaf = name.rpartition(".")
        if leaf not in MATH_FUNCS or head not in ("", "np", "numpy", "math"):
            return False, False
        parts = [a.value for a in node.args]
    elif isinstance(node, cst.BinaryOperation):
        parts = [node.left, node.right]
    elif isinstance(node, cst.UnaryOperation):
        parts = [node.expression]
    elif isinstance(node, cst.BooleanOperation):
        parts = [node.left, node.right]
    elif isinstance(node, cst.Comparison):
        parts = [node.left, *(c.comparator for c in node.comparisons)]
    elif isinstance(node, cst.IfExp):
        parts = [node.test, node.body, node.orelse]
    else:
        return False, False
    return all(_vector_check(p, params)[0] for p in parts), True


def _function_body(facts: Facts, node: cst.BaseExpression) -> tuple[cst.BaseExpression, set[str]] | None:
    """A lambda's body, or a one-``return`` function (of the cell, an earlier cell or the live
    namespace), with its parameters."""
    if isinstance(node, cst.Lambda):
        return node.body, {p.name.value for p in node.params.params}
    if isinstance(node, cst.Name):
        func = definition(facts, node.value)
        if func is not None and isinstance(func.body, cst.IndentedBlock) and len(func.body.body) == 1:
            stmt = func.body.body[0]
            if (
                isinstance(stmt, cst.SimpleStatementLine)
                and isinstance(stmt.body[0], cst.Return)
                and stmt.body[0].value is not None
            ):
                return stmt.body[0].value, {p.name.value for p in func.params.params}
    return None


def _axis(call: Call) -> str | None:
    arg = call.kwarg("axis")
    if arg is None:
        return None
    value = arg.value
    if isinstance(value, cst.Integer):
        return value.value
    if isinstance(value, cst.SimpleString):
        return "1" if value.evaluated_value == "columns" else "0"
    return "?"


@rule(
    "AIP302",
    "rowwise-apply",
    "Row-wise `apply` with a vectorisable function: the same expression on whole columns is faster",
    fixable=True,
)
def rowwise_apply(facts: Facts) -> Iterator[Hit]:
    """
    ## What it does
    Flags `df.apply(f, axis=1)` and `series.apply(lambda x: ...)` when the function only does
    arithmetic, comparisons, conditional expressions or NumPy/math functions on its argument —
    exactly what column expressions do without a Python call per row.

    ## Why is this bad?
    `apply(axis=1)` builds a Series for every row and calls the Python function on it; a
    column expression runs once over whole arrays. A BMI formula on 100,000 rows took 945 ms
    with `apply(axis=1)` and 1.2 ms as a column expression: 820x (`benchmarks/traps/AIP302.py`).

    ## Example
    ```python
    df["bmi"] = df.apply(lambda r: r["weight"] / r["height"] ** 2, axis=1)
    df["flag"] = df["score"].apply(lambda s: 1 if s > 0.5 else 0)
    ```

    ## Use instead
    ```python
    df["bmi"] = df["weight"] / df["height"] ** 2
    df["flag"] = np.where(df["score"] > 0.5, 1, 0)
    ```

    ## Fix safety
    Safe for arithmetic; `if/else` becomes `np.where`, which evaluates both branches (a
    division by zero in the unused branch warns instead of being skipped) — marked unsafe.

    ## References
    - Seed article, chapter 2.4 ("use vectorised operations instead").
    - pandas: `DataFrame.apply` documentation ("performance" note).
    """
    for call in facts.calls:
        if call.method != "apply" or not call.node.args or call.receiver is None:
            continue
        kind = facts.kind(call.receiver) if isinstance(call.receiver, cst.Name) else None
        if kind in ("model", "compiled_model"):
            continue
        body = _function_body(facts, call.node.args[0].value)
        if body is None or not vectorisable(*body):
            continue
        axis = _axis(call)
        if axis == "1" or (axis is None and kind != "frame" and isinstance(call.node.args[0].value, cst.Lambda)):
            yield call.node


_READERS = {
    "pandas.read_csv": ("dtype", "usecols"),
    "pandas.read_table": ("dtype", "usecols"),
    "pandas.read_parquet": (None, "columns"),
}


def _follow_ups(facts: Facts, name: str) -> tuple[bool, bool]:
    """Whether the frame called ``name`` is later cast (``astype``) or cut to some columns."""
    cast = select = False
    for call in facts.calls:
        root = call.receiver
        while isinstance(root, (cst.Attribute, cst.Subscript)):
            root = root.value
        if isinstance(root, cst.Name) and root.value == name:
            select = select or (call.method == "drop" and call.kwarg("columns") is not None)
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
    return cast, select


@rule(
    "AIP304",
    "read-without-dtype",
    "File read with default dtypes and all columns, then cast or cut: say so in the read",
    fixable=True,
)
def read_without_dtype(facts: Facts) -> Iterator[Hit]:
    """
    ## What it does
    Flags `pd.read_csv(...)` without `dtype=` when the frame is cast afterwards (`astype`,
    `pd.to_numeric`), and without `usecols=` (`columns=` for `read_parquet`) when only some
    columns are kept afterwards (`df[["a", "b"]]`, `drop(columns=...)`).

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
