"""Fixes for Python-level number crunching: NumPy expressions (AIP201), sets and dicts for lookups
(AIP202), and collect-then-join instead of growing arrays in a loop (AIP203)."""

from __future__ import annotations

import libcst as cst

from ...fixes.base import (
    COMPREHENSIONS,
    LOOPS,
    Cell,
    append_parts,
    assigned_names,
    call_name,
    contains,
    names_in,
    walk,
)
from ...fixes.edits import Edits
from ...fixes.registry import fixer
from ...report import Finding
from .vectorize import array_of, vectorise


# -- AIP201 ---------------------------------------------------------------------------------------
@fixer("AIP201", "Compute with one NumPy expression")
def fix_elementwise(cell: Cell, finding: Finding) -> Edits | str:
    node = cell.at_line(finding.line, (*COMPREHENSIONS, cst.For), finding.col)
    if node is None:
        return "no loop or comprehension on the finding's line"
    edits = Edits("Compute with one NumPy expression (the result becomes a NumPy array)", safety="unsafe")

    def numpy() -> str:
        return edits.need(cell, "numpy")

    if isinstance(node, cst.For):
        return _for_loop(cell, node, edits, numpy)
    if not isinstance(node, (cst.ListComp, cst.GeneratorExp)):
        return "set and dict comprehensions have no array equivalent"
    comp = node.for_in
    if comp.ifs or comp.inner_for_in or comp.asynchronous or not isinstance(comp.target, cst.Name):
        # [x for x in xs if x > 0] / nested fors / tuple targets: not one array expression
        return "the comprehension filters, nests or unpacks; only [f(x) for x in xs] is rewritten"
    vec = _vector(cell, node.elt, comp.target.value, comp.iter, numpy)
    if vec is None:
        return "the expression is not element-wise arithmetic on the loop variable"
    parent = cell.parent(node)
    if isinstance(node, cst.GeneratorExp) or isinstance(parent, cst.Arg):
        call = cell.parent(parent) if isinstance(parent, cst.Arg) else parent
        if isinstance(call, cst.Call) and call_name(call) == "sum" and len(call.args) == 1:
            edits.replace[call] = cst.parse_expression(f"({vec}).sum().item()")
            return edits
        if isinstance(node, cst.GeneratorExp):
            # a generator is consumed lazily by whatever receives it; an array is not a drop-in
            return "only a generator passed straight to sum(...) is rewritten"
    edits.replace[node] = cst.parse_expression(vec)
    return edits


def _vector(cell: Cell, elt: cst.BaseExpression, var: str, iterable: cst.BaseExpression, numpy: object) -> str | None:
    arr = array_of(iterable, cell.code, numpy)  # type: ignore[arg-type]
    if arr is None:
        return None
    return vectorise(elt, lambda n: arr if isinstance(n, cst.Name) and n.value == var else None, {var}, numpy)  # type: ignore[arg-type]


def _for_loop(cell: Cell, loop: cst.For, edits: Edits, numpy: object) -> Edits | str:
    if loop.orelse or not isinstance(loop.target, cst.Name) or not isinstance(loop.body, cst.IndentedBlock):
        return "the loop unpacks its items or has an else clause"
    body = loop.body.body
    if len(body) != 1 or not isinstance(body[0], cst.SimpleStatementLine) or len(body[0].body) != 1:
        # several statements per element (prints, ifs, break/continue) are not one expression
        return "the loop body is more than one accumulating statement"
    small = body[0].body[0]
    var = loop.target.value
    if (parts := append_parts(small)) is not None:
        owner, value = parts
        vec = _vector(cell, value, var, loop.iter, numpy)
        if vec is None or var in names_in(owner):
            return "the appended value is not element-wise arithmetic on the loop variable"
        target = cell.code(owner)
        # extend keeps ``target`` a list (whatever it already held) and the items plain Python numbers
        edits.replace[loop] = cst.parse_statement(f"{target}.extend(({vec}).tolist())\n")
        return edits
    if isinstance(small, cst.AugAssign) and isinstance(small.operator, cst.AddAssign):
        vec = _vector(cell, small.value, var, loop.iter, numpy)
        if vec is None or var in names_in(small.target):
            return "the accumulated value is not element-wise arithmetic on the loop variable"
        edits.replace[loop] = cst.parse_statement(f"{cell.code(small.target)} += ({vec}).sum().item()\n")
        return edits
    return "only out.append(f(x)) and total += f(x) loops are rewritten"


# -- AIP202 ---------------------------------------------------------------------------------------
@fixer("AIP202", "Look up in a set or dict built once")
def fix_lookup(cell: Cell, finding: Finding) -> Edits | str:
    comp = cell.at_line(
        finding.line,
        cst.Comparison,
        finding.col,
        where=lambda n: any(isinstance(c.operator, (cst.In, cst.NotIn)) for c in n.comparisons),
    )
    if isinstance(comp, cst.Comparison):
        return _membership(cell, comp)
    call = cell.at_line(
        finding.line,
        cst.Call,
        finding.col,
        where=lambda n: isinstance(n.func, cst.Attribute) and n.func.attr.value == "index",
    )
    if isinstance(call, cst.Call):
        return _index(cell, call)
    return "no `in` test or .index(...) call on the finding's line"


