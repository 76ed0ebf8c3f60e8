"""Sites: the places of the code where the run spent its time, each a loop (or a line outside any
loop) with the hot lines that belong to it and what the sampler saw on them.

A site lives in a :class:`Code`: the measured cell, or the source of an earlier cell or user module
whose functions the cell called (``Report.function_lines`` point there, in that code's own line
numbers). Each hot line goes to the innermost loop of that code that holds it; lines outside any loop
are sites of their own. Only sites that took a real share of the cell are asked why (:mod:`.shapes`).
"""

from __future__ import annotations

import linecache
from collections import Counter, OrderedDict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

import libcst as cst

from ...cell.parsed import ParsedCell
from ...report import Hotspot
from ..facts import Call, Facts, Loop

MIN_SHARE = 0.2  # a site under this share of the cell is not where the cell spends its time
MIN_SAMPLES = 2  # one sample is a moment, not a place ...
MOST_SHARE = 0.5  # ... unless the site took most of a short cell (one tick of 20 ms in a 40 ms cell)
MIN_SECONDS = 0.02  # a site that took less is not where a cell's time can be won back


@dataclass
class Code:
    """Parsed code the run's lines point into, with its loops by line."""

    cell: ParsedCell
    facts: Facts
    where: str | None = None  # None: the measured cell; else "cell [3]" or a module's name
    spans: list[tuple[int, int, Loop]] = field(default_factory=list)

    def __post_init__(self) -> None:
        for loop in self.facts.loops:
            rng = self.cell.user_range(loop.node)
            if rng is not None:
                self.spans.append((rng[0], rng[2], loop))
        self.spans.sort(key=lambda s: (s[0], -s[1]))

    def loops_at(self, line: int) -> list[Loop]:
        """The loops holding ``line``, innermost first."""
        held = [(first, last, loop) for first, last, loop in self.spans if first <= line <= last]
        return [loop for _, _, loop in sorted(held, key=lambda s: (-s[0], s[1] - s[0]))]

    def span(self, node: cst.CSTNode) -> tuple[int, int] | None:
        rng = self.cell.user_range(node)
        return (rng[0], rng[2]) if rng is not None else None

    def calls_around(self, line: int) -> list[Call]:
        """Calls written over several lines that hold ``line`` (an ``apply(`` whose lambda is on the
        next line), innermost first."""
        held = []
        for call in self.facts.calls:
            rng = self.cell.user_range(call.node)
            if rng is not None and rng[0] < line <= rng[2]:
                held.append((rng[0], call))
        return [call for _, call in sorted(held, key=lambda item: -item[0])]

    def calls_on(self, first: int, last: int | None = None) -> list[Call]:
        """Calls that start on the lines ``first``..``last``."""
        end = first if last is None else last
        out = []
        for call in self.facts.calls:
            rng = self.cell.user_range(call.node)
            if rng is not None and first <= rng[0] <= end:
                out.append(call)
        return out


# Earlier cells do not change: their parse is kept for the next measured cells that call into them
# (parsing costs milliseconds a file), the most recent few.
_PARSED: OrderedDict[tuple[str, str], Code | None] = OrderedDict()
MAX_PARSED = 16


def code_of_file(file: str, namespace: Mapping[str, Any] | None, where: str | None) -> Code | None:
    """The parse of an earlier cell's or a user module's source, as Python compiled it."""
    from ..engine import prepare_cell  # the same parse and facts as the cell's own

    lines = linecache.getlines(file)
    if not lines:
        return None
    text = "".join(lines)
    key = (file, text)
    if key in _PARSED:
        _PARSED.move_to_end(key)
        return _PARSED[key]
    prepared = prepare_cell(text, namespace=namespace)
    code = None
    if prepared.cell is not None and prepared.facts is not None:
        code = Code(prepared.cell, prepared.facts, where=where or file)
    _PARSED[key] = code
    while len(_PARSED) > MAX_PARSED:
        _PARSED.popitem(last=False)
    return code


