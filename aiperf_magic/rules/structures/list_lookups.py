"""AIP202 list-membership-in-loop: the detector, its documentation and its fixer."""

from __future__ import annotations

from collections.abc import Iterator

import libcst as cst

from ...cell.parsed import COMPREHENSIONS, LOOPS, ParsedCell
from ...cell.tree import assigned_names, expect, names_in, walk_all
from ...fixes.edits import Edits
from ..facts import Facts, Loop
from ..loops import few_iterations
from ..registry import Hit, fixer_for, rule
from ..work import is_remote_call

SMALL_LIST = 1000  # a scan of this many items costs microseconds: not worth a set


def _is_list(facts: Facts, node: cst.BaseExpression) -> bool:
    if isinstance(node, cst.ListComp):
        return True
    if isinstance(node, cst.Call):
        if isinstance(node.func, cst.Attribute) and node.func.attr.value == "tolist":
            return True
        return facts.names.qname(node.func) == "builtins.list"
    sym = facts.symbol(node) if isinstance(node, cst.Name) else None
    if sym is None or sym.kind != "list" or isinstance(sym.node, cst.List):
        return False  # a list written out in the code holds a handful of items
    return sym.size is None or sym.size > SMALL_LIST


@rule(
    "AIP202",
    "list-membership-in-loop",
    "Membership test against a list inside a loop: each test scans the whole list",
)
def list_membership_in_loop(facts: Facts) -> Iterator[Hit]:
    """
    ## What it does
    Flags `x in some_list`, `x not in some_list` and `some_list.index(x)` inside a loop or
    comprehension, when `some_list` is a list built from data (a comprehension, `list(...)`,
    `.tolist()`, lines of a file), not a list written out in the code. Not flagged: loops of a
    few iterations, loops that call a remote service each time (the scan is noise next to the
    wait), and, inside `%%aiperf`, lists of at most 1,000 items (a live list says its size)
    unless the run counted enough lookups: what costs is the lookups times the list's length
    (a 179-item stop-word list tested for each of a million tokens is 179 million comparisons),
    so a hot loop that scans a live list of 8 items or more a million times or more is reported,
    whatever built the list.

    ## Why is this bad?
    A list lookup compares `x` with every element until it finds it: n lookups into n elements
    is n² work. A set or dict hashes `x` once. For 10,000 lookups into 10,000 items, the list
    took 464 ms and the set 0.6 ms: 760x (`benchmarks/traps/AIP202.py`).

    ## Example
    ```python
    vocab = [w for w in counts if counts[w] > 5]
    ids = [vocab.index(w) for w in tokens if w in vocab]
    ```

    ## Use instead
    ```python
    index = {w: i for i, w in enumerate(vocab)}  # built once
    ids = [index[w] for w in tokens if w in index]
    ```

    ## Fix safety
    Safe when the list is not changed inside the loop and its items are hashable; `.index()`
    becomes a dict of first positions, which keeps the same answer for duplicates.

    ## References
    - Seed article, chapter 2.1 ("dictionaries give O(1) lookups for label encoding").
    """
    for loop in facts.loops:
        if few_iterations(facts, loop) or _waits(facts, loop):
            continue  # a couple of lookups, or lookups next to network calls: the scan is noise
        for member in loop.memberships:
            if member.loop is loop and _is_list(facts, member.container):
                yield member.node
        for call in loop.calls:
            if (
                call.loop is loop
                and call.method == "index"
                and len(call.node.args) == 1
                and call.receiver is not None
                and _is_list(facts, call.receiver)
            ):
                yield call.node


def _waits(facts: Facts, loop: Loop) -> bool:
    """The loop (or one around it) calls a remote service per iteration."""
    return any(is_remote_call(facts, c) for outer in loop.ancestors() for c in outer.calls)


# -- AIP202 ---------------------------------------------------------------------------------------
@fixer_for("AIP202", "Look up in a set or dict built once")
def fix_lookup(cell: ParsedCell, node: cst.CSTNode, facts: Facts) -> Edits | str:
    comp = expect(
        node, cst.Comparison, where=lambda n: any(isinstance(c.operator, (cst.In, cst.NotIn)) for c in n.comparisons)
    )
    if isinstance(comp, cst.Comparison):
        return _membership(cell, comp)
    call = expect(node, cst.Call, where=lambda n: isinstance(n.func, cst.Attribute) and n.func.attr.value == "index")
    if isinstance(call, cst.Call):
        return _index(cell, call)
    return "no `in` test or .index(...) call on the finding's line"


def _membership(cell: ParsedCell, comp: cst.Comparison) -> Edits | str:
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
    keys = _keys_of(seq)
    if keys is not None:
        # x in list(d.keys()) tests what x in d tests (a dict, a frame's columns, a Series' index),
        # at the moment of the test: nothing is hoisted, so d may change in the loop
        edits = Edits("Test membership against the mapping itself", safety="unsafe")
        edits.replace[seq] = keys
        return edits
    if not isinstance(seq, (cst.Name, cst.Attribute)) and not _copied_list(seq):
        # x in make_list(): the list is rebuilt per test; hoisting the call could change its result
        return "the list is computed in place; build it once before the loop first"
    where = _hoist_point(cell, comp, seq)
    if isinstance(where, str):
        return _kept_beside(cell, comp, seq) or where
    edits = Edits("Test membership against a set built once before the loop", safety="unsafe")
    name = cell.fresh(f"{_stem(cell, seq)}_set")
    source = _copied_from(seq) if _copied_list(seq) else seq  # set(df["id"]), not set(df["id"].tolist())
    edits.before[where] = [f"{name} = set({cell.code(source)})\n"]
    edits.replace[seq] = cst.Name(name)
    return edits


