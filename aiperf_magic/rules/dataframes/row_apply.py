"""AIP302 rowwise-apply: the detector, its documentation and its fixer."""

from __future__ import annotations

from collections.abc import Iterator

import libcst as cst

from ...cell.parsed import ParsedCell
from ...cell.tree import expect, kwarg
from ...fixes.edits import Edits
from ..elementwise import Subst, elementwise, vectorise
from ..facts import Call, Facts
from ..numpy_twins import Twins
from ..registry import Hit, fixer_for, rule
from ..symbols import infer_symbol
from ..work import definition
from .row_access import RowAccess
from .row_assign import assigning_row_function


def function_body(facts: Facts, node: cst.BaseExpression) -> tuple[cst.BaseExpression, str] | None:
    """The expression a one-argument lambda or one-``return`` function computes (a function of the
    cell, an earlier cell or the live namespace), and its parameter's name."""
    params: cst.Parameters
    if isinstance(node, cst.Name):
        sym = facts.symbol(node)
        if sym is not None and sym.kind == "lambda" and isinstance(sym.node, cst.Lambda):
            node = sym.node  # f = lambda r: ..., in this cell or an earlier one
    if isinstance(node, cst.Lambda):
        params, value = node.params, node.body
    elif isinstance(node, cst.Name):
        func = definition(facts, node.value)
        if func is None or not isinstance(func.body, cst.IndentedBlock):
            return None
        returned = returned_value(list(func.body.body))
        if returned is None:
            return None
        params, value = func.params, returned
    else:
        return None
    one = params.params
    if len(one) != 1 or params.star_arg is not cst.MaybeSentinel.DEFAULT or params.kwonly_params or params.star_kwarg:
        return None
    return value, one[0].name.value


def returned_value(body: list[cst.BaseStatement]) -> cst.BaseExpression | None:
    """The one expression a function body returns: ``return v``, or an ``if``/``elif``/``else``
    chain whose every branch returns (``if c: return a`` then ``return b`` too), as nested
    ``a if c else b``, which the column form computes with ``np.where`` (the first true condition
    wins, as in the chain). None when a branch does anything else or can fall through."""
    if not body:
        return None
    first = body[0]
    if isinstance(first, cst.SimpleStatementLine):
        small = first.body[0] if len(first.body) == 1 else None
        if isinstance(small, cst.Return) and small.value is not None and len(body) == 1:
            return small.value
        return None
    return _branches(first, body[1:]) if isinstance(first, cst.If) else None


def _branches(node: cst.If, after: list[cst.BaseStatement]) -> cst.BaseExpression | None:
    """What ``if``/``elif``/``else`` ``node``, followed by ``after`` (reached when no branch runs), returns."""
    if not isinstance(node.body, cst.IndentedBlock):
        return None
    then = returned_value(list(node.body.body))
    if isinstance(node.orelse, cst.If):
        rest = _branches(node.orelse, after)
    elif isinstance(node.orelse, cst.Else) and isinstance(node.orelse.body, cst.IndentedBlock):
        rest = returned_value(list(node.orelse.body.body)) if not after else None
    else:
        rest = returned_value(after)
    if then is None or rest is None:
        return None
    return cst.IfExp(test=node.test, body=_grouped(then), orelse=rest)


def _grouped(node: cst.BaseExpression) -> cst.BaseExpression:
    # a conditional or a lambda in the middle of a conditional needs its own parentheses
    if isinstance(node, (cst.IfExp, cst.Lambda)) and not node.lpar:
        return node.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()])
    return node


def _element(cell: ParsedCell, param: str, rows: bool, frame: str) -> Subst:
    """What the parameter stands for: a row (its columns become ``frame[...]``) or one element."""
    if rows:
        return RowAccess(cell, frame, "row", param, None).subst

    def subst(n: cst.CSTNode) -> str | None:
        return frame if isinstance(n, cst.Name) and n.value == param else None

    return subst


def axis_of(call: Call) -> str | None:
    """The axis an ``apply`` call names: "1" for rows, "0" for columns, "?" when computed, None when absent."""
    arg = call.kwarg("axis")
    if arg is None:
        return None
    value = arg.value
    if isinstance(value, cst.Integer):
        return value.value
    if isinstance(value, cst.SimpleString):
        return "1" if value.evaluated_value == "columns" else "0"
    return "?"


