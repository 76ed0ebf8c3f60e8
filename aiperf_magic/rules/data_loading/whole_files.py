"""AIP104 whole-file-read: the detector, its documentation and its fixer."""

from __future__ import annotations

from collections.abc import Iterator

import libcst as cst

from ...cell.parsed import ParsedCell
from ...cell.tree import call_name, expect, expr, walk_all
from ...fixes.edits import Edits
from ..exprs import is_arithmetic, names_used
from ..facts import Call, Facts, Loop, unwrap_iterable
from ..registry import Hit, fixer_for, rule


def _streamed_loop(facts: Facts, call: Call) -> Loop | None:
    """The one loop that consumes the lines, when nothing else needs them as a list.

    ``for line in fh.readlines()`` or ``for line in fh.readlines()[1:]`` (the slice copies the
    list once more), or a name bound to the lines and then only iterated. A list that is also
    indexed, measured, sliced, returned or iterated twice is needed as a list (not flagged)."""
    names: set[str] = set()
    for assign in facts.assigns:
        if assign.value is call.node:
            names |= {t.value for t in assign.targets if isinstance(t, cst.Name)}
    if len(names) > 1:
        return None
    found: list[Loop] = []
    for loop in facts.loops:
        it = unwrap_iterable(facts, loop.iter)
        if isinstance(it, cst.Subscript) and _is_slice(it):
            it = it.value  # readlines()[1:]: the header skipped, the rest still read whole
        if it is call.node or (isinstance(it, cst.Name) and it.value in names):
            found.append(loop)
    if len(found) != 1:
        return None
    if names:
        (name,) = names
        uses = sum(1 for n in walk_all(facts.module) if isinstance(n, cst.Name) and n.value == name)
        if uses != 2:  # bound once, iterated once: any other use needs the list
            return None
    return found[0]


def _is_slice(node: cst.Subscript) -> bool:
    return len(node.slice) == 1 and isinstance(node.slice[0].slice, cst.Slice)


def _keeps_lines(loop: Loop) -> bool:
    """The loop keeps something of every line (appends it, stores it, joins it), so the data is
    held whole anyway: streaming the file would save little next to what is kept."""
    node = loop.node
    if isinstance(node, (cst.ListComp, cst.SetComp, cst.DictComp)):
        return True
    for call in loop.calls:
        if call.method in _KEEPERS and names_used(call.node) & loop.targets:
            return True
    for assign in loop.assigns:
        value = assign.value
        if value is None or not names_used(value) & loop.targets:
            continue
        if isinstance(assign.node, cst.AugAssign):
            if _line_text(value, loop.targets):
                return True  # text += line
        elif any(isinstance(t, cst.Subscript) for t in assign.targets) and not is_arithmetic(value):
            return True  # d[key] = line
    return False


def _line_text(value: cst.BaseExpression, targets: frozenset[str]) -> bool:
    """``line``, ``line.strip()``, ``"x" + line``: the line's own text, not a number made from it."""
    if isinstance(value, cst.Name):
        return value.value in targets
    if isinstance(value, cst.Call) and isinstance(value.func, cst.Attribute):
        return _line_text(value.func.value, targets)
    if isinstance(value, cst.BinaryOperation) and isinstance(value.operator, cst.Add):
        return _line_text(value.left, targets) or _line_text(value.right, targets)
    return isinstance(value, cst.FormattedString)


_KEEPERS = frozenset({"append", "extend", "insert", "add", "update", "setdefault", "appendleft"})


def _reads_whole_file(facts: Facts, call: Call) -> bool:
    if call.method == "readlines":
        return True
    if call.method in ("split", "splitlines") and isinstance(call.receiver, cst.Call):
        inner = call.receiver.func
        return isinstance(inner, cst.Attribute) and inner.attr.value in ("read", "read_text")
    if call.qname == "builtins.list" and len(call.node.args) == 1:
        arg = call.node.args[0].value
        if isinstance(arg, cst.Call) and facts.names.qname(arg.func) == "builtins.open":
            return True
        return facts.kind(arg) == "file"
    return False


