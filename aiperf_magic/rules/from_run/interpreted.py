"""Loops the run proved to be most of the cell, whose time is the interpreter's own work on numbers one
element at a time, in the shapes :mod:`.numbers` leaves alone because the loop's own lines are not an
array expression (AIP201):

- **a function of numbers called per element**: the loop's lines are a small part of its time, the
  rest is in a function of the user's that each iteration calls on one element (an escape-time
  iteration per pixel, a distance per pair of agents) and that works on scalars or a few values;
  the fix is that function written over whole arrays (all elements at once, a mask for those still
  iterating), which no rule can write for the user;
- **steps carried within each call**: a loop that carries a value from one step to the next (a
  ray-casting parity, ``z = z * z + c``) inside a function that the cell calls once per element from a
  loop over many: each call's steps stay, the elements go at once;
- **a first-order linear recurrence** (``ema[i] = a * close[i] + (1 - a) * ema[i - 1]``): an exponential
  moving average or a first-order filter, which ``scipy.signal.lfilter`` and pandas' ``ewm`` run in
  C; a nonlinear one run once (the logistic map) has no such form and is left alone;
- **small operations per item**: a loop on its own lines (or loop-free helpers) over items of a few
  numbers each (a box's four coordinates made into a tensor for each pair), repeated by the loops
  around it: one operation over all the items does it.

Each needs the site to be most of the cell (``DOMINANT``), its time the interpreter's own (no
library function of pandas, a loader, a model or a wait), the values on its lines numbers (no
strings, no frames), and many elements: at least ``MIN_ITERATIONS`` counted by the run, or a loop
nested in others the run saw.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import libcst as cst

from ... import units as fmt
from ...cell.tree import walk_all
from ...report import Hotspot
from ...sizing import kind
from ...usercode import is_user_code_type
from ..evidence import loop_iterations
from ..exprs import names_used
from ..facts import Loop
from .callers import SMALL_ITEM, loops_above
from .cellcalls import bodies, callees, lines_of, reached, seconds_by_function
from .helpers import top_function
from .numbers import MIN_ITERATIONS, OWN_SHARE, TENSOR_ADVICE, _function_name, _own, carried
from .run import MISSING, Explained, Run
from .shapes import iterations, work_shares
from .sites import Site, counts

DOMINANT = 0.5  # the site took at least this share of the cell
PYTHON_WORK = 0.8  # of the site's samples, in no library function (the interpreter, or C it calls directly)
_NOT_NUMBERS = ("str", "bytes", "pandas.", "DataFrame", "Series", "dict")  # words of the sampler's descriptions
# operators of numbers only (``+`` joins text and ``%`` formats it; ``*`` repeats, rarely in a hot loop)
_ARITHMETIC = frozenset({"-", "*", "/", "//", "**", "-=", "*=", "/="})
_NUMBER_WORDS = (" int", " float", " complex", " bool", "Tensor", "ndarray")

CALLS_ADVICE = ("A Python function of numbers called once per element: written over whole arrays (every "
                "element at once, a mask for those still iterating) it runs in NumPy's C loops; or compile it "
                "(Numba's @njit)")
CARRIED_ADVICE = ("Each call's steps depend on the one before, but the calls do not depend on each other: run "
                  "the steps once over arrays of all the elements (a mask where a step applies), or compile the "
                  "function (Numba's @njit)")
RECURRENCE_ADVICE = ("A first-order linear recurrence in a Python loop: scipy.signal.lfilter, or pandas' "
                     "ewm(alpha=..., adjust=False).mean() for an exponential moving average, runs the same steps in C")
NESTED_ADVICE = ("Nested Python loops of arithmetic whose steps read what earlier steps wrote: the loops whose "
                 "steps do not depend on each other become one array operation per step of the others "
                 "(Floyd-Warshall's i and j: one np.minimum per k), or compile the nest (Numba's @njit)")
RANDOM_CALLEES = ("Random.",)  # Python's random module: one value per call, in Python
RANDOM_ADVICE = ("Random values drawn one per call from Python's random module: a NumPy Generator draws them all "
                 "at once (rng.choice(data, size=(n, len(data))), rng.integers, rng.normal), and the statistic "
                 "of each row follows along an axis (np.median(samples, axis=1))")
ITEMS_ADVICE = ("Small operations on a few numbers per item, one item at a time: put the items in one array "
                "(or tensor) and do each operation once for all of them")


def interpreted_loop(site: Site, run: Run) -> Explained | None:
    loop = site.loop
    if loop is None or loop.kind == "while" or not counts(_inclusive(site, run)) or _family_share(site, run) < DOMINANT:
        return None
    if work_shares(site).get("python", 0.0) < PYTHON_WORK:
        return None  # pandas, a loader, a model, waits, NumPy on whole arrays: other shapes
    if not _numbers(site, run):
        return None
    n = iterations(site, run)
    outer = _outer(site, run, loop)
    if outer is not None and site.code is not run.cell:
        stacked, calls = loops_above(run, top_function(site.hottest.function) or _function_name(loop))
        outer = outer * calls if stacked and calls is not None else outer  # a helper called from loops
    elif outer is not None and _function_name(loop):  # a function of the measured cell, called from its loops
        calls = _calls_from_loops(run, site, _function_name(loop))
        outer = outer * calls if calls is not None else outer
    via = _called(site, run)
    drawn = _draws(site, run, loop, n, outer) if via is None else None  # drawn on the site's own lines
    if drawn is not None:
        return drawn
    if carried(loop):
        return _carried(site, run, loop, n, outer)
    if _own(site, run) * _not_in_callees(site, run) < OWN_SHARE:
        return _calls(site, run, loop, n, outer, via) if via else None
    return _items(site, run, loop, n, outer)


def _calls(site: Site, run: Run, loop: Loop, n: int | None, outer: int | None, via: str) -> Explained | None:
    """Most of the time in one function of the user's that each iteration calls on one element."""
    if not _per_element(run, via):
        return None  # a function of whole arrays, or of loops over many items: a task per call, not an element
    total = _times(n, outer)
    if total is None or total < MIN_ITERATIONS:
        return None
    evidence = (f"{_took(site, run)}: {via}() called on one element at a time, {total:,} calls, "
                "its time Python arithmetic")
    return Explained("AIP201", site, loop.node, evidence, {"iterations": total, "calls": total},
                     advice=CALLS_ADVICE, fix_reason=_BY_HAND, fallback=True)