_ELEMENT_MESSAGE = (
    "`Series.{method}` with a vectorisable function: the same expression on the whole column is faster"
)
_REDUCERS = {
    "builtins.max": "max", "builtins.min": "min", "builtins.sum": "sum", "numpy.max": "max", "numpy.min": "min",
    "numpy.sum": "sum", "numpy.mean": "mean", "numpy.median": "median", "numpy.std": "std", "numpy.argmax": "idxmax",
    "numpy.argmin": "idxmin", "numpy.amax": "max", "numpy.amin": "min", "numpy.nanmean": "mean",
}


def _reducer(facts: Facts, func: cst.BaseExpression) -> str | None:
    """``max`` / ``np.argmax`` given to ``apply(axis=1)``: the frame has the same reduction."""
    qname = facts.names.qname(func) if isinstance(func, (cst.Name, cst.Attribute)) else None
    return _REDUCERS.get(qname or "")


def _is_function(facts: Facts, func: cst.BaseExpression) -> bool:
    return isinstance(func, cst.Lambda) or function_body(facts, func) is not None


@rule(
    "AIP302",
    "rowwise-apply",
    "Row-wise `apply` with a vectorisable function: the same expression on whole columns is faster",
)
def rowwise_apply(facts: Facts) -> Iterator[Hit]:
    """
    ## What it does
    Flags `df.apply(f, axis=1)`, `series.apply(f)` and `series.map(f)` when the function (a
    lambda, or a function or lambda defined in this cell, an earlier one, or live) only does
    arithmetic, comparisons, conditional expressions or NumPy/math functions on its argument —
    exactly what column expressions do without a Python call per row; and `df.apply(max,
    axis=1)` (or `min`, `sum`, `np.argmax`...), which the frame computes itself
    (`df.max(axis=1)`, `df.idxmax(axis=1)`). Frames of a few rows typed into the cell are not
    flagged.
    Inside `%%aiperf`, a hot `apply`/`map` is reported when its function (a lambda, or a
    function of this or an earlier cell, followed into the functions it calls) is numbers and
    conditions only, `if`/`elif` chains and rows written and returned included; a function of
    strings (split, join, regular expressions) has no faster whole-column form and is not.

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
    Unsafe. The values are the same, but `apply(axis=1)` hands the function each row as one
    Series, so a frame with a float column turns every integer into a float; the column
    expression keeps each column's own dtype. `if/else` becomes `np.where`, which evaluates both
    branches (a division by zero in the unused branch warns instead of being skipped). A named
    function is inlined, so its body must mean the same where `apply` was called.

    ## References
    - Seed article, chapter 2.4 ("use vectorised operations instead").
    - pandas: `DataFrame.apply` documentation ("performance" note).
    """
    for call in facts.calls:
        if call.method not in ("apply", "map") or not call.node.args or call.receiver is None:
            continue
        owner = infer_symbol(call.receiver, facts)
        kind = owner.kind if owner is not None else None
        if kind in ("model", "compiled_model", "dict", "list", "thread_pool", "process_pool") or (owner and owner.tiny):
            continue  # a module's apply(init), a pool's map; or a frame of a few rows typed in the cell
        axis = axis_of(call)
        rows = axis == "1"
        func = call.node.args[0].value
        if rows and call.method == "apply" and _reducer(facts, func):
            name = _reducer(facts, func)
            yield (call.node, f"Row-wise `apply({name}, axis=1)`: `.{name}(axis=1)` computes it on whole columns")
            continue
        per_element = axis is None and kind != "frame" and (call.method == "apply" or _is_function(facts, func))
        if not rows and not per_element:
            continue
        if call.method == "map" and not (kind == "series" or isinstance(call.receiver, (cst.Subscript, cst.Attribute))):
            continue  # map on something that may not be a Series (a Dataset, a pool)
        body = function_body(facts, func)
        if (
            body is not None
            and facts.cell is not None
            # a helper of the notebook it calls counts when its body is element-wise too (numpy_twins)
            and elementwise(body[0], _element(facts.cell, body[1], rows, "_"), {body[1]},
                            helpers=Twins(facts.cell, facts, lambda: "np"))
        ):
            yield call.node if rows else (call.node, _ELEMENT_MESSAGE.format(method=call.method))


