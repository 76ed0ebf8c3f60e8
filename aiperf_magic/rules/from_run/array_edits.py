"""An array edited by copying it at every step of a loop (AIP203 from the run).

``window = np.insert(window, pos, x)`` (or ``np.delete``) keeps an array in order, but NumPy arrays do
not grow or shrink in place: each call makes a new array and copies every element so far, so a loop
of n steps over an array that ends with m elements copies about n * m / 2 of them, as ``np.append``
does. The run says how much: the live array's final size and the loop's iterations. The fix depends
on what the order is for (a sorted window kept with ``bisect.insort`` in a list, a running median
with two heaps, positions and values collected and the array built once), so it is not written.
"""

from __future__ import annotations

import libcst as cst

from ...sizing import kind
from .flatten import MIN_COPIES, name_assigns
from .run import MISSING, Explained, Run
from .shapes import iterations
from .sites import Site, counts

EDITS = ("numpy.insert", "numpy.delete")
ADVICE = ("An array edited with np.insert or np.delete in a loop: each call makes a new array and copies every "
          "element so far. Keep a Python list while it changes (bisect.insort keeps it sorted; two heaps give a "
          "running median at each step), or collect what changes and build the array once after the loop")
FIX_REASON = ("not written for you: what replaces the copies depends on what the order is for (a sorted list, "
              "heaps, one array built at the end)")


def array_edited(site: Site, run: Run) -> Explained | None:
    loop = site.loop
    if loop is None or not counts(site) or not isinstance(loop.node, cst.For):
        return None
    hot = {h.line for h in site.lines}
    for node in _edits(site, loop.node):
        span = site.code.span(node)
        name = node.targets[0].target.value  # type: ignore[attr-defined]
        live = run.live(site, name)
        n = iterations(site, run)
        if span is None or span[0] not in hot or live is MISSING or kind(live) != "array" or n is None:
            continue
        size = int(getattr(live, "size", 0))
        copies = n * size // 2
        if copies < MIN_COPIES:
            continue
        func = site.code.facts.names.qname(node.value.func).split(".")[-1]  # type: ignore[attr-defined, union-attr]
        evidence = (f"{run.took(site)}: {name} = np.{func}({name}, ...) made a new array at each of {n:,} "
                    f"iterations, copying every element so far: it ended with {size:,} elements (about "
                    f"{copies:,} element copies)")
        return Explained("AIP203", site, node, evidence, {"elements": size, "iterations": n, "copies": copies},
                         at=node, fix_reason=FIX_REASON, advice=ADVICE)
    return None


def _edits(site: Site, loop: cst.For) -> list[cst.Assign]:
    """``x = np.insert(x, ...)`` and ``x = np.delete(x, ...)`` in the loop's body (not in nested functions)."""
    out = []
    for node in name_assigns(loop):
        call = node.value
        if isinstance(call, cst.Call) and call.args and site.code.facts.names.qname(call.func) in EDITS:
            first = call.args[0].value
            if isinstance(first, cst.Name) and first.value == node.targets[0].target.value:  # type: ignore[attr-defined]
                out.append(node)
    return out
