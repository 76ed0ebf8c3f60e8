"""Runtime evidence for a finding of ``%%aiperf``: the cell ran, so each trap can say what made it
matter, or that it did not.

Two measurements are at hand after the run: the sampled time of each line of the cell (the hot
lines), and the live objects the flagged code touched (rows of a frame, items of a list,
elements of an array or tensor). A trap whose lines took a negligible share of the run, on data
too small to make it matter, is kept in ``report.findings`` but not shown (``shown=False``, with
the reason); a preview rule's finding is shown only when the run gives it such evidence.
"""

from __future__ import annotations

import operator
from collections.abc import Mapping, Sequence
from typing import Any

import libcst as cst

from ..cell.tree import walk_all
from ..report import Finding, Hotspot
from ..sizing import kind as kind_of
from ..sizing import measure  # shared with the sampler, which must not load the rules

MIN_SHARE = 0.05  # of the run's sampled time: below it, the lines cost nothing worth a card
MIN_SECONDS = 0.01  # whatever their share, lines that took a few milliseconds on small data cost nothing
LARGE = {"rows": 10_000, "items": 10_000, "elements": 1_000_000}  # data sizes at which a trap bites
# Codes whose harm is not the time their lines take (a deprecation warns every time the code runs):
# the run cannot weigh them by time; they are shown when the cell ran them.
NOT_TIME = frozenset({"AIP503"})
_LOOPS = (cst.For, cst.ListComp, cst.SetComp, cst.DictComp, cst.GeneratorExp)
_WRAPPERS = ("enumerate", "zip", "tqdm", "list", "sorted", "reversed")
_ROW_ITERATORS = ("iterrows", "itertuples")


def line_time(hotspots: Sequence[Hotspot], first: int | None, last: int | None) -> tuple[float, float]:
    """Share of the run and seconds spent on the lines ``first``..``last``."""
    if first is None:
        return 0.0, 0.0
    end = last if last is not None else first
    share = sum(h.share for h in hotspots if first <= h.line <= end)
    seconds = sum(h.seconds for h in hotspots if first <= h.line <= end)
    return min(share, 1.0), seconds


def sizes(node: cst.CSTNode | None, namespace: Mapping[str, Any] | None) -> dict[str, int]:
    """The largest sizes of the live objects named in the flagged code."""
    out: dict[str, int] = {}
    if node is None or not namespace:
        return out
    seen: set[str] = set()
    for sub in walk_all(node):
        if isinstance(sub, cst.Name) and sub.value not in seen:
            seen.add(sub.value)
            if sub.value in namespace:
                kind, size = measure(namespace[sub.value])
                if kind is not None and size > out.get(kind, -1):
                    out[kind] = size
    return out


def weigh(
    finding: Finding,
    node: cst.CSTNode | None,
    hotspots: Sequence[Hotspot],
    namespace: Mapping[str, Any] | None,
    *,
    sampled: bool,
    wall_s: float,
) -> None:
    """Attach the evidence to ``finding`` and decide whether it is shown."""
    share, seconds = line_time(hotspots, finding.line, finding.end_line)
    found = sizes(node, namespace)
    finding.evidence = {"share": round(share, 4), "seconds": round(seconds, 6), **found}
    large = [f"{n:,} {kind}" for kind, n in found.items() if n >= LARGE[kind]]
    if isinstance(node, _LOOPS):
        # what a loop costs grows with the items it walks, not with the size of each: 200 rows of a
        # 1,000,000-element array are 200 iterations
        walked = loop_iterations(node, namespace)
        if walked is not None:
            finding.evidence["iterations"] = walked
            large = [f"{walked:,} iterations"] if walked >= LARGE["items"] else []
    if finding.code in NOT_TIME and sampled:
        return  # the cell ran it: a deprecation warns whatever its lines cost
    if not sampled:
        if finding.preview and not large:
            finding.shown = False
            finding.hidden_reason = "preview rule, and no line timing in this run to show that it matters"
        return
    if (share >= MIN_SHARE and seconds >= MIN_SECONDS) or large:
        return
    data = ", ".join(f"{n:,} {kind}" for kind, n in found.items()) or "small data"
    what = "preview rule: shown only when the run shows it matters; " if finding.preview else ""
    finding.shown = False
    finding.hidden_reason = (
        f"{what}its lines took {share:.0%} of the {wall_s:.3g} s run ({data}): negligible here"
    )