@fixer_for("AIP302", "Replace apply with a column expression")
def fix_apply(cell: ParsedCell, node: cst.CSTNode, facts: Facts) -> Edits | str:
    call = expect(node, cst.Call)
    if call is None or not isinstance(call.func, cst.Attribute) or not call.args:
        return "the finding is not an .apply(...) call"
    owner = call.func.value
    func = call.args[0].value
    reduced = _reduction(cell, call, facts)
    if reduced is not None:
        return reduced
    if expands_to_columns(facts, call):
        return _expansion(cell, call)
    body = function_body(facts, func)
    axis = kwarg(call, "axis")
    if body is None and axis is not None and cell.code(axis.value) in ("1", "'columns'", '"columns"') and len(
            call.args) == 2:
        assigned = assigning_row_function(cell, call, facts)  # row["c"] = ...; return row
        if assigned is not None:
            return assigned
    if body is None:
        return "the function is not one expression of one argument"
    value, param = body
    others = [a for a in call.args[1:] if a is not axis]
    if others:
        return "apply has extra arguments (args=, raw=, result_type=...)"
    if not isinstance(owner, (cst.Name, cst.Attribute, cst.Subscript)):
        return "apply is called on a computed value; assign it to a name first"
    frame = cell.code(owner)
    rows = axis is not None
    if rows and cell.code(axis.value) not in ("1", "'columns'", '"columns"'):  # type: ignore[union-attr]
        return "apply runs over columns (axis=0), not rows"
    if not rows and not (
        isinstance(owner, cst.Subscript)
        or (isinstance(owner, cst.Attribute) and not isinstance(cell.parent(call), cst.Call))
    ):
        # frame.apply(f) without axis calls f per column, and a plain name could be either kind
        return "cannot tell whether apply runs per element or per column here; pass axis=1 for rows"
    edits = Edits("Replace apply with a column expression", safety="unsafe")
    numpy = lambda: edits.need(cell, "numpy")  # noqa: E731
    twins = Twins(cell, facts, numpy)  # helpers of the notebook the function calls, on whole columns
    out = vectorise(value, _element(cell, param, rows, frame), {param}, numpy, helpers=twins)
    if out is None:
        return "the function's body is not element-wise arithmetic on its argument"
    parent = cell.parent(call)
    code = out if isinstance(parent, (cst.Assign, cst.Arg)) else f"({out})"
    edits.replace[call] = cst.parse_expression(code)
    if twins.definitions:  # each twin the expression calls, defined just before its statement
        edits.before[cell.statement(call)] = twins.definitions
    return edits


def expands_to_columns(facts: Facts, call: cst.Call) -> bool:
    """``col.apply(pd.Series)``: a Series built from each element (a dict, a list), then a frame of them."""
    if not (isinstance(call.func, cst.Attribute) and call.func.attr.value == "apply" and len(call.args) == 1):
        return False
    func = call.args[0].value
    return isinstance(func, (cst.Name, cst.Attribute)) and facts.names.qname(func) == "pandas.Series"


def _expansion(cell: ParsedCell, call: cst.Call) -> Edits | str:
    """``col.apply(pd.Series)`` -> ``pd.DataFrame(col.tolist(), index=col.index)``: the same columns, made
    from the elements at once (dicts give a column per key, lists one per position)."""
    owner = call.func.value  # type: ignore[attr-defined]
    if not isinstance(owner, (cst.Name, cst.Attribute, cst.Subscript)):
        return "apply is called on a computed value; assign it to a name first"
    edits = Edits("Build the frame from the elements at once", safety="unsafe")
    pandas = edits.need(cell, "pandas")
    column = cell.code(owner)
    edits.replace[call] = cst.parse_expression(f"{pandas}.DataFrame({column}.tolist(), index={column}.index)")
    return edits


# the frame's method that computes what each reducer computed on every row (np.std's ddof is 0)
_METHODS = {"max": "max(axis=1)", "min": "min(axis=1)", "sum": "sum(axis=1)", "mean": "mean(axis=1)",
            "median": "median(axis=1)", "std": "std(axis=1, ddof=0)"}


def _reduction(cell: ParsedCell, call: cst.Call, facts: Facts) -> Edits | str | None:
    """``df.apply(max, axis=1)`` -> ``df.max(axis=1)``: the frame's own reduction over each row.
    None when the function is not such a reducer."""
    name = _reducer(facts, call.args[0].value)
    axis = kwarg(call, "axis")
    if name is None or axis is None or cell.code(axis.value) not in ("1", "'columns'", '"columns"'):
        return None
    if any(a is not axis for a in call.args[1:]):
        return "apply has extra arguments (args=, raw=, result_type=...)"
    method = _METHODS.get(name)
    if method is None:
        # np.argmax gives each row's position, idxmax its column label
        return f"{name} gives column labels where the function gave positions"
    owner = call.func.value  # type: ignore[attr-defined]
    edits = Edits("Reduce each row with the frame's own method", safety="unsafe")
    code = f"{cell.code(owner)}.{method}"
    edits.replace[call] = cst.parse_expression(code)
    return edits
