"""Numbers one at a time (AIP201), proved by the run: a loop whose time is the interpreter's own work
(or a NumPy call per element) on one item of an array, a tensor or a list of numbers per iteration,
or on the numbers a range hands it; and builtins (``sum``, ``min``, ``max``) walking an array's
elements as Python objects.

The run gives what static reading cannot: how many times the loop ran (``range(len(values))`` with
``values`` a parameter: 1,000,000), what its names held, and whether the time was the line's own.
A loop run once over fewer than ``MIN_ITERATIONS`` items is left alone; a loop nested in another, or
in a function the cell calls from a loop, is proved by its time. A loop that carries a value from
one iteration to the next (``x = x + v * dt``, a running minimum, a swap) computes a recurrence: no
array expression replaces it, and it is left alone too.
"""

from __future__ import annotations

import re
from typing import Any

import libcst as cst

from ...cell.tree import walk_all
from ...sizing import describe, kind
from ..exprs import is_scalar_arithmetic, names_read, names_used
from ..facts import Loop, Scope, unwrap_iterable
from .callers import argument_text, inlined_seconds, loops_above
from .logic import numbers_only
from .run import MISSING, Explained, Run
from .shapes import iterations, work_shares
from .sites import MIN_SHARE, Site, counts

NUMERIC_TYPES = ("numpy.ndarray", "torch.Tensor")
MIN_ITERATIONS = 1_000  # a loop of fewer items, run once, is not worth a vectorised rewrite
ALONE_SHARE = 0.5  # a loop of unknown length, run once, must take this share of the cell
OWN_SHARE = 0.6  # of the loop's time on its own lines (not in functions of the user's it calls)
MIN_ELEMENTS = 10_000  # a builtin walking fewer array elements than this costs under a millisecond
_REDUCERS = {"builtins.sum": "np.sum", "builtins.min": "np.min", "builtins.max": "np.max"}
_BITS = (cst.BitXor, cst.BitAnd, cst.BitOr)
_ACCUMULATE = (cst.AddAssign, cst.SubtractAssign, cst.MultiplyAssign)
# AIP201's message where the items are a tensor's (a loop over a tensor is told of torch, not NumPy)
TENSOR_ADVICE = ("Element-wise arithmetic in a Python loop over a tensor's items: one vectorised tensor "
                 "operation (indexing, a mask, scatter_ or a reduction) does it")


def numeric_loop(site: Site, run: Run) -> Explained | None:
    loop = site.loop
    if loop is None:
        return builtin_reduction(site, run)
    if loop.kind == "while" or not loop.targets or not counts(site) or _own(site, run) < OWN_SHARE:
        return None
    work = work_shares(site)
    if work.get("python", 0.0) + work.get("numpy", 0.0) < 0.6:
        return None  # the time went into a model, pandas, a loader, waits: not one element at a time
    total = running_total(loop)
    if total is None and carried(loop):
        return None  # a recurrence: each step needs the last
    targets = frozenset().union(*(outer.targets for outer in loop.ancestors() if outer.scope is loop.scope))
    element = _element_access(site, run, loop, targets)
    arithmetic = element is None and (total is not None or (
        _walks_numbers(site, run, loop) and _number_work(site, loop, targets)))
    if element is None and not arithmetic:
        return None
    n = iterations(site, run)
    # a loop in a function: the run's callers say whether loops called it, and how many times
    stacked, calls = loops_above(run, _function_name(loop)) if site.code is not run.cell else (False, None)
    if stacked and loop.parent is None and n is not None and calls is not None and n * calls < MIN_ITERATIONS:
        return None  # a few whole-array steps per call, over few calls: not one element at a time
    repeated = loop.parent is not None or stacked or _called_in_a_loop(run, loop)
    if not repeated and ((n is None and site.share < ALONE_SHARE) or (n is not None and n < MIN_ITERATIONS)):
        return None
    if work.get("numpy", 0.0) >= 0.3:
        label = next((c for c, _ in site.callees().most_common() if "." not in c), "a NumPy function")
        what = f"a NumPy call ({label}) for one element at a time"
    elif total is not None:
        what = f"a running total ({total}) kept one step at a time, each step stored: a cumulative sum does it"
    else:
        what = "Python arithmetic on one element at a time" if element else "Python arithmetic on each number it walks"
    loop_text = site.loop_text
    if element is not None:
        described = f" ({element[1]})" if element[1] and element[1] not in (loop_text or "") else ""
        what = what.replace("one element at a time", f"one {element[2]} of {element[0]}{described} at a time")
    tensor = _tensor(site, run, element[0]) if element is not None else _walks_tensors(site, run, loop)
    if tensor and element is None and not total:
        item = _tensor_item(site, run, loop)
        what = (f"torch operations on one item of a tensor at a time (each a {item} tensor)" if item
                else "torch operations on one element of a tensor at a time (each item a 0-d tensor)")
    how = f" ({loop_text})" if loop_text else (f", {n:,} iterations" if n else "")
    if stacked and calls is not None:
        how += f", in a function the run saw called {calls:,} times or more from loops"
    elif stacked:
        how += ", in a function the run saw called from loops"
    evidence = f"{run.took(site)}: {what}{how}"
    advice = TENSOR_ADVICE if tensor else None
    numbers = {"iterations": n, "calls": calls, "total_iterations": n * calls if n and calls else None}
    return Explained("AIP201", site, loop.node, evidence, numbers, advice=advice)