def _carried(site: Site, run: Run, loop: Loop, n: int | None, outer: int | None) -> Explained | None:
    function = _function_name(loop)
    calls = _calls_from_loops(run, site, function) if function else None
    if calls is not None and calls >= MIN_ITERATIONS:
        evidence = (f"{run.took(site)}: a loop carried from step to step in {function}(), called once per element "
                    f"{calls:,} times from a loop")
        return Explained("AIP201", site, loop.node, evidence, {"calls": calls, "iterations": n},
                         advice=CARRIED_ADVICE, fix_reason=_BY_HAND, fallback=True)
    if n is not None and n >= MIN_ITERATIONS and linear_recurrence(loop) is not None:
        evidence = (f"{run.took(site)}: {linear_recurrence(loop)} computed one step at a time over {n:,} steps, "
                    "each step a Python multiply-add of the one before")
        return Explained("AIP201", site, loop.node, evidence, {"iterations": n},
                         advice=RECURRENCE_ADVICE, fix_reason=_BY_HAND, fallback=True)
    total = _times(n, outer)
    nested = any(o is not loop and o.scope is loop.scope for o in loop.ancestors())
    if nested and total is not None and total >= MIN_ITERATIONS:
        evidence = (f"{run.took(site)}: Python arithmetic on one element at a time in nested loops, {total:,} steps, "
                    "each reading what earlier steps wrote")
        return Explained("AIP201", site, loop.node, evidence, {"iterations": total},
                         advice=NESTED_ADVICE, fix_reason=_BY_HAND, fallback=True)
    return None  # a nonlinear recurrence run once: no array form (numbers.py says so too)


