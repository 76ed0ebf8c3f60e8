"""AIP203 growing-array-in-loop: the detector, its documentation and its fixer."""

from __future__ import annotations

from collections.abc import Iterator

import libcst as cst

from ...cell.parsed import ParsedCell
from ...cell.tree import call_name, contains, expect, names_in, walk_all
from ...fixes.edits import Edits
from ..exprs import dotted_name, same_ref
from ..facts import Facts, Loop
from ..loops import few_iterations
from ..models import in_module_method
from ..registry import Hit, fixer_for, rule
from ..work import definition

GROWERS = frozenset(
    [
        f"numpy.{n}"
        for n in ["append", "concatenate", "vstack", "hstack", "stack", "row_stack", "column_stack", "dstack"]
    ]
    + [f"torch.{n}" for n in ["cat", "concat", "concatenate", "stack", "vstack", "hstack"]]
    + ["pandas.concat"]
)


def _grows_itself(qname: str | None, target: cst.BaseExpression, call: cst.Call) -> bool:
    """``a = np.append(a, x)`` / ``t = torch.cat([t, x])``: the result is fed back next time.

    ``t = torch.cat(t)`` is not growth: its argument is a list of pieces, joined once."""
    if not call.args:
        return False
    first = call.args[0].value
    if qname == "numpy.append":
        return same_ref(first, target) and len(call.args) >= 2
    if isinstance(first, (cst.List, cst.Tuple)) and len(first.elements) >= 2:
        return any(same_ref(e.value, target) for e in first.elements)
    return False


def _frame_append(facts: Facts, target: cst.BaseExpression, call: cst.Call) -> bool:
    """``df = df.append(row)``: pandas' own append returns a new, larger frame every time (a list's
    append returns None, so nobody writes it this way)."""
    func = call.func
    return (
        isinstance(func, cst.Attribute)
        and func.attr.value == "append"
        and same_ref(func.value, target)
        and facts.kind(func.value if isinstance(func.value, cst.Name) else None) in (None, "frame", "series")
    )


def _grown_by_helper(facts: Facts, target: cst.BaseExpression, call: cst.Call) -> bool:
    """``df = add_rows(df, new)`` where the function returns ``pd.concat([df, ...])`` (or
    ``np.append(df, ...)``) of its first parameter: the same growth, one call away."""
    func = call.func
    if not isinstance(func, cst.Name) or not call.args or not same_ref(call.args[0].value, target):
        return False
    found = definition(facts, func.value)
    if found is None or not found.params.params:
        return False
    first = cst.Name(found.params.params[0].name.value)
    for node in walk_all(found.body):
        if isinstance(node, cst.Return) and isinstance(node.value, cst.Call):
            value = node.value
            if facts.names.qname(value.func) in GROWERS and _grows_itself(facts.names.qname(value.func), first, value):
                return True
            if _frame_append(facts, first, value):
                return True
    return False


def _fresh_each_time(loop: Loop, statement: cst.CSTNode, name: str) -> bool:
    """The grown name is assigned anew earlier in the same loop body: it restarts every iteration."""
    node = loop.node
    if not isinstance(node, (cst.For, cst.While)) or not isinstance(node.body, cst.IndentedBlock):
        return False
    for stmt in node.body.body:
        if stmt is statement:
            return False
        if isinstance(stmt, cst.SimpleStatementLine) and any(
            isinstance(s, cst.Assign) and any(dotted_name(t.target) == name for t in s.targets)
            for s in stmt.body
        ):
            return True
    return False


def _read_in_loop(loop: Loop, statement: cst.CSTNode, name: str) -> bool:
    """The loop reads the grown value elsewhere (``model(idx)``, ``idx[:, -ctx:]``): it needs the
    whole value at every step, as autoregressive generation does; the growth is the algorithm.
    Sizes (``len(x)``, ``x.shape``) and the statements that rebind it (``x = grow(x, ...)``, in
    another branch too) do not count."""
    skip: set[int] = {id(n) for n in walk_all(statement)}
    for node in walk_all(loop.node):
        if id(node) in skip:
            continue
        if (
            (isinstance(node, cst.Call) and isinstance(node.func, cst.Name) and node.func.value == "len")
            or (isinstance(node, cst.Attribute) and node.attr.value in _SIZES)
            or (isinstance(node, cst.Assign) and any(dotted_name(t.target) == name for t in node.targets))
        ):
            skip |= {id(n) for n in walk_all(node)}
        elif isinstance(node, cst.Name) and node.value == name:
            return True
    return False


_SIZES = frozenset({"shape", "size", "ndim", "dtype", "device"})