def _function_name(loop: Loop) -> str:
    scope: Scope | None = loop.scope
    while scope is not None and not isinstance(scope.node, cst.FunctionDef):
        scope = scope.parent
    return scope.node.name.value if scope is not None and isinstance(scope.node, cst.FunctionDef) else ""


def _tensor(site: Site, run: Run, name: str) -> bool:
    """The loop's items are a torch tensor's: the fix is one tensor operation, not NumPy."""
    live = run.live(site, name)
    return kind(live) == "tensor" if live is not MISSING else site.type_of(name) == "torch.Tensor"


def _own(site: Site, run: Run) -> float:
    """The share of the site's time on its own lines, or in loop-free functions of the user they
    call (one call per item: ``Z[i, h, w, c] = conv_single_step(window, W, b)``); 1.0 when not
    recorded (a Report from before)."""
    total, own = sum(h.seconds for h in site.lines), sum(h.own_seconds for h in site.lines)
    if not total > 0 or (own <= 0 and not any(h.via for h in site.lines)):
        return 1.0  # not recorded; none of its own with calls into the user's functions is none
    return min(1.0, (own + inlined_seconds(run, site)) / total)


def carried(loop: Loop, stored: frozenset[str] = frozenset()) -> bool:
    """The loop carries a value from one iteration to the next: a name it assigns that it reads
    before assigning it (``m = j`` after ``a[j] < a[m]``, ``x = x + v * dt``), a total it also reads
    (``if count > k``), an array it writes while reading it (``out[i] = out[i - 1] + x[i]``, a swap).
    Totals in ``stored`` may be stored each step (``walk.append(position)``, ``out[i] = total``):
    that reads them only to keep them, as a cumulative sum does."""
    node = loop.node
    if not isinstance(node, (cst.For, cst.While)):
        return False
    events: list[tuple[str, set[str]]] = []  # in source order: "read", "write" or "total" names
    for sub in walk_all(node.body):
        kept = _stores(sub, stored)
        if kept is not None:
            events.append(("read", names_read(kept)))
            continue
        if isinstance(sub, cst.Assign):
            value = names_read(sub.value)
            events.append(("read", value))
            for target in sub.targets:
                if _writes_what_it_reads(target.target, value, events):
                    return True
        elif isinstance(sub, cst.AugAssign):
            events.append(("read", names_read(sub.value)))
            if isinstance(sub.target, cst.Name):
                events.append(("total", {sub.target.value}))
        elif isinstance(sub, (cst.If, cst.While)):
            events.append(("read", names_read(sub.test)))
        elif isinstance(sub, cst.Expr):
            events.append(("read", names_read(sub.value)))
    written = {n for what, names in events if what == "write" for n in names}
    totals = {n for what, names in events if what == "total" for n in names}
    done: set[str] = set()
    for what, names in events:
        if what == "read" and ((names & written) - done or names & totals):
            return True
        if what == "write":
            done |= names
    return False


