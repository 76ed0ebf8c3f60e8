"""List operations that cost the length of the list, where the run saw them on a hot line with no
``for`` loop of their own to count (AIP202):

- **a scan per element of an apply**: ``s.apply(lambda z: codes.index(z))`` or ``lambda w: w in
  stop`` is a loop over the column that pandas runs: each call scans the list, once per row;
- **the front of a list taken or filled**: ``tokens.pop(0)`` and ``queue.insert(0, x)`` move every
  item after the first by one place, so a parser eating its tokens from the front (or a queue kept
  in a list) does work that grows with the square of their number; ``collections.deque`` pops and
  pushes at both ends in one step.
"""

from __future__ import annotations

import libcst as cst

from ...cell.tree import walk_all
from .run import Explained, Run
from .shapes import ALONE_SHARE, MIN_COMPARISONS, MIN_LIST, SCAN_ADVICE, SCANS, _list_of, receiver_rows
from .sites import APPLIERS, Site, counts

MIN_FRONT = 1_000  # a list shorter than this moves its items in well under a microsecond
FRONT_ADVICE = ("Taking items from the front of a list (pop(0)) or putting them there (insert(0, x)) moves every "
                "item after it; collections.deque pops and appends at both ends in one step (popleft(), "
                "appendleft()), or walk the list with an index instead of emptying it")
INDEX_ADVICE = ("Each list.index call scans the list for the item's position: a dict {item: position} built once "
                "answers in one step (for a column, pd.factorize or s.map(positions))")
MEMBERSHIP_ADVICE = ("Each membership test scans the list: a set built once answers each test by one hash "
                     "(s.isin(values) for a whole column)")


def applied_scans(site: Site, run: Run) -> Explained | None:
    """A function given to ``apply``/``map`` that scans a live list for each element."""
    if site.loop is not None or not counts(site):
        return None
    line = site.hottest.line
    for call in site.code.calls_on(line) + site.code.calls_around(line):
        if call.method not in APPLIERS or call.receiver is None or not call.node.args:
            continue
        func = call.node.args[0].value
        if not isinstance(func, cst.Lambda):
            continue
        root, rows = receiver_rows(site, run, call.receiver)
        for node, name, op in _scans(func.body):
            held = _list_of(site, run, name)
            if held is None or rows is None:
                continue
            n, text = held
            if n < MIN_LIST or rows * n < MIN_COMPARISONS:
                continue
            word = "`in`" if op == "in" else f"`{op}()`"
            evidence = (f"{run.took(site)}: each {word} test scans {name}, {text}, item by item, once for each of "
                        f"{rows:,} rows of {root} (up to {rows * n:,} comparisons)")
            return Explained("AIP202", site, node, evidence, {"items": n, "lookups": rows}, at=node,
                             advice=INDEX_ADVICE if op == ".index" else SCAN_ADVICE.get(op) or MEMBERSHIP_ADVICE)
    return None


def front_pops(site: Site, run: Run) -> Explained | None:
    """``L.pop(0)`` or ``L.insert(0, x)`` on a hot line, on a list the run saw long."""
    if not counts(site):
        return None
    hot = {h.line for h in site.lines}
    for call in site.code.calls_on(site.first, site.last):
        if call.receiver is None or not isinstance(call.receiver, cst.Name) or not _at_front(call.node, call.method):
            continue
        span = site.code.span(call.node)
        if span is None or span[0] not in hot:
            continue
        if site.share < ALONE_SHARE and site.loop is None:
            continue
        name = call.receiver.value
        held = _list_of(site, run, name)
        if held is None or held[0] < MIN_FRONT:
            continue
        n, text = held
        evidence = (f"{run.took(site)}: each `.{call.method}({'0' if call.method == 'pop' else '0, ...'})` "
                    f"moves every other item of {name} ({text}) by one place")
        return Explained("AIP202", site, call.node, evidence, {"items": n}, at=call.node, advice=FRONT_ADVICE)
    return None


def _at_front(node: cst.Call, method: str | None) -> bool:
    if method not in ("pop", "insert") or not node.args or node.args[0].keyword is not None:
        return False
    first = node.args[0].value
    return isinstance(first, cst.Integer) and first.value == "0" and len(node.args) == (1 if method == "pop" else 2)


def _scans(body: cst.BaseExpression) -> list[tuple[cst.CSTNode, str, str]]:
    """``x in L`` and ``L.index(x)`` (``count``, ``remove``) in a lambda's body, with the list's name."""
    out: list[tuple[cst.CSTNode, str, str]] = []
    for sub in walk_all(body):
        if isinstance(sub, cst.Comparison):
            for target in sub.comparisons:
                if isinstance(target.operator, (cst.In, cst.NotIn)) and isinstance(target.comparator, cst.Name):
                    out.append((sub, target.comparator.value, "in"))
        elif (isinstance(sub, cst.Call) and isinstance(sub.func, cst.Attribute) and isinstance(sub.func.value, cst.Name)
              and sub.func.attr.value in SCANS and len(sub.args) == 1):
            out.append((sub, sub.func.value.value, f".{sub.func.attr.value}"))
    return out