@dataclass
class Site:
    """One loop (or one line outside loops) and the hot lines the run saw in it."""

    code: Code
    lines: list[Hotspot]  # hottest first (an applied site: the calling line first, see applied_sites)
    loop: Loop | None
    first: int
    last: int
    applied: str | None = None  # the function of the same code that the first line hands to pandas

    @property
    def hottest(self) -> Hotspot:
        return self.lines[0]

    @property
    def seconds(self) -> float:
        return sum(h.seconds for h in self.lines)

    @property
    def share(self) -> float:
        return min(1.0, sum(h.share for h in self.lines))

    @property
    def samples(self) -> int:
        return sum(h.samples for h in self.lines)

    @property
    def threads(self) -> int:
        return max(h.threads for h in self.lines)

    def callees(self) -> Counter[str]:
        out: Counter[str] = Counter()
        for h in self.lines:
            out.update(h.callees or ({h.callee: h.samples} if h.callee else {}))
        return out

    def callee_share(self, prefixes: Iterable[str]) -> float:
        """The share of the site's samples spent in library functions whose names start so."""
        wanted = tuple(prefixes)
        hits = sum(n for label, n in self.callees().items() if label.startswith(wanted))
        return hits / max(1, self.samples)

    def described(self, name: str) -> str | None:
        """What the name held on the site's lines ("ndarray of 1,000,000 int64"), when read."""
        return next((h.locals[name] for h in self.lines if name in h.locals), None)

    def type_of(self, name: str) -> str | None:
        return next((h.types[name] for h in self.lines if name in h.types), None)

    def size_of(self, name: str) -> int | None:
        return next((h.sizes[name] for h in self.lines if name in h.sizes), None)

    @property
    def loop_count(self) -> int | None:
        """Iterations of the site's loop, measured from what it walks (the largest reading)."""
        counts = [h.loop_count for h in self.lines if h.loop_count is not None and h.loop_line == self.first]
        return max(counts) if counts else None

    @property
    def loop_text(self) -> str | None:
        return next((h.loop for h in self.lines if h.loop and h.loop_line == self.first), None)


def sites_of(code: Code, hotspots: Iterable[Hotspot]) -> list[Site]:
    """The sites of ``code``, hottest first: hot lines grouped by their innermost loop."""
    groups: dict[int, tuple[Loop | None, int, int, list[Hotspot]]] = {}
    for h in hotspots:
        if h.share <= 0:
            continue
        loops = code.loops_at(h.line)
        loop = loops[0] if loops else None
        if loop is not None:
            key = id(loop.node)
            span = code.span(loop.node) or (h.line, h.line)
        else:
            key, span = -h.line, (h.line, h.line)
        groups.setdefault(key, (loop, span[0], span[1], []))[3].append(h)
    out = [Site(code, sorted(spots, key=lambda h: -h.seconds), loop, first, last)
           for loop, first, last, spots in groups.values()]
    out.sort(key=lambda s: -s.seconds)
    return out


APPLIERS = ("apply", "map", "applymap")


def applied_sites(code: Code, hotspots: Iterable[Hotspot]) -> list[Site]:
    """``df.apply(f, axis=1)`` where the same code defines ``f`` and calls it nowhere else: one site
    of the calling line and ``f``'s hot lines. A function defined in the measured cell is the cell's
    code, so the sampler gives its lines their own time, and the ``apply`` line keeps only what pandas
    spent between the calls (11 % of a cell whose row function took the other 89 %); together they
    are what the ``apply`` cost."""
    spots = [h for h in hotspots if h.share > 0]
    out = []
    for call in code.facts.calls:
        if call.method not in APPLIERS or call.receiver is None or not call.node.args:
            continue
        func = call.node.args[0].value
        scope = code.facts.functions.get(func.value) if isinstance(func, cst.Name) else None
        if scope is None or not isinstance(scope.node, cst.FunctionDef) or _called(code, scope.name):
            continue
        at, body = code.span(call.node), code.span(scope.node)
        # a call written over several lines is sampled on any of them
        here = sorted((h for h in spots if at is not None and at[0] <= h.line <= at[1]), key=lambda h: -h.seconds)
        inside = sorted((h for h in spots if body is not None and body[0] < h.line <= body[1]),
                        key=lambda h: -h.seconds)
        if not here or not inside or at is None:
            continue
        loops = code.loops_at(at[0])
        out.append(Site(code, here + inside, loops[0] if loops else None, at[0], at[0], applied=scope.name))
    return out


def _called(code: Code, name: str) -> bool:
    """The function is also called by name (its time may be that call's, not the apply's)."""
    return any(isinstance(c.node.func, cst.Name) and c.node.func.value == name for c in code.facts.calls)


def counts(site: Site) -> bool:
    """Whether the site took enough of the cell, over enough samples, to be asked why."""
    if site.seconds < MIN_SECONDS:
        return False  # a few milliseconds, whatever their share: the cell's first 0.2 s is sampled densely
    if site.samples >= MIN_SAMPLES:
        return site.share >= MIN_SHARE
    return site.samples >= 1 and site.share >= MOST_SHARE