def _membership(cell: Cell, comp: cst.Comparison) -> Edits | str:
    target = next(c for c in comp.comparisons if isinstance(c.operator, (cst.In, cst.NotIn)))
    seq = target.comparator
    if isinstance(seq, cst.List):
        if not seq.elements or not all(
            isinstance(e.value, (cst.Integer, cst.Float, cst.SimpleString)) for e in seq.elements
        ):
            # {} is a dict, and unhashable or computed items could fail or change as a set
            return "the list literal is empty or holds non-constant items"
        edits = Edits("Test membership against a set literal")
        edits.replace[seq] = cst.Set(elements=seq.elements, lbrace=cst.LeftCurlyBrace(), rbrace=cst.RightCurlyBrace())
        return edits
    if not isinstance(seq, (cst.Name, cst.Attribute)):
        # x in make_list(): the list is rebuilt per test; hoisting the call could change its result
        return "the list is computed in place; build it once before the loop first"
    where = _hoist_point(cell, comp, seq)
    if isinstance(where, str):
        return where
    edits = Edits("Test membership against a set built once before the loop", safety="unsafe")
    name = cell.fresh(f"{_stem(cell, seq)}_set")
    edits.before[where] = [f"{name} = set({cell.code(seq)})\n"]
    edits.replace[seq] = cst.Name(name)
    return edits


def _index(cell: Cell, call: cst.Call) -> Edits | str:
    seq = call.func.value  # type: ignore[attr-defined]
    if len(call.args) != 1 or call.args[0].keyword or call.args[0].star:
        return ".index with start/stop bounds has no dict equivalent"
    if not isinstance(seq, (cst.Name, cst.Attribute)):
        return "the list is computed in place; build it once before the loop first"
    for anc in cell.ancestors(call):
        if isinstance(anc, cst.Try):
            # except ValueError: ... relies on .index's exception; a dict raises KeyError
            return "the lookup is inside try/except, which expects .index's ValueError"
        if isinstance(anc, (cst.FunctionDef, cst.Lambda)):
            break
    where = _hoist_point(cell, call, seq)
    if isinstance(where, str):
        return where
    edits = Edits("Look positions up in a dict built once before the loop", safety="unsafe")
    name = cell.fresh(f"{_stem(cell, seq)}_pos")
    # reversed so that the first occurrence wins, as with list.index
    edits.before[where] = [f"{name} = {{_v: _i for _i, _v in reversed(list(enumerate({cell.code(seq)})))}}\n"]
    edits.replace[call] = cst.parse_expression(f"{name}[{cell.code(call.args[0].value)}]")
    return edits


def _stem(cell: Cell, seq: cst.BaseExpression) -> str:
    return seq.attr.value if isinstance(seq, cst.Attribute) else cell.code(seq)


def _hoist_point(cell: Cell, node: cst.CSTNode, seq: cst.BaseExpression) -> cst.CSTNode | str:
    """The outermost loop statement around ``node`` in which ``seq`` is not changed."""
    root = names_in(seq)
    best: cst.CSTNode | None = None
    in_comp = False
    for anc in cell.ancestors(node):
        if isinstance(anc, (cst.FunctionDef, cst.Lambda, cst.ClassDef)):
            break
        if isinstance(anc, COMPREHENSIONS):
            in_comp = True
            if root & assigned_names(anc):
                return "the list is rebound inside the comprehension"
        if isinstance(anc, LOOPS):
            if root & assigned_names(anc):
                if best is None:
                    # seen.append(x) in the same loop: the set would miss the new items
                    return "the list changes inside the loop, so a set built once would go stale"
                break
            best = anc
    if best is None and in_comp:
        best = cell.statement(node)
    return best if best is not None else "the lookup is not inside a loop"


# -- AIP203 ---------------------------------------------------------------------------------------
GROWERS = {"append", "concatenate", "vstack", "cat", "stack", "concat"}


@fixer("AIP203", "Collect in a list and join once after the loop")
def fix_growth(cell: Cell, finding: Finding) -> Edits | str:
    call = cell.at_line(
        finding.line,
        cst.Call,
        finding.col,
        where=lambda n: call_name(n).count(".") >= 1 and call_name(n).rsplit(".", 1)[1] in GROWERS,
    )
    if isinstance(call, cst.Call):
        return _grow_call(cell, call)
    assign = cell.at_line(finding.line, cst.Assign, finding.col)
    if isinstance(assign, cst.Assign):
        return _grow_loc(cell, assign)
    return "no growth call on the finding's line"


def _loop_for(cell: Cell, statement: cst.CSTNode, grown: str) -> cst.CSTNode | str:
    loop = cell.enclosing_loop(statement)
    if loop is None:
        return "the growth is not inside a loop"
    if contains(loop, (cst.Return, cst.Yield, cst.Raise)):
        # return/yield/raise inside the loop would skip the join placed after it
        return "the loop can leave early through return/yield/raise, skipping the join"
    reads = sum(1 for n in walk(loop) if isinstance(n, cst.Name) and n.value == grown)
    own = sum(1 for n in walk(statement) if isinstance(n, cst.Name) and n.value == grown)
    if reads != own:
        # print(len(arr)) or arr[-1] inside the loop needs the grown value at every step
        return f"{grown} is read inside the loop, which needs its value at every step"
    return loop


def _grow_call(cell: Cell, call: cst.Call) -> Edits | str:
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
    cell: Cell, edits: Edits, loop: cst.CSTNode, statement: cst.CSTNode, parts: str, item: str, join: str
) -> Edits:
    edits.before[loop] = [f"{parts} = []\n"]
    edits.replace[statement] = cst.parse_statement(f"{parts}.append({item})\n")
    edits.after[loop] = [join + "\n"]
    return edits


def _grow_loc(cell: Cell, assign: cst.Assign) -> Edits | str:
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
    reads = sum(1 for n in walk(assign.value) if isinstance(n, cst.Name) and n.value == frame)
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
    return _collect(cell, edits, loop, statement, parts, cell.code(assign.value), join)