@rule(
    "AIP104",
    "whole-file-read",
    "Whole file read into memory, then iterated: stream it line by line instead",
)
def whole_file_read(facts: Facts) -> Iterator[Hit]:
    """
    ## What it does
    Flags `.readlines()` (also `.readlines()[1:]`), `.read().split(...)` and `list(open(...))`
    whose result is looped over once and not needed as a list, by a loop that reduces the lines
    (counts, sums, filters, writes) rather than keeping something of each one. Lists that are
    also indexed, measured or iterated twice, and loops that append or store every line, are not
    flagged: the data is held whole anyway.

    ## Why is this bad?
    The whole file is held in memory twice (the text, then a list of line strings) before the
    first line is processed; iterating the file object reads it in buffered chunks, so memory
    stays flat and processing starts at once. For a 500,000-line file, `readlines()` peaked at
    44.8 MiB of Python memory against 0.02 MiB streamed, and was 1.7x slower (68 ms vs 41 ms,
    `benchmarks/traps/AIP104.py`).

    ## Example
    ```python
    with open("train.jsonl") as fh:
        for line in fh.readlines():
            rows.append(json.loads(line))
    ```

    ## Use instead
    ```python
    with open("train.jsonl") as fh:
        for line in fh:
            rows.append(json.loads(line))
    ```

    ## Fix safety
    Safe for `.readlines()` and `list(open(..))` (the same lines, newline included). For
    `.read().split()` the fix is unsafe: splitting on whitespace is not splitting on lines.

    ## References
    - Seed article, chapter 2.5 ("generators reduce memory and raise pipeline throughput").
    """
    for call in facts.calls:
        if not _reads_whole_file(facts, call):
            continue
        loop = _streamed_loop(facts, call)
        if loop is not None and not _keeps_lines(loop):
            yield call.node


@fixer_for("AIP104", "Iterate the file instead of reading it whole")
def fix_stream(cell: ParsedCell, node: cst.CSTNode, facts: Facts) -> Edits | str:
    call = expect(node, cst.Call, where=_whole_read)
    if not isinstance(call, cst.Call):
        return "no .readlines(), .read().split() or list(open(...)) call on the finding's line"
    parent = cell.parent(call)
    if not (isinstance(parent, (cst.For, cst.CompFor)) and parent.iter is call):
        # lines = fh.readlines(): the list may be used after the file is closed, or indexed, or
        # iterated twice; streaming is only equivalent where the list is iterated once, in place.
        return "the lines are kept in a variable; iterate the file directly where they are used"
    edits = Edits("Iterate the file line by line instead of reading it whole")
    assert isinstance(call.func, (cst.Attribute, cst.Name))
    if call_name(call) == "list":  # list(open(p)) -> open(p)
        edits.replace[call] = call.args[0].value
    elif isinstance(call.func, cst.Attribute) and call.func.attr.value == "readlines":
        edits.replace[call] = call.func.value
    else:  # fh.read().split() -> one word at a time, line by line; only the no-argument split
        inner = call.func.value  # type: ignore[union-attr]
        assert isinstance(inner, cst.Call) and isinstance(inner.func, cst.Attribute)
        if call.args:
            # .split(",") joins the last field of a line with the first of the next one
            return "split with a separator crosses line ends; only .read().split() streams unchanged"
        fh = cell.code(inner.func.value)
        edits.replace[call] = expr(f"(_word for _line in {fh} for _word in _line.split())")
    return edits


def _whole_read(node: cst.CSTNode) -> bool:
    if not isinstance(node, cst.Call):
        return False
    name = call_name(node)
    if name == "list" and len(node.args) == 1 and call_name(node.args[0].value) == "open":
        return True
    func = node.func
    if isinstance(func, cst.Attribute) and func.attr.value == "readlines" and not node.args:
        return True
    return (
        isinstance(func, cst.Attribute)
        and func.attr.value == "split"
        and isinstance(func.value, cst.Call)
        and isinstance(func.value.func, cst.Attribute)
        and func.value.func.attr.value == "read"
        and not func.value.args
    )