def _stores(node: cst.CSTNode, totals: frozenset[str]) -> cst.CSTNode | None:
    """``walk.append(position)`` or ``out[i] = position`` with ``position`` in ``totals``: the
    statement only keeps the total; the node returned holds what else it reads (the list, the index)."""
    if not totals:
        return None
    if isinstance(node, cst.Expr) and isinstance(node.value, cst.Call):
        call = node.value
        if (isinstance(call.func, cst.Attribute) and call.func.attr.value == "append" and len(call.args) == 1
                and isinstance(call.args[0].value, cst.Name) and call.args[0].value.value in totals):
            return call.func.value
    if (isinstance(node, cst.Assign) and len(node.targets) == 1 and isinstance(node.targets[0].target, cst.Subscript)
            and isinstance(node.value, cst.Name) and node.value.value in totals):
        return node.targets[0].target
    return None


def running_total(loop: Loop) -> str | None:
    """A total the loop adds to (``position += step``) and stores at every step
    (``walk.append(position)``), reading it nowhere else: a cumulative sum, written one step at a
    time. None when there is none, or when the loop carries anything else from step to step."""
    node = loop.node
    if not isinstance(node, cst.For):
        return None
    totals = {sub.target.value for sub in walk_all(node.body) if isinstance(sub, cst.AugAssign)
              and isinstance(sub.operator, _ACCUMULATE) and isinstance(sub.target, cst.Name)}
    # reset on the way (``if x < 0: total = 0``): not one cumulative sum
    totals -= {t.target.value for sub in walk_all(node.body) if isinstance(sub, cst.Assign)
               for t in sub.targets if isinstance(t.target, cst.Name)}
    for name in sorted(totals):
        stored = frozenset({name})
        if any(_stores(sub, stored) is not None for sub in walk_all(node.body)) and not carried(loop, stored):
            return name
    return None


def _writes_what_it_reads(target: cst.BaseExpression, value: set[str], events: list[tuple[str, set[str]]]) -> bool:
    if isinstance(target, (cst.Tuple, cst.List)):
        return any(_writes_what_it_reads(e.value, value, events) for e in target.elements)
    if isinstance(target, cst.Subscript):
        root: cst.BaseExpression = target
        while isinstance(root, cst.Subscript):
            events.append(("read", set().union(*(names_read(el) for el in root.slice))))
            root = root.value
        return isinstance(root, cst.Name) and root.value in value
    events.append(("write", names_read(target)))
    return False


def _element_access(site: Site, run: Run, loop: Loop, targets: frozenset[str]) -> tuple[str, str, str] | None:
    """The numeric array, tensor or list the loop indexes with its own variables, one item at a
    time (of those it reads, the largest, else one it writes), what it held, and whether each item
    is an "element" or, one index into a 2-D array, a "row"."""
    found: list[tuple[bool, int, str, int]] = []
    cell = site.code.cell
    for node in walk_all(loop.node):
        if not isinstance(node, cst.Subscript):
            continue
        base: cst.BaseExpression = node
        indexed, indices, one = False, 0, True
        while isinstance(base, cst.Subscript):
            indexed = indexed or any(names_used(el) & targets for el in base.slice)
            one = one and all(_picks_one(site, el, targets) for el in base.slice)
            indices += len(base.slice)
            base = base.value
        if not one:
            continue  # a slice (``data[i:i + 8]``) or a list of indices (``X[cluster]``): many items at once
        dims = _dims(site.described(base.value)) if isinstance(base, cst.Name) else None
        if dims is not None and dims - indices >= 2:
            continue  # a matrix of a stack of them (``W[i] @ x``): whole-array work per step
        if indexed and isinstance(base, cst.Name) and _numeric(site, run, base.value):
            written = isinstance(cell.parent(node), cst.AssignTarget)
            found.append((not written, site.size_of(base.value) or 0, base.value, indices))
    if not found:
        return None
    _, _, name, indices = max(found)
    described = site.described(name) or ""
    return name, described, "row" if indices == 1 and re.search(r"\(\S+ x \S+\)$", described) else "element"