def loop_iterations(node: cst.CSTNode, namespace: Mapping[str, Any] | None) -> int | None:
    """How many items a loop walks, from the live object it iterates (the first axis of an array or
    tensor, the rows of ``df.iterrows()``, a ``range`` of live bounds); None when not known."""
    it: cst.BaseExpression | None = None
    if isinstance(node, cst.For):
        it = node.iter
    elif isinstance(node, (cst.ListComp, cst.SetComp, cst.DictComp, cst.GeneratorExp)):
        it = node.for_in.iter
    while isinstance(it, cst.Call) and isinstance(it.func, cst.Name) and it.func.value in _WRAPPERS and it.args:
        it = it.args[0].value
    if not namespace or it is None:
        return None
    if isinstance(it, cst.Call) and isinstance(it.func, cst.Attribute) and it.func.attr.value in _ROW_ITERATORS:
        it = it.func.value
    if isinstance(it, cst.Name) and it.value in namespace:
        return _length(namespace[it.value])
    if (isinstance(it, cst.BinaryOperation) and isinstance(it.operator, cst.Multiply)
            and isinstance(it.left, cst.Name) and isinstance(namespace.get(it.left.value), (list, tuple))
            and isinstance(it.right, cst.Integer)):
        return len(namespace[it.left.value]) * int(it.right.evaluated_value)  # names * 3: a list repeated
    if (isinstance(it, cst.Call) and isinstance(it.func, cst.Attribute) and it.func.attr.value in ("flatten", "ravel")
            and not it.args and isinstance(it.func.value, cst.Name)):
        flat = namespace.get(it.func.value.value)
        kind_, size = measure(flat)
        return size if kind_ == "elements" else None  # img.flatten(): every element of the array
    column = _column_of(it)
    if column is not None and column in namespace and kind_of(namespace[column]) == "frame":
        return _length(namespace[column])  # df["col"]: a column has the frame's rows
    if (isinstance(it, cst.Attribute) and it.attr.value in ("columns", "index") and isinstance(it.value, cst.Name)
            and kind_of(namespace.get(it.value.value)) in ("frame", "series")):
        labels = getattr(namespace[it.value.value], it.attr.value, None)
        return len(labels) if labels is not None else None  # df.columns, df.index: its labels
    if isinstance(it, cst.Call) and isinstance(it.func, cst.Name) and it.func.value == "range":
        bounds = [live_int(a.value, namespace) for a in it.args if a.keyword is None]
        if bounds and all(b is not None for b in bounds) and len(bounds) <= 3:
            try:
                return len(range(*bounds))  # type: ignore[arg-type]
            except ValueError:
                return None
    return None


def _column_of(it: cst.BaseExpression | None) -> str | None:
    """``df`` of ``df["col"]`` (a column by its literal name), else None (``df.columns`` is no column)."""
    if (isinstance(it, cst.Subscript) and len(it.slice) == 1 and isinstance(it.slice[0].slice, cst.Index)
            and isinstance(it.slice[0].slice.value, cst.SimpleString) and isinstance(it.value, cst.Name)):
        return it.value.value
    return None


def _length(obj: Any) -> int | None:
    """``len(obj)`` for data whose length is its size (a container, a frame's rows, the first axis of
    an array or tensor, a dataset); None for anything else, whose ``len`` could run the user's code."""
    kind, _ = measure(obj)
    if kind is None:
        return None
    try:
        return len(obj)
    except TypeError:  # a 0-d array or tensor
        return None


_INT_OPERATORS: dict[type, Any] = {cst.Add: operator.add, cst.Subtract: operator.sub, cst.Multiply: operator.mul,
                  cst.FloorDivide: operator.floordiv}


def live_int(node: cst.BaseExpression, namespace: Mapping[str, Any]) -> int | None:
    """An integer the code spells or names: ``1000``, ``n`` (live), ``len(xs)`` (the live length), and
    sums, differences and products of those (``n + 1``, ``len(xs) - 1``: a range's usual bounds)."""
    if isinstance(node, cst.Integer):
        return int(node.evaluated_value)
    if isinstance(node, cst.BinaryOperation) and type(node.operator) in _INT_OPERATORS:
        left, right = live_int(node.left, namespace), live_int(node.right, namespace)
        if left is None or right is None or (right == 0 and isinstance(node.operator, cst.FloorDivide)):
            return None
        return _INT_OPERATORS[type(node.operator)](left, right)
    value = namespace.get(node.value) if isinstance(node, cst.Name) else None
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(node, cst.Call) and isinstance(node.func, cst.Name) and node.func.value == "len" and node.args:
        inner = node.args[0].value
        if isinstance(inner, cst.Name) and inner.value in namespace:
            value = namespace[inner.value]
            return len(value) if isinstance(value, str | bytes) else _length(value)
    return None
