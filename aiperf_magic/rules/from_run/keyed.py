"""``min``/``max``/``sorted`` with a Python key, inside a loop: a Python call for every item at every step
(AIP201).

``min(unvisited, key=lambda c: distance(c, tour[-1]))`` in a loop looks like one call per step, but the
key runs once for each item of the collection, in the interpreter, at every step: a nearest-neighbour
tour over 2,500 points makes three million calls. The run decides: the line took most of the cell, the
collection held many items when the sampler read it (its size on the line, the set or list the key
walks), and the items were numbers or held numbers (points, pairs of coordinates), so the keys of all
items are one array operation: the distances to the last point at once, then ``argmin``, the items
used so far dropped with a boolean mask. A list scanned by ``min`` with a key that looks values up
(Dijkstra's ``dist[n]``) is AIP202's (a heap), which is asked first.
"""

from __future__ import annotations

import libcst as cst

from .interpreted import _BY_HAND, number_like
from .run import MISSING, Explained, Run
from .shapes import _line_share, iterations
from .sites import Site, counts

KEYED = ("builtins.min", "builtins.max", "builtins.sorted")
MIN_ITEMS = 100  # fewer items than this make a few hundred calls a step
MIN_CALLS = 100_000  # items x steps, when the run counted the steps
LINE_SHARE = 0.5  # the keyed call's line took this share of the loop's time
ADVICE = ("A key computed by a Python call for every item, at every step of the loop: keep the items in one "
          "NumPy array and compute every key at once (the distances to the last point in one operation, "
          "then argmin), marking the items already used with a boolean mask; or compile the loop (Numba)")


def keyed_scans(site: Site, run: Run) -> Explained | None:
    loop = site.loop
    if loop is None or not counts(site):
        return None
    for c in loop.calls:
        if c.loop is not loop or c.qname not in KEYED or not c.node.args or c.node.args[0].keyword is not None:
            continue
        key = next((a.value for a in c.node.args if a.keyword is not None and a.keyword.value == "key"), None)
        items = c.node.args[0].value
        if key is None or not isinstance(items, cst.Name) or not _python_key(site, run, key):
            continue
        held = _collection(site, run, items.value)
        if held is None or held[0] < MIN_ITEMS or _line_share(site, c.node) < LINE_SHARE:
            continue
        n, text = held
        steps = iterations(site, run)
        if steps is not None and steps * n < MIN_CALLS:
            continue
        name = (c.qname or "").split(".")[-1]
        calls = (f", {steps:,} steps (up to {steps * n:,} calls)" if steps is not None
                 else ", at every step of a loop the run could not count")
        evidence = (f"{run.took(site)}: {name}() calls its key, {_key_text(key)}, once for each item of "
                    f"{items.value} ({text}){calls}")
        return Explained("AIP201", site, loop.node, evidence, {"items": n, "iterations": steps}, at=c.node,
                         advice=ADVICE, fix_reason=_BY_HAND, fallback=True)
    return None


def _python_key(site: Site, run: Run, key: cst.BaseExpression) -> bool:
    """A lambda, or a function of the user's: a key in C (``len``, ``itemgetter``) is not a Python call."""
    if isinstance(key, cst.Lambda):
        return True
    if isinstance(key, cst.Name):
        live = run.live(site, key.value)
        return live is not MISSING and callable(live) and hasattr(live, "__code__")
    return False


def _key_text(key: cst.BaseExpression) -> str:
    if isinstance(key, cst.Lambda):
        inner = key.body
        if isinstance(inner, cst.Call) and isinstance(inner.func, cst.Name):
            return f"{inner.func.value}() through a lambda"
        return "a lambda"
    return f"{key.value}()" if isinstance(key, cst.Name) else "a function"


def _collection(site: Site, run: Run, name: str) -> tuple[int, str] | None:
    """How many items the key walks, and what they were: the largest size the sampler read on the
    loop's lines (the collection shrinks as items are used), else the live value."""
    sampled, text = site.size_of(name), site.described(name)
    live = run.live(site, name)
    if sampled is not None and text is not None:
        text = f"{text} when sampled"
    elif live is not MISSING and isinstance(live, list | set | tuple | dict | frozenset):
        sampled, text = len(live), f"{type(live).__name__} of {len(live):,} items"
    if sampled is None or text is None or not any(w in text for w in ("list", "set", "tuple", "dict", "ndarray")):
        return None
    if live is not MISSING and isinstance(live, list | set | tuple | frozenset) and live:
        if number_like(next(iter(live))) is False:
            return None  # text, frames: the keys are no array operation
    elif not any(w in text for w in (" int", " float", " complex", " tuple", " list", "ndarray")):
        return None
    return sampled, text