def _dims(described: str | None) -> int | None:
    """Dimensions of an array or tensor from its description ("(10 x 28 x 28)", "(32, 8)")."""
    shape = re.search(r"\(([\d, x]*)\)", described or "")
    if shape is None:
        return None
    text = shape.group(1).strip()
    return 0 if not text else len(re.split(r" x |, ", text))


def _picks_one(site: Site, element: cst.SubscriptElement, targets: frozenset[str]) -> bool:
    """An index that picks one position: not a slice, not a loop variable the run saw holding
    several indices (a list, an array)."""
    if not isinstance(element.slice, cst.Index):
        return False
    if isinstance(element.slice.value, (cst.Comparison, cst.BooleanOperation, cst.UnaryOperation)):
        return False  # X[labels == c], X[~seen]: a mask, every position that holds
    for name in names_used(element.slice.value) & targets:
        if site.type_of(name) in ("list", "tuple", *NUMERIC_TYPES) and (site.size_of(name) or 0) > 1:
            return False
    return True


def _numeric(site: Site, run: Run, name: str) -> bool:
    live = run.live(site, name)
    if live is not MISSING:
        return kind(live) in ("array", "tensor") or (isinstance(live, list) and _numbers_text(describe(live)))
    t = site.type_of(name)
    return t in NUMERIC_TYPES or (t == "list" and _numbers_text(site.described(name)))


def _numbers_text(described: Any) -> bool:
    text = described.text if hasattr(described, "text") else (described or "")
    return any(f" {word}" in text for word in ("int", "float"))


def _walks_numbers(site: Site, run: Run, loop: Loop) -> bool:
    """The loop walks numbers: a range, a list of numbers, a 1-D array or tensor, or ``zip`` (or
    ``enumerate``) of such, as the run saw them (a parameter: on the line that passed it)."""
    text = site.loop_text or ""
    it = unwrap_iterable(site.code.facts, loop.iter)
    qname = site.code.facts.names.qname(it.func) if isinstance(it, cst.Call) else None
    if qname == "builtins.range" or text.startswith("range(") or "range of" in text or _flat_numbers(text):
        return True
    if qname in ("builtins.zip", "builtins.enumerate") and isinstance(it, cst.Call) and it.args:
        walked = it.args if qname == "builtins.zip" else it.args[:1]
        names = [a.value.value for a in walked if isinstance(a.value, cst.Name) and not a.star]
        return len(names) == len(walked) and all(_flat_numbers(site.described(n) or argument_text(run, site, n))
                                                 for n in names)
    return False


def _walks_tensors(site: Site, run: Run, loop: Loop) -> bool:
    """The loop walks a tensor's items (directly, or through ``zip``/``enumerate``): each is a 0-d
    tensor, and each operation on it is a torch call."""
    it = unwrap_iterable(site.code.facts, loop.iter)
    qname = site.code.facts.names.qname(it.func) if isinstance(it, cst.Call) else None
    walked = (it.args if qname == "builtins.zip" else it.args[:1]) if isinstance(it, cst.Call) and qname in (
        "builtins.zip", "builtins.enumerate") else [cst.Arg(it)] if isinstance(it, cst.Name) else []
    names = [a.value.value for a in walked if isinstance(a.value, cst.Name)]
    return bool(names) and any(_tensor(site, run, n) for n in names)


def _tensor_item(site: Site, run: Run, loop: Loop) -> str | None:
    """The shape of the items of a live tensor the loop walks directly, when they are not 0-d
    (``for img in train_images``: "(3, 32, 32)")."""
    it = unwrap_iterable(site.code.facts, loop.iter)
    live = run.live(site, it.value) if isinstance(it, cst.Name) else MISSING
    shape = getattr(live, "shape", None) if live is not MISSING and kind(live) == "tensor" else None
    if shape is None or len(shape) < 2:
        return None
    return "(" + ", ".join(str(int(d)) for d in tuple(shape)[1:]) + ")"


def _flat_numbers(text: str | None) -> bool:
    """A description of numbers in one dimension ("list of 100 int", "ndarray of 9 float64")."""
    return bool(text) and _numbers_text(text) and " x " not in (text or "") and "tuple" not in (text or "")


