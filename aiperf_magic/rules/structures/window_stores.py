"""AIP201 for a loop that stores a reduction of a sliding window (a moving average):

```python
ma = np.full(len(prices), np.nan)
for i in range(window, len(prices)):
    ma[i] = prices[i - window:i].mean()
# becomes
ma = np.full(len(prices), np.nan)
ma[window:len(prices)] = np.lib.stride_tricks.sliding_window_view(prices, window)[:len(prices) - window].mean(axis=1)
```

Row ``k`` of the window view is ``prices[k:k + window]``, the window that ended just before
``k + window``: its first ``len(prices) - window`` rows are the windows the loop reduced, in order,
and each row's reduction is the one the slice's was (the same elements, contiguous). The other form,
``for i in range(window - 1, len(a)): out[i] = a[i - window + 1:i + 1].mean()``, is the same with
the windows ending at ``i``. Reductions: ``mean``, ``sum``, ``min``, ``max``, ``std``, ``var`` with
no arguments. Refused unless the run shows ``a`` as a one-dimensional NumPy array at least one
window long and the window as an int, and ``out`` is an array made before the loop.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import libcst as cst

from ...cell.parsed import ParsedCell
from ...fixes.edits import Edits
from ..facts import Facts

REDUCTIONS = frozenset({"mean", "sum", "min", "max", "std", "var"})


def window_store(cell: ParsedCell, loop: cst.For, owner: str, value: cst.BaseExpression, var: str, edits: Edits,
                 facts: Facts, live: Callable[[str], Any]) -> Edits | str | None:
    """The rewrite, why there is none, or None when the stored value is not a window's reduction."""
    if not (isinstance(value, cst.Call) and not value.args and isinstance(value.func, cst.Attribute)
            and value.func.attr.value in REDUCTIONS and isinstance(value.func.value, cst.Subscript)):
        return None
    window = value.func.value
    if not (isinstance(window.value, cst.Name) and len(window.slice) == 1
            and isinstance(window.slice[0].slice, cst.Slice) and window.slice[0].slice.step is None):
        return None
    a, part = window.value.value, window.slice[0].slice
    it = loop.iter
    if not (isinstance(it, cst.Call) and cell.code(it.func) == "range" and len(it.args) == 2):
        return "the window loop is not range(start, len(a))"
    start, stop = (cell.code(x.value) for x in it.args)
    lower, upper = (cell.code(x) if x is not None else "" for x in (part.lower, part.upper))
    if stop != f"len({a})":
        return "the window loop is not range(start, len(a))"
    w = _window(start, lower, upper, var)
    if w is None:
        return "the slice is not the window of the loop's index (a[i - w:i] or a[i - w + 1:i + 1])"
    arr, size = live(a), live(w) if w.isidentifier() else int(w)
    if type(arr).__module__.split(".")[0] != "numpy" or getattr(arr, "ndim", None) != 1:
        return f"the run does not show {a} as a one-dimensional NumPy array"
    if not isinstance(size, int) or isinstance(size, bool) or not 1 <= size <= len(arr):
        return f"the run does not show the window as an int from 1 to len({a})"
    np_name = edits.need(cell, "numpy")
    # windows ending before i (the loop from w): all rows but the last; ending at i (from w - 1): all
    rows = f"{np_name}.lib.stride_tricks.sliding_window_view({a}, {w})" + (
        f"[:len({a}) - {w}]" if start == w else "")
    edits.title, edits.measure_first = "Reduce every window at once", None
    edits.replace[loop] = cst.parse_statement(
        f"{owner}[{start}:len({a})] = {rows}.{value.func.attr.value}(axis=1)\n")
    return edits


def _window(start: str, lower: str, upper: str, var: str) -> str | None:
    """The window's length when the slice is the ``w`` items before ``i`` with the loop from ``w``, or
    the ``w`` items ending at ``i`` with the loop from ``w - 1``."""
    if upper == var and lower.startswith(f"{var} - ") and lower[len(var) + 3:] == start:
        return start
    if upper == f"{var} + 1" and lower.startswith(f"{var} - ") and lower.endswith(" + 1") and start.endswith(" - 1"):
        w = lower[len(var) + 3:-4]
        return w if start == f"{w} - 1" else None
    return None