def _draws(site: Site, run: Run, loop: Loop, n: int | None, outer: int | None) -> Explained | None:
    """Most of the loop's time in Python's ``random`` module, one number or item per call (a bootstrap
    resample drawn with ``random.choice`` per element)."""
    if site.callee_share(RANDOM_CALLEES) < 0.35:
        return None
    total = _times(n, outer)
    if total is None or total < MIN_ITERATIONS:
        return None
    drawn = sorted(((k, label) for label, k in site.callees().items() if label.startswith(RANDOM_CALLEES)),
                   reverse=True)
    names = " and ".join(f"random.{label.split('.')[-1]}()" for _, label in drawn[:2])
    evidence = f"{run.took(site)}: {names} called for one value at a time, {total:,} draws"
    return Explained("AIP201", site, loop.node, evidence, {"iterations": total}, advice=RANDOM_ADVICE,
                     fix_reason=_BY_HAND)  # named by its callee: before the generic readings of the caller


def _items(site: Site, run: Run, loop: Loop, n: int | None, outer: int | None) -> Explained | None:
    """The loop's own small operations on items of a few numbers, many times over."""
    total = _times(n, outer)
    repeated = loop.parent is not None or _in_a_loop(run, site, _function_name(loop))
    if not (total is not None and total >= MIN_ITERATIONS) and not (total is None and repeated):
        return None
    if not _small(_with_callees(site, run)):
        return None  # whole arrays per item (a shuffle of 9,148 values): each step is NumPy's work
    tensors = any(t == "torch.Tensor" for h in _with_callees(site, run) for t in h.types.values())
    how = f", {total:,} iterations" if total else ", repeated by the loops around it"
    what = "torch operations on tensors of a few elements" if tensors else "Python arithmetic on a few numbers"
    evidence = f"{run.took(site)}: {what} for one item at a time{how}"
    return Explained("AIP201", site, loop.node, evidence, {"iterations": total},
                     advice=TENSOR_ADVICE if tensors else ITEMS_ADVICE, fix_reason=_BY_HAND, fallback=True)


_BY_HAND = ("no rewrite is written for this loop: the arrays it needs depend on what each element computes; "
            "write it over arrays by hand and Try it")


def linear_recurrence(loop: Loop) -> str | None:
    """``y[i] = a * x[i] + b * y[i - 1]`` (one statement, the array written at the loop's index and read
    once at the index before, as a term or a term times a factor free of it): the name of the array
    ("the recurrence of ema"); None for anything else."""
    node = loop.node
    if not isinstance(node, cst.For) or not isinstance(node.target, cst.Name):
        return None
    body = [s for line in _statements(node.body) for s in line]
    if len(body) != 1 or not isinstance(body[0], cst.Assign) or len(body[0].targets) != 1:
        return None
    target = body[0].targets[0].target
    i = node.target.value
    if not (isinstance(target, cst.Subscript) and isinstance(target.value, cst.Name) and len(target.slice) == 1
            and isinstance(target.slice[0].slice, cst.Index) and _is_name(target.slice[0].slice.value, i)):
        return None
    y = target.value.value
    reads = [s for s in walk_all(body[0].value) if isinstance(s, cst.Subscript) and _is_name(s.value, y)]
    if len(reads) != 1 or not _previous(reads[0], i) or not _linear(body[0].value, y):
        return None
    return f"the recurrence of {y}"


def _statements(body: cst.BaseSuite) -> Iterator[list[cst.BaseSmallStatement]]:
    if isinstance(body, cst.SimpleStatementSuite):
        yield list(body.body)
        return
    for stmt in body.body:  # type: ignore[union-attr]
        if not isinstance(stmt, cst.SimpleStatementLine):
            yield [stmt]  # type: ignore[list-item]  # a compound statement: not one assignment
            continue
        yield list(stmt.body)


def _is_name(node: cst.CSTNode, name: str) -> bool:
    return isinstance(node, cst.Name) and node.value == name