def _number_work(site: Site, loop: Loop, targets: frozenset[str]) -> bool:
    """The body computes numbers: arithmetic on the loop's own numbers (``x * x``, ``j ^ (j >> i)``),
    a total of them (``total += x.item()``), or a body that is all numbers and conditions, such as
    numbers it makes each time (``x, y = random(), random()``, then ``x * x + y * y <= 1``)."""
    node = loop.node
    if isinstance(node, (cst.ListComp, cst.SetComp, cst.GeneratorExp)):
        return _numbers(node.elt) and bool(_operands(node.elt) & targets)
    if isinstance(node, cst.DictComp):
        return _numbers(node.value) and bool(_operands(node.value) & targets)
    for sub in walk_all(node):
        if isinstance(sub, cst.AugAssign):
            total = isinstance(sub.operator, _ACCUMULATE) and isinstance(sub.target, cst.Name)
            if total and _operands(sub.value) & targets:
                return True
    # arithmetic on numbers, or a comparison of the loop's own numbers (``if label == prediction``:
    # counting matches, a histogram keyed by the items)
    arithmetic = any(isinstance(sub, (cst.BinaryOperation, cst.Comparison))
                     and (_numbers(sub) or (isinstance(sub, cst.Comparison) and bool(_operands(sub) & targets)))
                     for sub in walk_all(node))
    return arithmetic and isinstance(node, cst.For) and numbers_only(site.code.facts, node.body)


def _numbers(node: cst.CSTNode) -> bool:
    """Arithmetic on numbers, bit operations on integers included, or a comparison of such."""
    if is_scalar_arithmetic(node):
        return True
    if isinstance(node, cst.Comparison):
        return _numbers(node.left) or any(_numbers(c.comparator) for c in node.comparisons)
    if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, _BITS):
        return all(isinstance(side, (cst.Name, cst.Integer)) or _numbers(side) for side in (node.left, node.right))
    return False


def _operands(node: cst.CSTNode) -> set[str]:
    """Names the expression computes with, leaving out those that only index (``i`` in ``xs[i]``)."""
    if isinstance(node, cst.Name):
        return {node.value}
    if isinstance(node, cst.Subscript):
        return _operands(node.value)
    out: set[str] = set()
    for child in node.children:
        out |= _operands(child)
    return out


def _called_in_a_loop(run: Run, loop: Loop) -> bool:
    """The loop's function is called from a loop or comprehension of the measured cell."""
    scope = loop.scope
    if not isinstance(scope.node, cst.FunctionDef):
        return False
    name = scope.node.name.value
    return any(isinstance(c.node.func, cst.Name) and c.node.func.value == name and c.loop is not None
               for c in run.cell.facts.calls)


def builtin_reduction(site: Site, run: Run) -> Explained | None:
    """``sum(big_array)``, ``min(...)``, ``max(...)``: Python's builtins walk an array's elements as
    Python objects, one at a time; NumPy's own reductions run in C."""
    if site.share < MIN_SHARE or site.loop is not None or site.code is not run.cell:
        return None  # one sample is enough: the line is one call, and the array's size is read live
    for call in site.code.calls_on(site.hottest.line):
        numpy_name = _REDUCERS.get(call.qname or "")
        arg = call.positional(0)
        if numpy_name is None or arg is None or not isinstance(arg.value, cst.Name) or len(call.node.args) != 1:
            continue
        live = run.live(site, arg.value.value)
        if live is MISSING or kind(live) not in ("array", "tensor"):
            continue
        d = describe(live, user_code=False)
        if d is None or (d.size or 0) < MIN_ELEMENTS:
            continue
        builtin = (call.qname or "").split(".")[-1]
        name = arg.value.value
        tensor = kind(live) == "tensor"
        instead = f"{name}.{builtin}()" if tensor else f"{numpy_name}({name})"
        evidence = (f"{run.took(site)}: {builtin}() walked the {d.size:,} elements of {name} ({d.text}) "
                    f"one at a time, as Python objects; {instead} runs in C")
        # the fixer writes NumPy's reduction (structures/reductions.py), or says why not (a tensor's own method)
        return Explained("AIP201", site, call.node, evidence, {"elements": d.size}, at=call.node,
                         advice=TENSOR_ADVICE if tensor else None)
    return None