@rule(    "AIP203",
    "growing-array-in-loop",
    "Array/tensor/frame grown inside a loop: every step copies everything so far",
)
def growing_array_in_loop(facts: Facts) -> Iterator[Hit]:
    """
    ## What it does
    Flags `a = np.append(a, x)`, `np.concatenate`/`np.vstack`, `t = torch.cat([t, x])`,
    `torch.stack`, `df = pd.concat([df, row])`, `df = df.append(row)`, `df.loc[len(df)] = row`
    and `df = helper(df, row)` (a function returning such a concatenation) inside a loop.
    Not flagged: a list of pieces joined once (`torch.cat(outputs)`), growth the loop reads at
    every step (autoregressive generation feeds the sequence so far to the model: the growth is
    the algorithm), a value started afresh each iteration, a module's own `forward` (DenseNet
    and U-Net concatenations are the architecture), loops of a few iterations, and loops that
    train or fit a model each iteration (they accumulate one record per step or per model).

    ## Why is this bad?
    Arrays, tensors and frames are fixed-size blocks: "appending" allocates a new block and
    copies every element so far, so n appends copy n²/2 elements. Collecting the pieces in a
    list and joining once copies each element once. Building a 2,000-row frame with
    `pd.concat` per row took 337 ms; collecting the rows and building the frame once took
    1.1 ms: 316x (`benchmarks/traps/AIP203.py`).

    ## Example
    ```python
    df = pd.DataFrame()
    for path in paths:
        df = pd.concat([df, pd.read_csv(path)])
    ```

    ## Use instead
    ```python
    df = pd.concat([pd.read_csv(path) for path in paths], ignore_index=True)
    ```

    ## Fix safety
    Safe when nothing in the loop reads the partial result; unsafe otherwise (the fix would
    change what the loop sees). `ignore_index` may differ: review the index of the result.

    ## References
    - Seed article, chapter 2.3 ("preallocation instead of repeated allocation") and chapter 1
      (frequent `torch.cat` operations).
    """
    for assign in facts.assigns:
        loop = assign.loop
        if loop is None or not isinstance(assign.node, cst.Assign) or in_module_method(assign.scope):
            continue  # a module's forward (DenseNet blocks, U-Net skips): concatenation is the architecture
        if few_iterations(facts, loop) or _fits_each_time(loop):
            continue
        value = assign.value
        for target in assign.targets:
            name = dotted_name(target.value if isinstance(target, cst.Subscript) else target) or ""
            statement = _statement_of(facts, assign.node)
            if name and statement is not None and (
                _fresh_each_time(loop, statement, name) or _read_in_loop(loop, statement, name)
            ):
                continue
            qname = facts.names.qname(value.func) if isinstance(value, cst.Call) else None
            if isinstance(value, cst.Call) and (
                (qname in GROWERS and _grows_itself(qname, target, value))
                or _frame_append(facts, target, value)
                or _grown_by_helper(facts, target, value)
            ):
                yield value
            elif isinstance(target, cst.Subscript) and _is_loc_len(target):
                yield assign.node


_FITS = frozenset({"fit", "fit_transform", "backward", "train_on_batch", "partial_fit"})


def _fits_each_time(loop: Loop) -> bool:
    """Each iteration trains or fits a model (``model.fit(X, y)``, ``loss.backward()``): its time goes
    there, and what it accumulates is one record per step or per model (a results table)."""
    return any(c.method in _FITS for c in loop.calls)


def _statement_of(facts: Facts, node: cst.CSTNode) -> cst.CSTNode | None:
    if facts.cell is None:
        return None
    return facts.cell.statement(node)


def _is_loc_len(target: cst.Subscript) -> bool:
    """``df.loc[len(df)]``: appending one row by label."""
    loc = target.value
    if not (isinstance(loc, cst.Attribute) and loc.attr.value in ("loc", "at")) or not target.slice:
        return False
    index = target.slice[0].slice
    value = index.value if isinstance(index, cst.Index) else None
    return (
        isinstance(value, cst.Call)
        and isinstance(value.func, cst.Name)
        and value.func.value == "len"
        and len(value.args) == 1
        and same_ref(value.args[0].value, loc.value)
    )


# -- AIP203 ---------------------------------------------------------------------------------------
GROWER_LEAVES = {"append", "concatenate", "vstack", "cat", "stack", "concat"}


@fixer_for("AIP203", "Collect in a list and join once after the loop")
def fix_growth(cell: ParsedCell, node: cst.CSTNode, facts: Facts) -> Edits | str:
    if isinstance(node, cst.Call) and facts.names.qname(node.func) == "builtins.sum":
        return _flatten(cell, node, facts)
    call = expect(
        node, cst.Call, where=lambda n: call_name(n).count(".") >= 1 and call_name(n).rsplit(".", 1)[1] in GROWER_LEAVES
    )
    if isinstance(call, cst.Call):
        return _grow_call(cell, call)
    assign = expect(node, cst.Assign)
    if isinstance(assign, cst.Assign):
        return _grow_loc(cell, assign)
    return "no growth call on the finding's line"