def _previous(read: cst.Subscript, i: str) -> bool:
    """``y[i - 1]``."""
    if len(read.slice) != 1 or not isinstance(read.slice[0].slice, cst.Index):
        return False
    value = read.slice[0].slice.value
    return (isinstance(value, cst.BinaryOperation) and isinstance(value.operator, cst.Subtract)
            and _is_name(value.left, i) and isinstance(value.right, cst.Integer) and value.right.value == "1")


def _linear(expr: cst.BaseExpression, y: str) -> bool:
    """``expr`` is linear in the one read of ``y``: sums and differences of terms, the one holding ``y``
    being the read itself or it times (or divided by) a factor without ``y``."""
    if y not in names_used(expr):
        return True
    if isinstance(expr, cst.Subscript):
        return True  # the read itself
    if isinstance(expr, cst.BinaryOperation):
        if isinstance(expr.operator, (cst.Add, cst.Subtract)):
            return _linear(expr.left, y) and _linear(expr.right, y)
        if isinstance(expr.operator, cst.Multiply):
            left, right = y in names_used(expr.left), y in names_used(expr.right)
            return (left != right) and _linear(expr.left if left else expr.right, y)
        if isinstance(expr.operator, cst.Divide):
            return y not in names_used(expr.right) and _linear(expr.left, y)
    return False


# -- what the run saw ------------------------------------------------------------------------------
def _with_callees(site: Site, run: Run) -> list[Hotspot]:
    """The site's lines and those of the user's functions they called (one level down, by name)."""
    called = {top_function(v) for h in site.lines for v in h.via}
    return (list(site.lines) + [h for h in run.report.function_lines if top_function(h.function) in called]
            + callees(site, run)[1])


def _numbers(site: Site, run: Run) -> bool:
    """The values the loop computes with are numbers: what its names held when the cell ended (or,
    in a function, what the cell passed it), and what the sampler read on its lines and its callees'
    (scalars, arrays or tensors of numbers, lists and tuples of them, objects of the user's holding
    them), never text or frames; at least one of them must have been seen to be numbers."""
    seen = False
    loop = site.loop
    names = names_used(loop.node) - set(loop.targets) if loop is not None else set()
    for name in sorted(n for n in names if not n.startswith("_")):  # ``_``: IPython's last output
        live = run.live(site, name)
        verdict = number_like(live) if live is not MISSING else None
        if verdict is False and isinstance(live, str | bytes) and characters_compared(loop.node, name):
            verdict = None  # ``a[i - 1] == b[j - 1]`` in an alignment: codes of one character each
        if verdict is False:
            return False
        seen = seen or bool(verdict)
    for h in _with_callees(site, run):
        for name, text in h.locals.items():
            t = h.types.get(name, "")
            if any(word in t or word in text for word in _NOT_NUMBERS):
                return False
            seen = seen or any(word in f" {text}" for word in _NUMBER_WORDS)
        seen = seen or bool(_ARITHMETIC & set(h.ops))
    return seen


def characters_compared(node: cst.CSTNode, name: str) -> bool:
    """Every use of ``name`` under ``node`` is one character of it (a subscript by an index, not a
    slice) compared with something (``seq_a[i - 1] == seq_b[j - 1]``), or its length: a string read as
    an array of character codes, as an edit distance or a sequence alignment does, not text being
    worked on."""
    compared: set[int] = set()
    for sub in walk_all(node):
        if (isinstance(sub, cst.Call) and isinstance(sub.func, cst.Name) and sub.func.value == "len"
                and len(sub.args) == 1 and isinstance(sub.args[0].value, cst.Name)):
            compared.add(id(sub.args[0].value))  # its length: a loop's bound (``range(1, len(b) + 1)``)
        if isinstance(sub, cst.Comparison):
            for side in (sub.left, *(c.comparator for c in sub.comparisons)):
                if (isinstance(side, cst.Subscript) and isinstance(side.value, cst.Name) and side.value.value == name
                        and len(side.slice) == 1 and isinstance(side.slice[0].slice, cst.Index)):
                    compared.add(id(side.value))
    uses = [sub for sub in walk_all(node) if isinstance(sub, cst.Name) and sub.value == name]
    return bool(uses) and all(id(use) in compared for use in uses)


