"""What the run's call stacks say about a site in a function: who called it, from which loops, how
many times, and with what.

The sampler records, for every user line it saw, the user functions that line called (``via``) and
the ``for`` loop holding it with that loop's measured iterations. Walking those records up from a
function gives what its own loop cannot say: ``euclidean_distance``'s loop runs 4 times per call,
but ``closest_centroid`` calls it 3 times per sample from a loop, ``create_clusters`` 6,000 times
from another, and the cell 12 times: a loop of 4 run 864,000 times. The same records name the
arguments a call passed (``vector_add(result, vector)``: ``v`` held a "list of 100 int"), and which
functions a hot line called that have no loop of their own (``conv_single_step``: its time is the
calling loop's work for one window).
"""

from __future__ import annotations

from collections.abc import Iterator

import libcst as cst

from ...report import Hotspot
from ..evidence import loop_iterations
from .helpers import top_function
from .run import Run
from .sites import Site, code_of_file

MAX_DEPTH = 6  # callers followed this far up
# arrays a per-item helper works on: at this size a NumPy call's own work is about what calling it
# costs (a few microseconds), so the call per item is the loop's element work, not a task of its own
SMALL_ITEM = 1_000


def _all_lines(run: Run) -> Iterator[Hotspot]:
    yield from run.report.hotspots
    yield from run.report.function_lines


def callers(run: Run, function: str) -> list[Hotspot]:
    """The user lines the run saw calling ``function`` (its top-level name), hottest first."""
    found = [h for h in _all_lines(run) if any(top_function(v) == function for v in h.via)]
    return sorted(found, key=lambda h: -h.seconds)


def loops_above(run: Run, function: str) -> tuple[bool, int | None]:
    """Whether the run saw ``function`` called from inside a loop (by its hottest caller, or one
    further up), and at least how many calls those loops made: the product of their measured
    iterations (the innermost loop of each caller; None when one was not measured)."""
    in_loop = False
    total: int | None = 1
    seen: set[str] = set()
    name: str | None = function
    for _ in range(MAX_DEPTH):
        if not name or name in seen:
            break
        seen.add(name)
        up = callers(run, name)
        if not up:
            break
        h = up[0]
        if h.loop_line is not None:
            in_loop = True
            count = h.loop_count or _sized_in_cell(run, h)
            total = total * count if (total is not None and count) else None
        name = top_function(h.function) if h.function else None
    return in_loop, (total if in_loop else None)


def _sized_in_cell(run: Run, h: Hotspot) -> int | None:
    """The length of the measured cell's innermost loop around ``h`` (one of the cell's own lines),
    from the live values it walks, where the sampler could not count it (a comprehension over a
    ``zip`` of columns: its iterator has no length)."""
    if not any(h is c for c in run.report.hotspots):
        return None
    loops = run.cell.loops_at(h.line)
    return loop_iterations(loops[0].node, run.namespace) if loops else None


def loop_free(run: Run, function: str) -> bool:
    """The run saw ``function``'s lines, none of them in a loop nor calling further user functions,
    on arrays of ``SMALL_ITEM`` elements at most: straight-line work on one item per call
    (``conv_single_step``: multiply one 3 x 3 x 3 window, sum it)."""
    lines = [h for h in run.report.function_lines if top_function(h.function) == function]
    sizes = [n for h in lines for name, n in h.sizes.items() if h.types.get(name, "") in _ARRAYS]
    small = bool(sizes) and max(sizes) <= SMALL_ITEM
    return bool(lines) and small and all(h.loop_line is None and not h.via for h in lines)


_ARRAYS = ("numpy.ndarray", "torch.Tensor", "list", "tuple")


def inlined_seconds(run: Run, site: Site) -> float:
    """Of the site's time, the part its lines spent inside loop-free user functions they called:
    the loop's own work, written one call per item."""
    out = 0.0
    for h in site.lines:
        for function, n in h.via.items():
            if loop_free(run, top_function(function)):
                out += h.seconds * n / max(1, h.samples)
    return out


def argument_text(run: Run, site: Site, name: str) -> str | None:
    """What the run saw a parameter ``name`` of the site's function hold, read on the line that
    called the function (``vector_add(result, vector)`` seen with ``result``: "list of 100 int")."""
    func = _function_of(site)
    if func is None:
        return None
    params = [p.name.value for p in func.params.params]
    if name not in params:
        return None
    for h in callers(run, func.name.value)[:3]:
        code = run.cell if h.file is None else code_of_file(h.file, run.namespace, h.where)
        if code is None:
            continue
        for call in code.calls_on(h.line):
            if not (isinstance(call.node.func, cst.Name) and call.node.func.value == func.name.value):
                continue
            arg = call.kwarg(name) or call.positional(params.index(name))
            if arg is not None and isinstance(arg.value, cst.Name) and arg.value.value in h.locals:
                return h.locals[arg.value.value]
    return None


def _function_of(site: Site) -> cst.FunctionDef | None:
    scope = site.loop.scope if site.loop is not None else None
    while scope is not None and not isinstance(scope.node, cst.FunctionDef):
        scope = scope.parent
    return scope.node if scope is not None and isinstance(scope.node, cst.FunctionDef) else None
