"""Lists flattened with ``sum(lists, [])``, or grown by ``items = items + more`` in a loop (AIP203
from the run): each ``+`` makes a new list and copies every item gathered so far, so flattening n
lists of k items copies about n * n * k / 2 items. A ``sum`` line is one builtin call, so the sampler
may see it only once or twice (the call holds the interpreter while it copies); the live list of
lists says how many additions it made. In a loop, the live list's final length and the loop's
iterations say how much was copied (``+=`` and ``.extend`` grow the list in place and are not this).
"""

from __future__ import annotations

import libcst as cst

from .run import MISSING, Explained, Run
from .shapes import iterations
from .sites import MIN_SHARE, Site, counts

MIN_LISTS = 100  # fewer additions than this copy too little to matter
MIN_COPIES = 5_000_000  # item copies of a list rebuilt in a loop: fewer cost a few milliseconds
REBUILT_ADVICE = ("A list rebuilt with `+` in a loop: every step copies the whole list so far; `.extend(...)` "
                  "(or `+=`) adds to it in place")
MIN_CHARS = 20_000_000  # characters copied by a string grown in a loop: fewer cost a few milliseconds
TEXT_ADVICE = ("Text grown with + in a loop at the cell's top level: CPython grows a string in place only in a "
               "function's local variable, so every step copies the whole text; collect the parts in a list and "
               "join them once (''.join(parts)), or build it inside a function")
BYTES_ADVICE = ("Bytes grown with + in a loop: bytes are never grown in place, so every step copies all the bytes "
                "so far; collect the chunks in a list and join them once (b''.join(chunks)), or write them to an "
                "io.BytesIO or a bytearray")
TEXT_FIX = ("the parts go to a list joined once after the loop, or the loop into a function: written by hand, as the "
            "text may be read inside the loop")
ADVICE = ("A list of lists flattened with sum(..., []): every addition copies the whole list so far; "
          "itertools.chain.from_iterable (or a comprehension over both levels) makes it in one pass")


def list_sum(site: Site, run: Run) -> Explained | None:
    if site.loop is not None or site.code is not run.cell or site.share < MIN_SHARE:
        return None
    for call in site.code.calls_on(site.hottest.line):
        if call.qname != "builtins.sum" or len(call.node.args) != 2:
            continue
        first, start = call.node.args[0].value, call.node.args[1].value
        if not (isinstance(start, cst.List) and not start.elements and isinstance(first, cst.Name)):
            continue
        live = run.live(site, first.value)
        if live is MISSING or not isinstance(live, list) or len(live) < MIN_LISTS:
            continue
        if not all(isinstance(part, list) for part in live):
            continue
        items = sum(len(part) for part in live)
        name = first.value
        evidence = (f"{run.took(site)}: sum({name}, []) added {len(live):,} lists one after another, each "
                    f"addition copying every item so far (about {len(live) * items // 2:,} item copies "
                    f"for {items:,} items)")
        # the fixer writes list(itertools.chain.from_iterable(name)) (structures/growing_arrays.py)
        return Explained("AIP203", site, call.node, evidence, {"lists": len(live), "items": items}, at=call.node,
                         advice=ADVICE)
    return None


def list_rebuilt(site: Site, run: Run) -> Explained | None:
    """``all_preds = all_preds + batch.tolist()`` in a hot loop, over a live list (or tuple) that
    ended with many items."""
    loop = site.loop
    if loop is None or not counts(site) or not isinstance(loop.node, cst.For):
        return None
    hot = {h.line for h in site.lines}
    for node in _rebindings(loop.node):
        span = site.code.span(node)
        name = node.targets[0].target.value  # type: ignore[attr-defined]
        if span is None or span[0] not in hot:
            continue
        live = run.live(site, name)
        n = iterations(site, run)
        if live is MISSING or not isinstance(live, (list, tuple)) or n is None:
            continue
        copies = n * len(live) // 2
        if copies < MIN_COPIES:
            continue
        kind = type(live).__name__
        evidence = (f"{run.took(site)}: {name} = {name} + ... made a new {kind} at each of {n:,} iterations, "
                    f"copying every item so far: it grew to {len(live):,} items (about {copies:,} item copies)")
        reason = (f"{name}.extend(...) grows the list in place; it is not written for you because any other name "
                  f"bound to the same list would then see it grow") if kind == "list" else (
                  "a tuple cannot grow in place: collect the parts in a list and make the tuple once after the loop")
        return Explained("AIP203", site, node, evidence, {"items": len(live), "iterations": n, "copies": copies},
                         at=node, fix_reason=reason, advice=REBUILT_ADVICE)
    return None