def number_like(value: Any, depth: int = 0) -> bool | None:
    """True for numbers and what holds them (arrays and tensors of a numeric dtype, lists and tuples
    of numbers, an object of the user's whose attributes are numbers); False for text, bytes, frames
    and mappings; None for anything that says neither (a function, a module, an empty list)."""
    if isinstance(value, bool | int | float | complex):
        return True
    if isinstance(value, str | bytes | dict):
        return False
    k = kind(value)
    if k in ("frame", "series"):
        return False
    if k in ("array", "tensor"):
        dtype = str(getattr(value, "dtype", ""))
        return any(word in dtype for word in ("int", "float", "complex", "bool"))
    if type(value).__module__ == "numpy" and hasattr(value, "dtype"):
        return True  # a NumPy scalar
    if depth >= 2:
        return None
    if isinstance(value, list | tuple):
        return number_like(value[0], depth + 1) if value else None
    if is_user_code_type(type(value)):
        attrs = list(getattr(value, "__dict__", {}).values())[:8]
        verdicts = [number_like(a, depth + 1) for a in attrs]
        return None if not any(v is not None for v in verdicts) else all(v is not False for v in verdicts)
    return None


def _family_share(site: Site, run: Run) -> float:
    """The share of the cell on the lines of the function holding the site, or, in the cell's own
    code, of the outermost loop around it: comprehensions side by side in one function or loop (an
    ROC curve's four counts per threshold) take the cell together, each a part."""
    top = site.loop
    for outer in site.loop.ancestors() if site.loop is not None else ():
        if outer.scope is site.loop.scope:  # type: ignore[union-attr]
            top = outer
    scope = top.scope if top is not None else None
    while scope is not None and not isinstance(scope.node, cst.FunctionDef):
        scope = scope.parent
    # in a function, its whole body: the loops of one call of roc_point(...) count together
    span = site.code.span(scope.node if scope is not None else top.node) if top is not None else None
    if span is None:
        return site.share
    lines = run.report.hotspots if site.code is run.cell else [
        h for h in run.report.function_lines if h.file == site.hottest.file]
    family = [h for h in lines if span[0] <= h.line <= span[1]]
    if site.code is run.cell:  # and the lines of the cell's functions they call (the sampler gives them their own)
        inside = {id(h) for h in family}
        family += [h for h in lines_of(run, reached(run, *span)) if id(h) not in inside]
    return max(site.share, min(1.0, sum(h.share for h in family)))


def _called(site: Site, run: Run) -> str | None:
    """The user function the site's lines spent their time in, when one took most of it: named by
    the sampler's stacks, or, for the measured cell's own functions, by the time on their lines."""
    total: dict[str, float] = {}
    for h in site.lines:
        for function, samples in h.via.items():
            name = top_function(function)
            total[name] = total.get(name, 0.0) + h.seconds * samples / max(1, h.samples)
    whole = site.seconds
    names, lines = callees(site, run)
    if any(_in_own_loop(run, h.line, site) for h in lines):
        return None  # a loop of the called function is a site of its own, explained there
    if not total and names:
        by_function = seconds_by_function(run, names)
        total = {names[0]: sum(by_function.values())}  # the function the site calls, with what it calls
        whole += total[names[0]]
    if not total:
        return None
    name, seconds = max(total.items(), key=lambda kv: kv[1])
    return name if seconds >= 0.5 * whole else None


def _in_own_loop(run: Run, line: int, site: Site) -> bool:
    """``line`` (in a function of the measured cell) runs inside a loop other than the site's own."""
    return any(site.loop is None or loop.node is not site.loop.node for loop in run.cell.loops_at(line))


def _inclusive(site: Site, run: Run) -> Site:
    """The site with the hot lines of the measured cell's functions it calls, as one."""
    lines = callees(site, run)[1]
    return replace(site, lines=site.lines + lines) if lines else site


