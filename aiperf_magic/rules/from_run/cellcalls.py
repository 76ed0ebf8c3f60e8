"""Functions the measured cell defines and calls from its own loops.

The sampler gives each sample to the innermost frame of the measured cell's code, so a line that
calls a function the same cell defines keeps only its own time, and the function's lines get
theirs (``density = [kde(x, samples, h) for x in grid]`` shows 1 %, ``gaussian_kernel``'s return
line 52 %). A function of another cell or module is different: every frame of it is a user line
of its own, and its caller's ``via`` names it. These helpers put the measured cell's pieces back
together from its code: which of its functions a span of its lines calls (directly, or through
others of its functions), and the time the run saw on their lines.
"""

from __future__ import annotations

import libcst as cst

from ...report import Hotspot
from .run import Run
from .sites import Site


def bodies(run: Run) -> dict[str, tuple[int, int]]:
    """The measured cell's functions (by the name it calls them) and the lines of each."""
    out: dict[str, tuple[int, int]] = {}
    for name, scope in run.cell.facts.functions.items():
        if isinstance(scope.node, cst.FunctionDef):
            span = run.cell.span(scope.node)
            if span is not None:
                out[name] = span
    return out


def reached(run: Run, first: int, last: int) -> list[str]:
    """The measured cell's functions that its lines ``first``..``last`` call by name, and those they
    call in turn; none whose body holds the span itself (a recursive call is the span's own time)."""
    spans = bodies(run)
    found: list[str] = []
    todo = [(first, last)]
    while todo:
        a, b = todo.pop()
        for call in run.cell.calls_on(a, b):
            name = call.node.func.value if isinstance(call.node.func, cst.Name) else None
            span = spans.get(name or "")
            if name is None or span is None or name in found or span[0] <= first <= last <= span[1]:
                continue
            found.append(name)
            todo.append(span)
    return found


def lines_of(run: Run, names: list[str]) -> list[Hotspot]:
    """The measured cell's hot lines inside the bodies of ``names``."""
    spans = [s for n, s in bodies(run).items() if n in names]
    return [h for h in run.report.hotspots if any(a <= h.line <= b for a, b in spans)]


def callees(site: Site, run: Run) -> tuple[list[str], list[Hotspot]]:
    """For a site of the measured cell: the cell's functions its lines reach, and their hot lines
    outside the site (empty for a site of other code, whose callers name their callees)."""
    if site.code is not run.cell:
        return [], []
    names = reached(run, site.first, site.last)
    inside = {id(h) for h in site.lines}
    return names, [h for h in lines_of(run, names) if id(h) not in inside and not site.first <= h.line <= site.last]


def seconds_by_function(run: Run, names: list[str]) -> dict[str, float]:
    """Seconds the run saw on the lines of each of ``names`` (their own lines only)."""
    spans = {n: s for n, s in bodies(run).items() if n in names}
    out = dict.fromkeys(names, 0.0)
    for h in run.report.hotspots:
        inner = [n for n, (a, b) in spans.items() if a <= h.line <= b]
        if inner:  # the innermost function holding the line: the one with the shortest body
            out[min(inner, key=lambda n: spans[n][1] - spans[n][0])] += h.seconds
    return out
