"""AIP201 for a lookup table read per element: ``np.array([lut[p] for p in img.flatten()])`` is
``np.array(lut[img.flatten()])``.

Indexing a 1-D NumPy array with an integer array gives, at each position, what indexing it with
that element gave: the same item, of the table's dtype, a negative index counting from the end as
it did, an index out of range raising ``IndexError`` as the loop's first bad item did. Handed to a
NumPy function (``np.array``, ``np.asarray``), the array of those items is what the list of them
made (the list held NumPy scalars of the table's dtype).

What the analysis checks: the comprehension is ``[t[x] for x in xs]`` (no filter, one ``for``, a
plain name) and the argument of a NumPy function; the run shows ``t`` as a 1-D NumPy array and
``xs`` as an integer NumPy array (a name, or ``a.flatten()``, ``a.ravel()``, ``a.reshape(-1)`` of
one); the comprehension is at the cell's top level, outside any loop, and neither ``t`` nor the
array is bound in the cell more than once or after it (the live objects are then the ones it read).
"""

from __future__ import annotations

from typing import Any

import libcst as cst

from ...cell.parsed import ParsedCell
from ...cell.tree import names_in
from ..facts import Facts
from ..result_types import is_a, live_value

_FLAT = frozenset({"flatten", "ravel"})


def table_lookup(cell: ParsedCell, comp: cst.ListComp, facts: Facts) -> str | None:
    """``lut[xs]`` for ``[lut[x] for x in xs]``, or None when the comprehension is not that lookup."""
    target, it, elt = comp.for_in.target, comp.for_in.iter, comp.elt
    if not (isinstance(target, cst.Name) and isinstance(elt, cst.Subscript) and isinstance(elt.value, cst.Name)
            and len(elt.slice) == 1 and isinstance(elt.slice[0].slice, cst.Index)
            and isinstance(elt.slice[0].slice.value, cst.Name) and elt.slice[0].slice.value.value == target.value):
        return None
    table, source = elt.value.value, _array_name(it)
    if source is None or target.value in (table, source) or not _outside_loops(cell, comp):
        return None
    line = _line(cell, comp)
    if any(not _read_as_live(cell, name, line) for name in (table, source)):
        return None
    lut, arr = live_value(facts, cst.Name(table)), live_value(facts, cst.Name(source))
    if not (is_a(lut, "numpy.ndarray") and is_a(arr, "numpy.ndarray")):
        return None
    if lut.ndim != 1 or arr.dtype.kind not in "iu" or (arr.ndim != 1 and not _flattened(it)):
        return None
    return f"{table}[{cell.code(it)}]"


def _array_name(it: cst.BaseExpression) -> str | None:
    """``a`` of ``a``, ``a.flatten()``, ``a.ravel()`` or ``a.reshape(-1)``."""
    if isinstance(it, cst.Name):
        return it.value
    if _flattened(it):
        return it.func.value.value  # type: ignore[attr-defined,no-any-return]
    return None


def _flattened(it: cst.BaseExpression) -> bool:
    if not (isinstance(it, cst.Call) and isinstance(it.func, cst.Attribute) and isinstance(it.func.value, cst.Name)):
        return False
    method, args = it.func.attr.value, [cst.Module(body=[]).code_for_node(a.value) for a in it.args]
    return (method in _FLAT and not args) or (method == "reshape" and args == ["-1"])


def _outside_loops(cell: ParsedCell, node: cst.CSTNode) -> bool:
    at: Any = cell.parents.get(node)
    while at is not None:
        if isinstance(at, (cst.For, cst.While, cst.FunctionDef, cst.Lambda, cst.ClassDef)):
            return False
        at = cell.parents.get(at)
    return True


def _line(cell: ParsedCell, node: cst.CSTNode) -> int:
    at = cell.user_range(node)
    return at[0] if at is not None else 0


def _read_as_live(cell: ParsedCell, name: str, line: int) -> bool:
    """``name`` is bound in the cell at most once, before ``line``: what the run left is what was read."""
    kinds = (cst.AssignTarget, cst.AugAssign, cst.AnnAssign, cst.For, cst.CompFor, cst.NamedExpr, cst.With,
             cst.Import, cst.ImportFrom, cst.FunctionDef, cst.ClassDef)
    binds = [n for n in cell.nodes(kinds) if name in _bound(n)]
    return len(binds) == 0 or (len(binds) == 1 and 0 < _line(cell, binds[0]) < line)


def _bound(node: cst.CSTNode) -> set[str]:
    if isinstance(node, (cst.FunctionDef, cst.ClassDef)):
        return {node.name.value}
    if isinstance(node, (cst.Import, cst.ImportFrom)):
        return names_in(node)
    if isinstance(node, cst.With):
        return {n for item in node.items if item.asname is not None for n in names_in(item.asname.name)}
    target = getattr(node, "target", None)
    return names_in(target) if target is not None else set()