def text_grown(site: Site, run: Run) -> Explained | None:
    """``text += part`` (or ``text = text + part``) in a hot loop at the cell's top level, over a live
    string that ended long: CPython grows a string in place only when it is a function's local
    variable, so here every step copies the whole text so far (9,000 reviews joined into 1.8 MB:
    9.6 s at a script's top level, 6 ms in a function)."""
    loop = site.loop
    if loop is None or not counts(site) or not isinstance(loop.node, cst.For) or site.code is not run.cell:
        return None
    if isinstance(loop.scope.node, (cst.FunctionDef, cst.Lambda, cst.ClassDef)):
        return None  # a local: grown in place
    hot = {h.line for h in site.lines}
    counted = iterations(site, run)
    for node, name in _text_growth(loop.node):
        span = site.code.span(node)
        live = run.live(site, name)
        if span is None or span[0] not in hot or not isinstance(live, str | bytes):
            continue
        n, about = counted, ""
        if n is None:  # a stream's chunks (resp.iter_content()): as many as the parts seen make
            n, about = _pieces(site, run, node, len(live)), "about "
        if n is None:
            continue
        copies = n * len(live) // 2
        if copies < MIN_CHARS:
            continue
        unit = "characters" if isinstance(live, str) else "bytes"
        evidence = (f"{run.took(site)}: {name} grew by + at each of {about}{n:,} iterations to {len(live):,} {unit}, "
                    f"each step copying the {'text' if isinstance(live, str) else 'bytes'} so far "
                    f"(about {copies:,} {unit} copied)")
        return Explained("AIP203", site, node, evidence, {"items": len(live), "iterations": n, "copies": copies},
                         at=node, fix_reason=TEXT_FIX,
                         advice=TEXT_ADVICE if isinstance(live, str) else BYTES_ADVICE)
    return None


def _pieces(site: Site, run: Run, node: cst.CSTNode, total: int) -> int | None:
    """How many parts of the size seen (``chunk``: bytes of 8,192, as the sampler read it or as the
    cell left it) make ``total``."""
    part = node.value if isinstance(node, cst.AugAssign) else None
    if not isinstance(part, cst.Name):
        return None
    size = site.size_of(part.value)
    if size is None:
        live = run.live(site, part.value)
        size = len(live) if isinstance(live, str | bytes) else None
    return total // size if size else None


def _text_growth(loop: cst.For) -> list[tuple[cst.CSTNode, str]]:
    """``x += ...`` and ``x = x + ...`` in the loop's body, with the name grown."""
    out: list[tuple[cst.CSTNode, str]] = [(node, node.targets[0].target.value)  # type: ignore[attr-defined]
                                          for node in _rebindings(loop)]
    stack: list[cst.CSTNode] = [loop.body]
    while stack:
        node = stack.pop()
        if isinstance(node, (cst.FunctionDef, cst.Lambda, cst.ClassDef)):
            continue
        if isinstance(node, cst.AugAssign) and isinstance(node.operator, cst.AddAssign) and isinstance(
                node.target, cst.Name):
            out.append((node, node.target.value))
        stack.extend(node.children)
    return out


def _rebindings(loop: cst.For) -> list[cst.Assign]:
    """``x = x + ...`` and ``x = ... + x`` in the loop's body (not in nested functions)."""
    out = []
    for node in name_assigns(loop):
        value, name = node.value, node.targets[0].target.value  # type: ignore[attr-defined]
        if isinstance(value, cst.BinaryOperation) and isinstance(value.operator, cst.Add) and any(
                isinstance(side, cst.Name) and side.value == name for side in (value.left, value.right)):
            out.append(node)
    return out


def name_assigns(loop: cst.For) -> list[cst.Assign]:
    """Assignments of one plain name in the loop's body, nested functions and classes left out."""
    out = []
    stack: list[cst.CSTNode] = [loop.body]
    while stack:
        node = stack.pop()
        if isinstance(node, (cst.FunctionDef, cst.Lambda, cst.ClassDef)):
            continue
        if isinstance(node, cst.Assign) and len(node.targets) == 1 and isinstance(node.targets[0].target, cst.Name):
            out.append(node)
        stack.extend(node.children)
    return out
