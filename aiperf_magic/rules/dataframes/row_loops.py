"""AIP301 dataframe-row-loop: the detector, its documentation and its fixer."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import libcst as cst

from ...cell.parsed import ParsedCell
from ...cell.tree import append_parts, assigned_names, call_name, expect, names_in
from ...fixes.edits import Edits
from ..elementwise import Helpers, uses_where, vectorise
from ..exprs import names_used, same_ref, walk
from ..facts import Facts, Loop, unwrap_iterable
from ..loops import stops_at_once
from ..numpy_twins import Twins
from ..registry import Hit, fixer_for, rule
from ..work import is_remote_call
from .row_access import RowAccess, is_constant
from .row_branches import merged_branches
from .row_lookups import with_lookups
from .row_results import RowResults

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


def _reads_rows(body: cst.CSTNode, frame: cst.BaseExpression, index: frozenset[str]) -> bool:
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
)
def dataframe_row_loop(facts: Facts) -> Iterator[Hit]:
    """
    ## What it does
    Flags loops over a DataFrame's rows: `for i, row in df.iterrows()`, `df.itertuples()`, and
    `for i in range(len(df))` (or `for i in df.index`) that read `df.loc[i, ...]`, `.iloc[i]`,
    `.at[i, ...]` per row. Not flagged: loops over `df.head(n)`, `df[:n]` or a small literal
    frame, and loops whose rows go to a consumer that sets the pace: printed or written (rows
    for a person to read), yielded to another engine, sent to a remote service one by one, or
    read once before a `break`. Inside `%%aiperf`, a hot loop over a frame's rows whose time went
    into pandas called per row (indexers, `df[col][i]` lookups, `iterrows`) is reported however
    many accesses each row makes and wherever the loop is (a helper of an earlier cell), with the
    rows and the accesses per row counted.

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
    The loop body must be arithmetic or a condition on the row's own columns (the fix rewrites
    it as column arithmetic or `np.where`); other bodies get no automatic fix. Every result
    keeps the type the loop gave it: appended values and sums stay NumPy scalars where the loop
    read them from a numeric frame's `iterrows()` rows or from `df.loc[i, c]`
    (`out.extend((df["a"] * 2).to_numpy())`), and Python ones from `itertuples()` or from the
    object rows of a frame with a non-numeric column (`.tolist()`, `.sum().item()`); a column
    that `.loc` creates is float64 as the loop left it (`.astype(float)`, with a comment, where
    the expression gives integers). Inside `%%aiperf` the live frame says which; without a run
    the fix assumes a numeric frame of float columns and a new column, and Try says when the
    data differs. No rewrite for True/False written into a new column (the loop leaves an
    object column) or for rows whose common dtype makes the loop compute in another dtype than
    the columns. Unsafe except an `itertuples()` loop that appends: `np.where` evaluates both
    branches, so a division the condition guarded may warn.

    ## References
    - Seed article, chapter 2.4 ("`.iterrows()` over millions of rows performs very poorly").
    - pandas: "Enhancing performance" and "Iteration" in the user guide.
    """
    for loop in facts.loops:
        if rows_for_a_consumer(facts, loop):
            continue
        it = unwrap_iterable(facts, loop.iter, also=("builtins.list",))
        if isinstance(it, cst.Call) and isinstance(it.func, cst.Attribute) and it.func.attr.value in _ROW_ITERATORS:
            if not _is_small_view(facts, it.func.value):
                yield loop.node
            continue
        frame = _range_len_frame(facts, it)
        if frame is not None and not _is_small_view(facts, frame):
            body = loop.node.body if isinstance(loop.node, (cst.For, cst.While)) else loop.node
            if _reads_rows(body, frame, loop.targets):
                yield loop.node


_OUTPUTS = frozenset({"builtins.print", "IPython.display.display", "builtins.display"})
_OUTPUT_METHODS = frozenset({"write", "writelines", "send", "put", "emit", "display"})


def rows_for_a_consumer(facts: Facts, loop: Loop) -> bool:
    """The loop hands rows to something else, which sets the pace: it prints or writes them (rows
    for a person to read, a handful), yields them (a generator feeding another engine), calls a
    remote service per row (the wait dominates), or stops at its first ``break``."""
    if stops_at_once(loop):
        return True
    node = loop.node
    if isinstance(node, (cst.For, cst.While)) and any(isinstance(n, (cst.Yield, cst.Return)) for n in walk(node.body)):
        return True
    for call in loop.calls:
        if call.qname in _OUTPUTS or call.method in _OUTPUT_METHODS or is_remote_call(facts, call):
            return True
    return False


def _range_len_frame(facts: Facts, it: cst.BaseExpression | None) -> cst.BaseExpression | None:
    """``range(len(df))`` -> df; ``df.index`` -> df."""
    if isinstance(it, cst.Attribute) and it.attr.value == "index":
        return it.value
    if isinstance(it, cst.Call) and facts.names.qname(it.func) == "builtins.range" and len(it.args) == 1:
        inner = it.args[0].value
        if isinstance(inner, cst.Call) and facts.names.qname(inner.func) == "builtins.len" and inner.args:
            return inner.args[0].value
    return None


@fixer_for("AIP301", "Replace the row loop with column expressions")
def fix_row_loop(cell: ParsedCell, node: cst.CSTNode, facts: Facts) -> Edits | str:
    loop = expect(node, cst.For)
    if not isinstance(loop, cst.For):
        return "no for statement on the finding's line"
    access = _access_of(cell, loop)
    if isinstance(access, str):
        return access
    if loop.orelse or not isinstance(loop.body, cst.IndentedBlock):
        return "the loop has an else clause"
    per_row = {n for n in (access.row, access.index) if n} | (assigned_names(loop.body) - {access.frame})
    results = RowResults(facts, access, _frame_of(loop))
    lines: list[str] = []
    written: set[str] = set()
    safe = access.style == "tuple"
    edits = Edits("Replace the row loop with column expressions")
    numpy = lambda: edits.need(cell, "numpy")  # noqa: E731
    twins = Twins(cell, facts, numpy)  # helpers of the notebook the rows are handed to, on whole columns
    for statement in loop.body.body:
        merged = merged_branches(statement) if isinstance(statement, cst.If) else None
        if merged is not None:  # if/elif/else that each store into the same place: one x if c else y
            statement = cst.SimpleStatementLine(body=[merged])
        if not isinstance(statement, cst.SimpleStatementLine) or len(statement.body) != 1:
            # for/try inside the loop, or break/continue: rows are not independent any more
            return "the loop body has control flow; only column assignments, appends and sums are rewritten"
        small = statement.body[0]
        line, kind = _statement(cell, access, results, small, per_row, numpy, twins)
        if line is None:
            return kind
        if kind == "column":
            written.add(line.split("] = ", 1)[0].split("[", 1)[1])
        safe = safe and kind == "append"
        lines.append(line)
    if access.style != "label" and written & access.read:
        # the row is a copy taken before the loop writes: reading a written column sees old values
        return "the loop reads a column it also writes; the row copy would see the old values"
    # np.where evaluates both branches: a division guarded by the condition may now warn
    # a twin's NumPy functions may round in the last bit where math's did not: not the same by construction
    edits.safety = "safe" if safe and not uses_where(loop.body) and not twins.definitions else "unsafe"
    edits.replace[loop] = cst.FlattenSentinel([cst.parse_statement(x + "\n") for x in lines])  # type: ignore[assignment]
    if twins.definitions:
        # each twin the lines call, defined before the loop, above the statement that starts its list
        # or total (``out = []``), so that statement and the new line can still become one
        earlier = cell.preceding(loop)
        previous = earlier[-1] if earlier else None
        edits.before[previous if isinstance(previous, cst.SimpleStatementLine) else loop] = twins.definitions
    return edits


def _access_of(cell: ParsedCell, loop: cst.For) -> RowAccess | str:
    it, target = loop.iter, loop.target
    name = call_name(it)
    if (
        isinstance(it, cst.Call)
        and isinstance(it.func, cst.Attribute)
        and it.func.attr.value in ("iterrows", "itertuples")
    ):
        frame = it.func.value
        if not isinstance(frame, (cst.Name, cst.Attribute)):
            # df[df.x > 0].iterrows(): the subset would be recomputed for every column expression
            return "the loop walks a computed frame; assign it to a name first"
        if it.func.attr.value == "iterrows":
            if not (
                isinstance(target, cst.Tuple)
                and len(target.elements) == 2
                and all(isinstance(e.value, cst.Name) for e in target.elements)
            ):
                return "iterrows() target is not (index, row)"
            idx, row = (e.value.value for e in target.elements)  # type: ignore[attr-defined]
            return RowAccess(cell, cell.code(frame), "row", row, idx)
        if any(a.keyword is None or (a.keyword.value == "name" and cell.code(a.value) == "None") for a in it.args):
            return "itertuples(name=None) yields plain tuples read by position"
        if not isinstance(target, cst.Name):
            return "itertuples() target is unpacked"
        return RowAccess(cell, cell.code(frame), "tuple", target.value, None)
    if (
        name == "range"
        and isinstance(it, cst.Call)
        and len(it.args) == 1
        and call_name(it.args[0].value) == "len"
        and isinstance(target, cst.Name)
    ):
        frame = it.args[0].value.args[0].value  # type: ignore[attr-defined]
        if isinstance(frame, (cst.Name, cst.Attribute)):
            return RowAccess(cell, cell.code(frame), "label", None, target.value)
    if isinstance(it, cst.Attribute) and it.attr.value == "index" and isinstance(it.value, cst.Name) \
            and isinstance(target, cst.Name):
        # for i in df.index: df["a"][i] and df.loc[i, "a"] read by label, the rows in order
        return RowAccess(cell, cell.code(it.value), "index", None, target.value)
    return "the loop is not over iterrows(), itertuples(), range(len(df)) or df.index"


def _frame_of(loop: cst.For) -> cst.BaseExpression:
    """The frame a loop :func:`_access_of` accepted walks."""
    it = loop.iter
    if isinstance(it, cst.Attribute):
        return it.value  # df.index
    assert isinstance(it, cst.Call)
    if isinstance(it.func, cst.Attribute):
        return it.func.value  # df.iterrows(), df.itertuples()
    inner = it.args[0].value  # range(len(df))
    assert isinstance(inner, cst.Call)
    return inner.args[0].value


def _statement(
    cell: ParsedCell,
    access: RowAccess,
    results: RowResults,
    small: cst.BaseSmallStatement,
    per_row: set[str],
    numpy: Callable[[], str],
    twins: Helpers | None = None,
) -> tuple[str | None, str]:
    """The column-wise line for one statement of the loop body, and its kind (or None and why).
    ``numpy`` names NumPy for ``np.where`` (a conditional) and ``np.sqrt`` (``math.sqrt``); the
    results keep their types (:mod:`.row_results`)."""

    # row["c"] -> frame["c"]; other.loc[row["key"], "c"] -> frame["key"].map(other["c"]) (row_lookups)
    subst = with_lookups(access.subst, access.frame, results.facts.names.namespace, cell.code)

    def vec(node: cst.BaseExpression) -> str | None:
        return vectorise(node, subst, per_row, numpy, helpers=twins)

    if isinstance(small, cst.Assign) and len(small.targets) == 1:
        target = small.targets[0].target
        key = _written_column(cell, access, target)
        if key is None:
            return None, "the loop assigns something other than the current row's cell of the frame"
        v = vec(small.value)
        if v is None:
            return None, "the assigned value is not arithmetic on the row's columns"
        accessor = target.value.attr.value  # type: ignore[attr-defined]
        rhs, why = results.column(key, accessor, small.value, v)
        return (f"{access.frame}[{key}] = {rhs}", "column") if rhs is not None else (None, why)
    if (parts := append_parts(small)) is not None:
        owner, value = parts
        if names_in(owner) & {access.row, access.index, access.frame}:
            return None, "the list appended to depends on the row"
        v = vec(value)
        if v is None:
            return None, "the appended value is not arithmetic on the row's columns"
        refused = results.refused(value)
        if refused is not None:
            return None, refused
        return f"{cell.code(owner)}.extend({results.values(value, v)})", "append"
    if (
        isinstance(small, cst.AugAssign)
        and isinstance(small.operator, cst.AddAssign)
        and isinstance(small.target, cst.Name)
    ):
        v = vec(small.value)
        if v is None:
            return None, "the accumulated value is not arithmetic on the row's columns"
        refused = results.refused(small.value)
        if refused is not None:
            return None, refused
        return f"{small.target.value} += {results.total(small.value, v)}", "sum"
    return None, "the loop body does more than assign columns, append to a list or add to a total"


def _written_column(cell: ParsedCell, access: RowAccess, target: cst.CSTNode) -> str | None:
    if not (
        isinstance(target, cst.Subscript)
        and isinstance(target.value, cst.Attribute)
        and target.value.attr.value in ("loc", "at")
        and cell.code(target.value.value) == access.frame
        and len(target.slice) == 2
    ):
        return None
    idx, key = (s.slice.value if isinstance(s.slice, cst.Index) else None for s in target.slice)
    if idx is None or key is None or not is_constant(key):
        return None
    label = {"row": access.index, "label": access.index, "index": access.index,
             "tuple": f"{access.row}.Index"}[access.style]
    return cell.code(key) if cell.code(idx) == label else None
