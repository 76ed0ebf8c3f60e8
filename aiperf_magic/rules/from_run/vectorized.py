"""A Python function NumPy calls once per element (AIP201 from the run): ``np.vectorize(f)(x)``.

``np.vectorize`` reads like an array operation, yet, as NumPy's own documentation says, it is a
Python loop: it calls ``f`` for each element. When ``f`` is defined in the measured cell (a lambda
on the line before), the sampler gives ``f``'s line its own time and the calling line only what
NumPy spent between the calls; together they are what the call cost. The run says how many
elements (the live array handed to the call) and how much of the cell the calls took; the function
being numbers and conditions (:mod:`.logic`) says that array operations do the same work at once.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

import libcst as cst

from ...report import Hotspot
from ...sizing import describe, kind
from .logic import vectorisable
from .run import MISSING, Explained, Run
from .sites import Code, Site, counts

VECTORIZE = ("numpy.vectorize", "numpy.frompyfunc")
MIN_ELEMENTS = 1_000  # fewer calls than this cost a millisecond or so
ADVICE = ("np.vectorize calls a Python function once per element (a Python loop, not an array operation): "
          "write the function with array operations on the whole array (a comparison, np.where, np.select)")
FIX_REASON = ("the function is called on one element at a time as written; its whole-array form (a comparison, "
              "np.where, np.select) is written by hand")


def vectorized_sites(code: Code, hotspots: Iterable[Hotspot]) -> Iterator[tuple[Site, cst.Call, cst.BaseExpression]]:
    """Each call of a vectorized function of the code (``to_label(probs)`` after ``to_label =
    np.vectorize(lambda p: ...)``, or ``np.vectorize(f)(x)``) as one site with the lines of ``f``
    that the code defines, and the function handed to ``np.vectorize``."""
    spots = [h for h in hotspots if h.share > 0]
    made = {}  # name -> the function handed to np.vectorize
    for a in code.facts.assigns:
        value = a.value
        if (isinstance(value, cst.Call) and code.facts.names.qname(value.func) in VECTORIZE and value.args
                and len(a.targets) == 1 and isinstance(a.targets[0], cst.Name)):
            made[a.targets[0].value] = value.args[0].value
    for call in code.facts.calls:
        func = call.node.func
        if isinstance(func, cst.Name) and func.value in made:
            pyfunc = made[func.value]
        elif isinstance(func, cst.Call) and code.facts.names.qname(func.func) in VECTORIZE and func.args:
            pyfunc = func.args[0].value
        else:
            continue
        at = code.span(call.node)
        body = _span_of(code, pyfunc)
        if at is None:
            continue
        here = sorted((h for h in spots if at[0] <= h.line <= at[1]), key=lambda h: -h.seconds)
        inside = sorted((h for h in spots if body is not None and body[0] <= h.line <= body[1]
                         and not at[0] <= h.line <= at[1]), key=lambda h: -h.seconds)
        if here:
            yield Site(code, here + inside, None, at[0], at[0]), call.node, pyfunc


def _span_of(code: Code, pyfunc: cst.BaseExpression) -> tuple[int, int] | None:
    if isinstance(pyfunc, cst.Lambda):
        return code.span(pyfunc)
    if isinstance(pyfunc, cst.Name):
        scope = code.facts.functions.get(pyfunc.value)
        return code.span(scope.node) if scope is not None else None
    return None


def vectorized_call(site: Site, run: Run, call: cst.Call, pyfunc: cst.BaseExpression) -> Explained | None:
    if not counts(site) or not call.args or not vectorisable(site.code.facts, pyfunc):
        return None  # a function of strings or objects has no whole-array form faster than the calls
    arg = call.args[0].value
    if not isinstance(arg, cst.Name):
        return None
    live = run.live(site, arg.value)
    if live is MISSING or kind(live) != "array":
        return None
    d = describe(live, user_code=False)
    n = int(live.size)
    if n < MIN_ELEMENTS or d is None:
        return None
    what = "a lambda" if isinstance(pyfunc, cst.Lambda) else f"{site.code.cell.code(pyfunc)}"
    span = _span_of(site.code, pyfunc)
    where = f" (line {run.report.cell_line(span[0])})" if span is not None and span[0] != site.first else ""
    evidence = (f"{run.took(site)}: np.vectorize called {what}{where} once per element, {n:,} times, on "
                f"{arg.value} ({d.text}): a Python loop, not an array operation")
    return Explained("AIP201", site, call, evidence, {"iterations": n, "elements": n}, at=call,
                     fix_reason=FIX_REASON, advice=ADVICE)
