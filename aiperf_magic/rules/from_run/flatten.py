"""Lists flattened with ``sum(lists, [])`` (AIP203 from the run): each ``+`` makes a new list and
copies every item gathered so far, so flattening n lists of k items copies about n * n * k / 2 items.
The line is one builtin call, so the sampler may see it only once or twice (the call holds the
interpreter while it copies); the live list of lists says how many additions it made.
"""

from __future__ import annotations

import libcst as cst

from .run import MISSING, Explained, Run
from .sites import MIN_SHARE, Site

MIN_LISTS = 100  # fewer additions than this copy too little to matter
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