def _copied_from(seq: cst.BaseExpression) -> cst.BaseExpression:
    assert isinstance(seq, cst.Call)
    return seq.args[0].value if seq.args else seq.func.value  # type: ignore[attr-defined]


def _index(cell: ParsedCell, call: cst.Call) -> Edits | str:
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


def _stem(cell: ParsedCell, seq: cst.BaseExpression) -> str:
    if isinstance(seq, cst.Call):  # list(names), df["id"].tolist(): the name or column it copies
        inner = seq.args[0].value if seq.args else seq.func.value  # type: ignore[attr-defined]
        if isinstance(inner, cst.Subscript) and isinstance(inner.slice[0].slice, cst.Index) and isinstance(
                inner.slice[0].slice.value, cst.SimpleString):
            return str(inner.slice[0].slice.value.evaluated_value).replace(" ", "_") or "items"
        return _stem(cell, inner) if isinstance(inner, (cst.Name, cst.Attribute, cst.Call)) else "items"
    return seq.attr.value if isinstance(seq, cst.Attribute) else cell.code(seq)


def _plain(node: cst.BaseExpression) -> bool:
    """A name, an attribute chain or a column by its literal name (``df["id"]``): reading it calls nothing."""
    if isinstance(node, cst.Name):
        return True
    if isinstance(node, cst.Attribute):
        return _plain(node.value)
    return (isinstance(node, cst.Subscript) and len(node.slice) == 1 and isinstance(node.slice[0].slice, cst.Index)
            and isinstance(node.slice[0].slice.value, (cst.SimpleString, cst.Integer)) and _plain(node.value))


def _keys_of(seq: cst.BaseExpression) -> cst.BaseExpression | None:
    """``d`` for ``list(d.keys())`` or ``d.keys()``."""
    if isinstance(seq, cst.Call) and isinstance(seq.func, cst.Name) and seq.func.value == "list" and len(seq.args) == 1:
        seq = seq.args[0].value
    if (isinstance(seq, cst.Call) and not seq.args and isinstance(seq.func, cst.Attribute)
            and seq.func.attr.value == "keys" and _plain(seq.func.value)):
        return seq.func.value
    return None


def _copied_list(seq: cst.BaseExpression) -> bool:
    """``list(xs)``, ``xs.tolist()``, ``df["id"].tolist()``, ``list(df["id"])``: a copy of data the
    loop does not change (checked where it is hoisted), built again for every test."""
    if not isinstance(seq, cst.Call):
        return False
    if isinstance(seq.func, cst.Name) and seq.func.value == "list" and len(seq.args) == 1 and not seq.args[0].keyword:
        return _plain(seq.args[0].value)
    return (isinstance(seq.func, cst.Attribute) and seq.func.attr.value == "tolist" and not seq.args
            and _plain(seq.func.value))


def _hoist_point(cell: ParsedCell, node: cst.CSTNode, seq: cst.BaseExpression) -> cst.CSTNode | str:
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


def _kept_beside(cell: ParsedCell, comp: cst.Comparison, seq: cst.BaseExpression) -> Edits | None:
    """``if x not in seen: seen.append(x)``: the list grows only by ``seen.append(v)`` statements
    of the loop; a set built before the loop and given every appended item too answers the same
    tests. None unless the loop uses the list only in ``in`` tests and such appends."""
    if not isinstance(seq, cst.Name):
        return None
    loop = next((a for a in cell.ancestors(comp) if isinstance(a, LOOPS)), None)
    if not isinstance(loop, cst.For) or any(isinstance(a, COMPREHENSIONS) for a in cell.ancestors(comp)
                                            if a is not loop and loop in cell.ancestors(a)):
        return None
    name = seq.value
    appends: list[cst.SimpleStatementLine] = []
    tests: list[cst.CSTNode] = []
    for n in walk_all(loop):
        if isinstance(n, cst.Name) and n.value == name:
            parent = cell.parent(n)
            if isinstance(parent, cst.ComparisonTarget) and isinstance(parent.operator, (cst.In, cst.NotIn)):
                tests.append(n)
                continue
            if isinstance(parent, cst.Attribute) and parent.attr.value == "append":
                call = cell.parent(parent)
                line = cell.parent(cell.parent(call)) if isinstance(call, cst.Call) else None
                if isinstance(line, cst.SimpleStatementLine) and len(line.body) == 1 and len(call.args) == 1:
                    appends.append(line)
                    continue
            return None  # read or changed another way: a set beside it could disagree
    if not appends or names_in(loop.target) & {name}:
        return None
    edits = Edits("Keep a set beside the list, built before the loop and added to with it", safety="unsafe")
    shadow = cell.fresh(f"{name}_set")
    edits.before[loop] = [f"{shadow} = set({name})\n"]
    for n in tests:
        edits.replace[n] = cst.Name(shadow)
    for line in appends:
        item = line.body[0].value.args[0].value  # type: ignore[attr-defined]
        # a name or a constant is added as written; anything else is read back, not computed twice
        added = cell.code(item) if isinstance(item, (cst.Name, cst.SimpleString, cst.Integer)) else f"{name}[-1]"
        edits.after[line] = [f"{shadow}.add({added})\n"]
    return edits
