"""AIP201 for an ``enumerate`` loop that stores a constant at one position per item, into a tensor or
an array the cell made just before it (a one-hot encoding):

```python
one_hot = torch.zeros(len(labels), 10)
for i, label in enumerate(labels):
    one_hot[i, label] = 1
# becomes
one_hot = torch.zeros(len(labels), 10)
one_hot[torch.arange(len(labels)), torch.as_tensor(labels, dtype=torch.long)] = 1

tensor = torch.zeros(len(line), 1, n_letters)
for li, letter in enumerate(line):
    tensor[li][0][letterToIndex(letter)] = 1
# becomes
tensor = torch.zeros(len(line), 1, n_letters)
tensor[torch.arange(len(line)), 0, torch.tensor([letterToIndex(letter) for letter in line], dtype=torch.long)] = 1
```

One advanced-index store sets the same elements: row ``i`` of each item, at the position its item
gives (computed in the same order, Python calls included; a negative position counts from the end
as it did), the constant cast to the tensor's dtype as each store cast it. The chain ``t[i][0][k]``
indexes views, so it is ``t[i, 0, k]``. Refused unless: the loop is ``for i, x in enumerate(xs)``
over a name or attribute (walked again for its length), its body is that one store of a number,
the first index is ``i``, one other index reads ``x`` (and not ``i``), the rest are integers, the
target is made by ``torch.zeros``/``np.zeros`` (or another factory) just before the loop, and
neither ``i`` nor ``x`` is read after the loop (the rewrite does not bind them). Not "measure
first": the one indexing costs about two of the loop's stores, so it pays from two items on.
"""

from __future__ import annotations

import libcst as cst

from ...cell.parsed import ParsedCell
from ...cell.tree import call_name, names_in
from ...fixes.edits import Edits
from ..facts import Facts
from .tensor_stores import made_tensor

_NUMPY_MAKERS = frozenset({"zeros", "empty", "ones", "full", "zeros_like", "empty_like", "ones_like", "full_like"})


def scatter_store(cell: ParsedCell, loop: cst.For, edits: Edits, facts: Facts) -> Edits | str | None:
    """The rewrite, the reason there is none, or None when the loop is not an ``enumerate`` store."""
    it, target = loop.iter, loop.target
    if not (isinstance(it, cst.Call) and call_name(it) == "enumerate" and isinstance(target, cst.Tuple)
            and len(target.elements) == 2 and all(isinstance(e.value, cst.Name) for e in target.elements)):
        return None
    if len(it.args) != 1 or it.args[0].keyword is not None or it.args[0].star:
        return "enumerate starts elsewhere than 0 or unpacks its arguments"
    i, x = (e.value.value for e in target.elements)  # type: ignore[attr-defined]
    seq = it.args[0].value
    body = loop.body.body if isinstance(loop.body, cst.IndentedBlock) else []
    small = body[0].body[0] if (len(body) == 1 and isinstance(body[0], cst.SimpleStatementLine)
                                and len(body[0].body) == 1) else None
    if loop.orelse or not isinstance(small, cst.Assign) or len(small.targets) != 1:
        return "the loop body is more than one store"
    if not isinstance(seq, (cst.Name, cst.Attribute)):
        return "the items are computed in the loop's header; name them first (they are walked twice)"
    indices = _indices(small.targets[0].target)
    if indices is None:
        return "the loop stores into something other than one tensor or array position per item"
    owner, parts = indices
    number = small.value.expression if isinstance(small.value, cst.UnaryOperation) else small.value
    if not isinstance(number, (cst.Integer, cst.Float)):
        return "the stored value is not a number"
    if not (parts and isinstance(parts[0], cst.Name) and parts[0].value == i):
        return "the first index is not the item's position"
    reads = [k for k, p in enumerate(parts[1:], start=1) if x in names_in(p)]
    others = [p for k, p in enumerate(parts[1:], start=1) if k not in reads]
    if len(reads) != 1 or i in names_in(parts[reads[0]]) or not all(isinstance(p, cst.Integer) for p in others):
        return "the position is not one index computed from the item, the others constants"
    if any({i, x} & names_in(s) for s in cell.following(loop)):
        return f"{i} or {x} is read after the loop, where the rewrite leaves it unbound"
    lib = _maker(cell, loop, owner, facts)
    if lib is None:
        return f"{owner} is not a tensor or an array made just before the loop"
    mod = edits.need(cell, "torch" if lib == "torch" else "numpy")
    items, where = cell.code(seq), parts[reads[0]]
    if lib == "torch":
        exact = isinstance(where, cst.Name) and where.value == x
        index = (f"{mod}.as_tensor({items}, dtype={mod}.long)" if exact
                 else f"{mod}.tensor([{cell.code(where)} for {x} in {items}], dtype={mod}.long)")
    else:
        exact = isinstance(where, cst.Name) and where.value == x
        index = (f"{mod}.asarray({items}, dtype={mod}.intp)" if exact
                 else f"{mod}.array([{cell.code(where)} for {x} in {items}], dtype={mod}.intp)")
    positions = [f"{mod}.arange(len({items}))", *(index if k == reads[0] else cell.code(p)
                                                   for k, p in enumerate(parts[1:], start=1))]
    edits.title = "Store every item's position in one indexing"
    # one indexing costs about what two of the loop's stores did (20 us for a 2-letter name, 26 us against
    # 75 us for 7 letters, 28 us against 132 us for 13): it pays at any size a loop is worth flagging at
    edits.measure_first = None
    edits.replace[loop] = cst.parse_statement(f"{owner}[{', '.join(positions)}] = {cell.code(small.value)}\n")
    return edits


def _indices(node: cst.BaseExpression) -> tuple[str, list[cst.BaseExpression]] | None:
    """``t[i][0][k]`` or ``t[i, 0, k]`` -> ("t", [i, 0, k])."""
    parts: list[cst.BaseExpression] = []
    while isinstance(node, cst.Subscript):
        here = []
        for element in node.slice:
            if not isinstance(element.slice, cst.Index) or element.slice.star is not None:
                return None
            here.append(element.slice.value)
        parts = here + parts
        node = node.value
    return (node.value, parts) if isinstance(node, cst.Name) and parts else None


def _maker(cell: ParsedCell, loop: cst.For, owner: str, facts: Facts) -> str | None:
    """"torch" or "numpy" when ``owner`` was made by that library's factory just before the loop."""
    if made_tensor(cell, loop, owner, facts):
        return "torch"
    before = cell.preceding(loop)
    last = before[-1] if before else None
    small = last.body[0] if isinstance(last, cst.SimpleStatementLine) and len(last.body) == 1 else None
    if isinstance(small, cst.Assign) and len(small.targets) == 1 and isinstance(small.targets[0].target, cst.Name) \
            and small.targets[0].target.value == owner and isinstance(small.value, cst.Call):
        qname = facts.names.qname(small.value.func) or ""
        if qname.startswith("numpy.") and qname.rsplit(".", 1)[1] in _NUMPY_MAKERS:
            return "numpy"
    return None