def _loop_for(cell: ParsedCell, statement: cst.CSTNode, grown: str) -> cst.CSTNode | str:
    loop = cell.enclosing_loop(statement)
    if loop is None:
        return "the growth is not inside a loop"
    if contains(loop, (cst.Return, cst.Yield, cst.Raise)):
        # return/yield/raise inside the loop would skip the join placed after it
        return "the loop can leave early through return/yield/raise, skipping the join"
    reads = sum(1 for n in walk_all(loop) if isinstance(n, cst.Name) and n.value == grown)
    own = sum(1 for n in walk_all(statement) if isinstance(n, cst.Name) and n.value == grown)
    if reads != own:
        # print(len(arr)) or arr[-1] inside the loop needs the grown value at every step
        return f"{grown} is read inside the loop, which needs its value at every step"
    return loop


def _grow_call(cell: ParsedCell, call: cst.Call) -> Edits | str:
    statement = cell.statement(call)
    assign = statement.body[0] if isinstance(statement, cst.SimpleStatementLine) and len(statement.body) == 1 else None
    if not (
        isinstance(assign, cst.Assign)
        and assign.value is call
        and len(assign.targets) == 1
        and isinstance(assign.targets[0].target, cst.Name)
    ):
        return "the grown value is not simply rebound (x = f(x, item))"
    grown = assign.targets[0].target.value
    name = call_name(call)
    kind = name.rsplit(".", 1)[1]
    if kind == "stack":
        # stacking onto the previous stack adds a dimension each time: no single call matches
        return "repeated stack nests a dimension per step; collect items and stack once instead"
    args = list(call.args)
    rest = ", ".join(cell.code(a) for a in args[1:])
    if kind == "append":
        if not args or cell.code(args[0].value) != grown or len(args) < 2:
            return "the call does not append to the rebound name"
        item = cell.code(args[1].value)
        extra = ", ".join(cell.code(a) for a in args[2:])
        mod = name.rsplit(".", 1)[0]
        loop = _loop_for(cell, statement, grown)
        if isinstance(loop, str):
            return loop
        parts = cell.fresh(f"{grown}_parts")
        edits = Edits("Collect the items in a list and concatenate once after the loop")
        if extra:  # np.append(a, v, axis=k) is concatenate along k
            join = f"{grown} = {mod}.concatenate([{grown}, *{parts}], {extra.split('=', 1)[-1].strip()})"
        else:
            # without axis np.append flattens both sides; one append of the collected items does the same
            # for scalars and same-shaped arrays (ragged items raise, and verify would show it)
            join = f"{grown} = {mod}.append({grown}, {parts})"
        return _collect(cell, edits, loop, statement, parts, item, join)
    seq = args[0].value if args else None
    if (
        not isinstance(seq, (cst.List, cst.Tuple))
        or len(seq.elements) != 2
        or any(isinstance(e, cst.StarredElement) for e in seq.elements)
        or cell.code(seq.elements[0].value) != grown
    ):
        # prepending (cat([x, acc])) or joining more than one new item needs a different order
        return "the call does not join exactly [grown, item] in that order"
    loop = _loop_for(cell, statement, grown)
    if isinstance(loop, str):
        return loop
    parts = cell.fresh(f"{grown}_parts")
    item = cell.code(seq.elements[1].value)
    join = f"{grown} = {cell.code(call.func)}([{grown}, *{parts}]{', ' + rest if rest else ''})"
    edits = Edits("Collect the items in a list and join them once after the loop")
    return _collect(cell, edits, loop, statement, parts, item, join)


def _collect(
    cell: ParsedCell, edits: Edits, loop: cst.CSTNode, statement: cst.CSTNode, parts: str, item: str, join: str
) -> Edits:
    edits.before[loop] = [f"{parts} = []\n"]
    edits.replace[statement] = cst.parse_statement(f"{parts}.append({item})\n")
    edits.after[loop] = [join + "\n"]
    return edits