def _not_in_callees(site: Site, run: Run) -> float:
    """The share of the site's time with the measured cell's functions it calls that stayed on its
    own lines (1.0 when it calls none)."""
    elsewhere = sum(h.seconds for h in callees(site, run)[1])
    return site.seconds / (site.seconds + elsewhere) if site.seconds + elsewhere > 0 else 1.0


def _took(site: Site, run: Run) -> str:
    """``run.took(site)``, counting the time of the measured cell's functions the site calls."""
    names, lines = callees(site, run)
    if not lines:
        return run.took(site)
    share = min(1.0, site.share + sum(h.share for h in lines))
    called = ", ".join(f"{n}()" for n in names[:3])
    return f"{run.lines(site)}, with {called} it calls, took {fmt.percent(share)} of the {fmt.seconds(run.wall_s)} cell"


def _per_element(run: Run, function: str) -> bool:
    """The run saw ``function`` (and what it calls) work on scalars or a few values per call: no array
    of more than ``SMALL_ITEM`` items, and no pandas, loader or model time."""
    lines = [h for h in run.report.function_lines if top_function(h.function) == function]
    if not lines and function in bodies(run):
        return _small(lines_of(run, [function, *reached(run, *bodies(run)[function])]))
    if not lines:
        return False
    called = {top_function(v) for h in lines for v in h.via}
    lines += [h for h in run.report.function_lines if top_function(h.function) in called - {function}]
    return _small(lines)


def _small(lines: list[Hotspot]) -> bool:
    """No array, tensor or list on the lines holds more than ``SMALL_ITEM`` items (subclasses count:
    a ``np.memmap`` of a token file is an array of ten million)."""
    sizes = [n for h in lines for name, n in h.sizes.items()
             if h.types.get(name, "") in ("numpy.ndarray", "torch.Tensor", "list", "tuple")
             or h.locals.get(name, "").startswith(("ndarray", "Tensor"))]
    return not sizes or max(sizes) <= SMALL_ITEM


def _outer(site: Site, run: Run, loop: Loop) -> int | None:
    """The iterations of the loops around the site's loop in the same function or cell (1 when there
    are none), as measured or as the live data they walk; None when one is not known."""
    total = 1
    for outer in loop.ancestors():
        if outer is loop or outer.scope is not loop.scope:
            continue
        span = site.code.span(outer.node)
        measured = [h.loop_count for h in _all_lines(run) if span is not None and h.loop_line == span[0]
                    and h.loop_count is not None]
        count = max(measured) if measured else (
            loop_iterations(outer.node, run.namespace) if site.code is run.cell else None)
        if count is None:
            return None
        total *= count
    return total


def _all_lines(run: Run) -> Iterator[Hotspot]:
    yield from run.report.hotspots
    yield from run.report.function_lines


def _calls_from_loops(run: Run, site: Site, function: str) -> int | None:
    """How many times loops called the site's function: from the run's call stacks, or, for a
    function the measured cell defines and calls in a loop or comprehension, that loop's length."""
    if not function:
        return None
    stacked, calls = loops_above(run, function)
    if stacked and calls is not None:
        return calls
    if site.code is not run.cell:
        return None
    found = [loop_iterations(c.loop.node, run.namespace) for c in run.cell.facts.calls
             if isinstance(c.node.func, cst.Name) and c.node.func.value == function and c.loop is not None]
    known = [n for n in found if n is not None]
    return max(known) if known else None


def _in_a_loop(run: Run, site: Site, function: str) -> bool:
    """The run's stacks, or the measured cell's code, show the site's function called from a loop
    (however many times: ``for threshold in np.linspace(0, 1, 101)`` is not sized before it runs)."""
    if not function:
        return False
    if loops_above(run, function)[0]:
        return True
    return site.code is run.cell and any(
        isinstance(c.node.func, cst.Name) and c.node.func.value == function and c.loop is not None
        for c in run.cell.facts.calls)


def _times(n: int | None, outer: int | None) -> int | None:
    return n * outer if n is not None and outer is not None else None