def _grow_loc(cell: ParsedCell, assign: cst.Assign) -> Edits | str:
    target = assign.targets[0].target if len(assign.targets) == 1 else None
    if not (
        isinstance(target, cst.Subscript)
        and isinstance(target.value, cst.Attribute)
        and target.value.attr.value == "loc"
        and isinstance(target.value.value, cst.Name)
    ):
        return "no df.loc[len(df)] = row assignment on the finding's line"
    frame = target.value.value.value
    if len(target.slice) != 1 or cell.code(target.slice[0]) != f"len({frame})":
        return "the row label is not len(frame)"
    statement = cell.statement(assign)
    reads = sum(1 for n in walk_all(assign.value) if isinstance(n, cst.Name) and n.value == frame)
    if reads:
        return f"the new row reads {frame} itself"
    loop = _loop_for(cell, statement, frame)
    if isinstance(loop, str):
        return loop
    parts = cell.fresh(f"{frame}_rows")
    edits = Edits("Collect the rows in a list and build the frame once after the loop", safety="unsafe")
    pd = edits.need(cell, "pandas")
    join = (
        f"if {parts}:\n    {frame} = {pd}.concat([{frame}, {pd}.DataFrame({parts}, columns={frame}.columns)],"
        f" ignore_index=True)"
    )
    if _starts_empty(cell, loop, frame) and _has_text(assign.value, loop):
        # joined to an empty frame of object columns, the rows would all become object; a row that
        # holds text is an object row, and the loop's .loc infers each column's dtype from its
        # values, as one DataFrame of the rows does (an all-number row is cast to one dtype first:
        # [1, 0.5] makes both columns float64, so those keep the concat)
        join = f"if {parts}:\n    {frame} = {pd}.DataFrame({parts}, columns={frame}.columns)"
    return _collect(cell, edits, loop, statement, parts, cell.code(assign.value), join)


def _starts_empty(cell: ParsedCell, loop: cst.CSTNode, frame: str) -> bool:
    """``frame = pd.DataFrame(columns=...)`` is the last statement before the loop that names
    ``frame``: the loop starts from an empty frame with no rows and no dtypes of its own."""
    for statement in reversed(cell.preceding(loop)):
        if frame not in names_in(statement):
            continue
        small = statement.body[0] if isinstance(statement, cst.SimpleStatementLine) and len(statement.body) == 1 \
            else None
        if not (isinstance(small, cst.Assign) and len(small.targets) == 1
                and isinstance(small.targets[0].target, cst.Name) and small.targets[0].target.value == frame):
            return False
        value = small.value
        return (isinstance(value, cst.Call) and call_name(value).rsplit(".", 1)[-1] == "DataFrame"
                and [a.keyword.value if a.keyword else None for a in value.args] == ["columns"])
    return False


_TEXT_METHODS = frozenset({"split", "rsplit", "strip", "lower", "upper", "title", "replace", "format", "join"})


def _has_text(row: cst.BaseExpression, loop: cst.CSTNode) -> bool:
    """The row is a list or tuple with an element that is certainly a string: a literal, an
    f-string, ``str(...)``, a string method's result, or a name the loop unpacks from ``.split()``."""
    if not isinstance(row, (cst.List, cst.Tuple)):
        return False
    from_split: set[str] = set()
    for n in walk_all(loop):
        if isinstance(n, cst.Assign) and len(n.targets) == 1 and isinstance(n.value, cst.Call) \
                and isinstance(n.value.func, cst.Attribute) and n.value.func.attr.value in ("split", "rsplit") \
                and isinstance(n.targets[0].target, cst.Tuple):
            from_split |= {e.value.value for e in n.targets[0].target.elements if isinstance(e.value, cst.Name)}

    def text(e: cst.BaseExpression) -> bool:
        if isinstance(e, (cst.SimpleString, cst.FormattedString, cst.ConcatenatedString)):
            return True
        if isinstance(e, cst.Name):
            return e.value in from_split
        if isinstance(e, cst.Call):
            func = e.func
            return (isinstance(func, cst.Name) and func.value == "str") or (
                isinstance(func, cst.Attribute) and func.attr.value in _TEXT_METHODS - {"split", "rsplit"})
        return False

    return any(text(e.value) for e in row.elements)


def _flatten(cell: ParsedCell, call: cst.Call, facts: Facts) -> Edits | str:
    """``sum(lists, [])`` -> ``list(itertools.chain.from_iterable(lists))``: the same items in the
    same order, in one pass. Only where the run shows every item is a list: ``sum`` raises on a tuple
    (``[] + ()``), where ``chain`` would take it."""
    args = call.args
    if len(args) != 2 or any(a.keyword is not None or a.star for a in args) or not (
            isinstance(args[1].value, cst.List) and not args[1].value.elements):
        return "not sum(lists, []) with an empty list to start from"
    first = args[0].value
    ns = facts.names.namespace
    live = ns.get(first.value) if ns is not None and isinstance(first, cst.Name) else None
    if not isinstance(live, list) or not all(isinstance(part, list) for part in live):
        return (f"the run does not show that every item of {cell.code(first)} is a list (sum raises on a tuple, "
                "itertools.chain would take it)")
    edits = Edits("Flatten in one pass with itertools.chain.from_iterable")
    chain = edits.need_from(cell, "itertools", "chain")
    edits.replace[call] = cst.parse_expression(f"list({chain}.from_iterable({cell.code(first)}))")
    return edits
