"""Why a site of the cell cost what it did: the shapes of code whose cost the run can prove.

Each function looks at one site (a hot loop, or a hot line) and answers with an :class:`Explained`
when the run's evidence and the code agree, whatever the code's syntax:

- AIP301: a loop over a frame's rows whose time went into pandas called per row (indexers, column
  lookups, ``iterrows``), however many accesses per row and whatever walks the rows;
- AIP302: a hot ``apply``/``map`` that called a Python function of numbers and conditions once per
  row or element (:mod:`.logic`: a function of strings has no faster whole-column form);
- AIP202: a loop testing membership in a live list (or tuple), by the lookups the run counted times
  the list's length, not by the list's length alone.

Numbers one at a time (AIP201) are in :mod:`.numbers`; loading, threads and waits (AIP101, AIP401,
AIP402) in :mod:`.loading`; model loops (AIP502, AIP506) in :mod:`.models`.
"""

from __future__ import annotations

from collections import Counter, defaultdict, deque
from typing import Any

import libcst as cst

from ...cell.tree import assigned_names, walk_all
from ...sizing import describe, kind
from ..dataframes.row_apply import axis_of, expands_to_columns
from ..dataframes.row_loops import rows_for_a_consumer
from ..evidence import loop_iterations
from ..exprs import names_used
from ..facts import Call, Loop, unwrap_iterable
from .callees import APPLY_CALLEES, PER_ROW_CALLEES, kinds_of
from .logic import PARSERS, element_parser, group_reduction, vectorisable
from .run import MISSING, Explained, Run
from .sites import APPLIERS, Site, counts

NUMERIC_TYPES = ("numpy.ndarray", "torch.Tensor")
MIN_ITERATIONS = 1_000  # a loop of fewer items, run once, is not worth a vectorised rewrite
ALONE_SHARE = 0.5  # a loop of unknown length, run once, must take this share of the cell
MIN_LIST = 8  # a list this short is scanned as fast as a set is hashed
MIN_COMPARISONS = 1_000_000  # lookups x items below this cost a few milliseconds at most
# list methods that scan the whole list for one item, as `in` does
SCANS = frozenset({"index", "count", "remove"})
# AIP202's message for the scans that are not membership tests
SCAN_ADVICE = {
    ".count": ("Counting one item at a time with list.count: each call scans the whole list; collections.Counter "
               "counts every item in one pass"),
    ".remove": ("Removing from a list inside a loop: each remove scans the list, then shifts what follows; a set, "
                "or a heap (heapq) for the smallest next, does it in one step"),
    "min()": ("The smallest item looked for by scanning the whole list at every step: a heap (heapq) gives it in "
              "one step (a priority queue, as Dijkstra's algorithm keeps one)"),
    "max()": ("The largest item looked for by scanning the whole list at every step: a heap (heapq) gives it in "
              "one step"),
}
# AIP202's message where the container is a NumPy array, not a list
ARRAY_ADVICE = ("Membership test against an array inside a loop: each test compares every element; test against "
                "a set built once, or test all the items at once (np.isin, Series.isin)")
# AIP302's message for DataFrame.map (applymap): a function called per element, not per row
ELEMENT_ADVICE = ("Element-wise `map` of a Python function over a frame: the same conditions and arithmetic on the "
                  "whole frame (comparisons, `np.where`, `DataFrame.where`) are faster")
# AIP302's message for col.apply(pd.Series)
EXPAND_ADVICE = ("A Series built per element, then a frame of them: pd.DataFrame(col.tolist(), index=col.index) "
                 "makes the same columns at once (or pd.json_normalize for nested records)")
_ROW_ACCESSORS = ("loc", "iloc", "at", "iat")
_ROW_METHODS = ("iterrows", "itertuples")


def work_shares(site: Site) -> dict[str, float]:
    """The site's kinds of work, weighted by each line's share of the site."""
    out: defaultdict[str, float] = defaultdict(float)
    total = sum(h.seconds for h in site.lines) or 1.0
    for h in site.lines:
        for k, part in kinds_of(h).items():
            out[k] += part * h.seconds / total
    return out


# -- AIP301 ---------------------------------------------------------------------------------------
def row_loop(site: Site, run: Run) -> Explained | None:
    loop = site.loop
    if loop is None or not counts(site) or rows_for_a_consumer(site.code.facts, loop):
        return None  # rows printed, written, yielded, sent away: the consumer sets the pace
    walked = _frame_walked(site, run, loop)
    if walked is None:
        return None  # pandas per row inside a loop over something else (a frame grown row by row: AIP203)
    if site.callee_share(PER_ROW_CALLEES) < 0.4 and not _row_iterator(site, loop):
        return None  # a loop over an index whose time is not pandas per row
    name, rows = walked
    what = _row_work(site, loop)
    each = f"for each of {rows:,} rows of {name}" if rows is not None else f"for each row of {name}"
    evidence = f"{run.took(site)}: {what}, {each}"
    return Explained("AIP301", site, loop.node, evidence, {"rows": rows, "iterations": site.loop_count or rows})


def _frame_walked(site: Site, run: Run, loop: Loop) -> tuple[str, int | None] | None:
    """The frame whose rows the loop walks (``df.iterrows()``, ``range(len(df))``, ``df.index``, or a
    frame on the hot lines with as many rows as the loop ran), with its rows when they were read.
    ``x.iterrows()`` in a loop whose time went into pandas is a frame's rows even when the sampler
    did not get to read ``x``."""
    facts = site.code.facts
    it = unwrap_iterable(facts, loop.iter, also=("builtins.list",))
    frame: cst.BaseExpression | None = None
    rows_method = isinstance(it, cst.Call) and isinstance(it.func, cst.Attribute)
    if rows_method and it.func.attr.value in _ROW_METHODS:  # type: ignore[union-attr]
        frame = it.func.value  # type: ignore[union-attr]
    elif isinstance(it, cst.Attribute) and it.attr.value == "index":
        frame = it.value
    elif isinstance(it, cst.Call) and facts.names.qname(it.func) == "builtins.range" and it.args:
        frame = _length_of(facts, it.args[-1].value if len(it.args) <= 2 else None)
    elif isinstance(loop.node, cst.While):  # ``while i < len(df):`` with ``i`` moved on in the body
        frame = next((f for f in (_length_of(facts, b) for b in _upper_bounds(loop.node.test)) if f is not None),
                     None)
    if isinstance(frame, cst.Name):
        rows = _rows(site, run, frame.value)
        if rows is not None:
            return frame.value, rows
        if rows_method and run.live(site, frame.value) is MISSING:
            return frame.value, site.loop_count
    n = site.loop_count
    if n is None:
        return None
    for h in site.lines:  # measured: a frame on the hot lines has exactly as many rows as the loop ran
        for name, t in h.types.items():
            if t.startswith("pandas.") and h.sizes.get(name) == n:
                return name, n
    return None


def _length_of(facts: Any, node: cst.BaseExpression | None) -> cst.BaseExpression | None:
    """``X`` of ``len(X)`` or ``X.shape[0]``: what a loop bound counts."""
    if isinstance(node, cst.Call) and facts.names.qname(node.func) == "builtins.len" and node.args:
        return node.args[0].value
    if isinstance(node, cst.Subscript) and isinstance(node.value, cst.Attribute) and node.value.attr.value == "shape":
        return node.value.value
    return None


def _upper_bounds(test: cst.BaseExpression) -> list[cst.BaseExpression]:
    """The right sides of ``a < b`` / ``a <= b`` in a condition, through ``and``."""
    if isinstance(test, cst.BooleanOperation) and isinstance(test.operator, cst.And):
        return _upper_bounds(test.left) + _upper_bounds(test.right)
    if isinstance(test, cst.Comparison) and len(test.comparisons) == 1 and isinstance(
            test.comparisons[0].operator, (cst.LessThan, cst.LessThanEqual)):
        return [test.comparisons[0].comparator]
    return []


def _row_iterator(site: Site, loop: Loop) -> bool:
    """``df.iterrows()`` or ``df.itertuples()``: the rows are the loop, whatever its body spends."""
    it = unwrap_iterable(site.code.facts, loop.iter, also=("builtins.list",))
    return isinstance(it, cst.Call) and isinstance(it.func, cst.Attribute) and it.func.attr.value in _ROW_METHODS


def _rows(site: Site, run: Run, name: str) -> int | None:
    live = run.live(site, name)
    if live is not MISSING and kind(live) in ("frame", "series"):
        return _length(live)
    t = site.type_of(name)
    return site.size_of(name) if t is not None and t.startswith("pandas.") else None


def _row_work(site: Site, loop: Loop) -> str:
    """"4 .iloc lookups per row", "iterrows builds a Series per row and 2 .loc writes per row"."""
    parts = []
    callees = site.callees()
    if any(label.startswith("DataFrame.iterrows") for label in callees):
        parts.append("iterrows built a Series per row")
    elif _row_iterator(site, loop) and not callees:
        return "the loop's Python ran once per row"
    accessors: Counter[str] = Counter()
    chained = 0
    for node in walk_all(loop.node):
        if isinstance(node, cst.Subscript):
            if isinstance(node.value, cst.Attribute) and node.value.attr.value in _ROW_ACCESSORS:
                accessors[f".{node.value.attr.value}"] += 1
            elif isinstance(node.value, cst.Subscript) and names_used(node.slice[0]) & loop.targets:
                chained += 1  # df["col"][i]
    for accessor, n in accessors.most_common():
        parts.append(f"{n} {accessor}[...] {'lookup' if n == 1 else 'lookups'} in its body")
    if chained:
        parts.append(f"{chained} column-then-row {'lookup' if chained == 1 else 'lookups'} (df[col][i]) in its body")
    return "pandas called per row: " + (", ".join(parts) if parts else "indexing one row at a time")


# -- AIP302 ---------------------------------------------------------------------------------------
def row_apply(site: Site, run: Run) -> Explained | None:
    if not counts(site):
        return None
    via = sum(site.hottest.via.values()) / max(1, site.samples)
    # an applied site starts on its call's first line, whichever line of the call was sampled; a
    # lambda on the line after ``apply(`` is sampled there
    line = site.first if site.applied else site.hottest.line
    calls = site.code.calls_on(line) + site.code.calls_around(line)
    if site.applied is None and site.callee_share(APPLY_CALLEES) + via < 0.5 and not _lambda_at(site, calls, line):
        return None  # (an applied site's other lines are the function pandas called: all of it is the apply's)
    for call in calls:
        if call.method not in ("apply", "map", "applymap") or call.receiver is None or not call.node.args:
            continue
        func = call.node.args[0].value
        if isinstance(func, (cst.Dict, cst.SimpleString)) or _holds_mapping(site, run, func):
            continue  # map(dict) / map(series) is pandas' own lookup, not a Python call per row
        grouped = _grouped(site, run, call, func)
        if grouped is not None:
            return grouped
        parsed = _parsed(site, run, call, func)
        if parsed is not None:
            return parsed
        if expands_to_columns(site.code.facts, call.node):
            root, rows = receiver_rows(site, run, call.receiver)
            if rows is None:
                continue
            walked = site.code.cell.code(call.receiver)
            evidence = (f"{run.took(site)}: apply built a Series from each of the {rows:,} elements of {walked}, "
                        "then a frame of them")
            return Explained("AIP302", site, call.node, evidence, {"rows": rows}, at=call.node, advice=EXPAND_ADVICE)
        if not vectorisable(site.code.facts, func):
            continue  # strings split, joined, searched: no whole-column form is faster than the call
        root, receiver = _receiver(site, run, call.receiver)
        if receiver is None:
            continue
        what, rows = receiver
        # DataFrame.map (applymap before pandas 2.1) calls it once per element, apply once per column
        elements = _columns(run.live(site, root)) if what == "frame" and call.method != "apply" else None
        if what == "frame" and axis_of(call) != "1" and elements is None:
            continue  # once per column
        per = "row (a Series built for each)" if what == "frame" and elements is None else "element"
        times = rows * elements if elements is not None else rows
        shape = f" ({rows:,} rows x {elements:,} columns)" if elements is not None else ""
        evidence = (f"{run.took(site)}: {call.method} called a Python function once per {per}, "
                    f"{times:,} times, on {root}{shape}")
        return Explained("AIP302", site, call.node, evidence, {"rows": rows, "elements": times if elements else None},
                         at=call.node, advice=ELEMENT_ADVICE if elements is not None else None)
    return None


def _columns(live: Any) -> int | None:
    """The columns of a live frame (``DataFrame.map`` calls its function once per element)."""
    if live is MISSING or kind(live) != "frame":
        return None
    try:
        return int(live.shape[1])
    except Exception:  # a subclass whose shape fails is not ours to insist on
        return None


def _lambda_at(site: Site, calls: list[Call], line: int) -> bool:
    """The hot line holds the lambda handed to an ``apply``/``map``: the cell's own code, so its
    samples are the function pandas calls per row, group or element (its callees are that work's)."""
    for call in calls:
        func = call.node.args[0].value if call.method in APPLIERS and call.node.args else None
        span = site.code.span(func) if isinstance(func, cst.Lambda) else None
        if span is not None and span[0] <= line <= span[1]:
            return True
    return False


def _grouped(site: Site, run: Run, call: Call, func: cst.BaseExpression) -> Explained | None:
    """``df.groupby(key).apply(lambda g: (g["q"] * g["p"]).sum())``: a Python call per group, each
    running pandas on a small frame, where the column computed once and groupby's own aggregation do it."""
    grouping = call.receiver
    if not (isinstance(grouping, cst.Call) and isinstance(grouping.func, cst.Attribute)
            and grouping.func.attr.value == "groupby" and call.method == "apply"):
        return None
    if not group_reduction(site.code.facts, func):
        return None
    root, rows = receiver_rows(site, run, grouping.func.value)
    if rows is None:
        return None
    groups = _result_rows(site, run, call.node)
    each = f" ({next((d for d in (site.described(n) for n in _params(func)) if d), 'a small frame')} when sampled)"
    counted = f"{groups:,} times, once per group" if groups is not None else "once per group"
    evidence = (f"{run.took(site)}: groupby(...).apply called a Python function {counted} of the {rows:,} rows of "
                f"{root}, each running pandas on its group{each}")
    return Explained("AIP302", site, call.node, evidence, {"rows": rows, "groups": groups}, at=call.node,
                     advice=GROUP_ADVICE, fix_reason=GROUP_FIX)


def _params(func: cst.BaseExpression) -> list[str]:
    return [p.name.value for p in func.params.params] if isinstance(func, cst.Lambda) else []


def _result_rows(site: Site, run: Run, node: cst.Call) -> int | None:
    """The rows of what the call made, when the cell bound it to a name (one row per group)."""
    for a in site.code.facts.assigns:
        if a.value is node and len(a.targets) == 1 and isinstance(a.targets[0], cst.Name):
            live = run.live(site, a.targets[0].value)
            if live is not MISSING and kind(live) in ("frame", "series"):
                return _length(live)
    return None


def _parsed(site: Site, run: Run, call: Call, func: cst.BaseExpression) -> Explained | None:
    """``s.apply(lambda t: datetime.strptime(t, fmt))``: a parser called once per element, where pandas
    parses the whole column in C; the run's callees say the time was the parsing."""
    parser = element_parser(site.code.facts, func)
    if parser is None or call.method not in ("apply", "map"):
        return None
    leaf = parser.rsplit(".", 1)[-1]
    in_parser = sum(n for label, n in site.callees().items() if leaf in label or "strptime" in label)
    parsing = in_parser / max(1, site.samples)
    if parsing < 0.5:
        return None
    root, receiver = _receiver(site, run, call.receiver) if call.receiver is not None else ("", None)
    if receiver is None or receiver[0] != "series":
        return None
    column = site.code.cell.code(call.receiver)  # type: ignore[arg-type]
    instead = PARSERS[parser].format(column=column)
    short = parser.replace("datetime.datetime.", "datetime.").replace("._parser", "")
    evidence = (f"{run.took(site)}, {parsing:.0%} of it in the parser: {call.method} called {short} once per "
                f"element, {receiver[1]:,} times, on {root}; {instead} parses the whole column at once")
    return Explained("AIP302", site, call.node, evidence, {"rows": receiver[1]}, at=call.node,
                     advice=PARSE_ADVICE, fix_reason=PARSE_FIX.format(instead=instead))


GROUP_ADVICE = ("groupby(...).apply of a function of column arithmetic and a reduction: compute the column on the "
                "whole frame, then use groupby's own aggregation (df.assign(t=a * b).groupby(key)[\"t\"].sum())")
GROUP_FIX = ("the aggregation is rewritten by hand: its result's name and the order of float sums differ from the "
             "apply's")
PARSE_ADVICE = ("An element parser applied one element at a time: pandas parses a whole column of dates in C "
                "(pd.to_datetime with the same format)")
PARSE_FIX = "not written for you: write {instead} with the format string the function passes to the parser"


def receiver_rows(site: Site, run: Run, node: cst.BaseExpression) -> tuple[str, int | None]:
    """The root name ``apply`` runs on and its rows, when the run read them."""
    root, receiver = _receiver(site, run, node)
    return root, (receiver[1] if receiver is not None else None)


def _holds_mapping(site: Site, run: Run, func: cst.BaseExpression) -> bool:
    if not isinstance(func, cst.Name):
        return False
    live = run.live(site, func.value)
    return live is not MISSING and (isinstance(live, dict) or kind(live) == "series")


def _receiver(site: Site, run: Run, node: cst.BaseExpression) -> tuple[str, tuple[str, int] | None]:
    """What ``apply`` runs on: its root name, and ("frame" or "series", rows) when known: a name,
    a column of a frame (``df["a"]``, ``df.a``: a series), or a list of its columns (a frame)."""
    root = node
    while isinstance(root, (cst.Subscript, cst.Attribute)):
        root = root.value
    if not isinstance(root, cst.Name):
        return "", None
    rows = _rows(site, run, root.value)
    if rows is None:
        return root.value, None
    if node is root:
        live = run.live(site, root.value)
        typed = "series" if "Series" in (site.type_of(root.value) or "") else "frame"
        own = kind(live) if live is not MISSING else typed
        return root.value, (own or "frame", rows)
    if isinstance(node, cst.Subscript) and node.slice and isinstance(node.slice[0].slice, cst.Index):
        key = node.slice[0].slice.value
        columns = isinstance(key, cst.List) or (
            isinstance(key, cst.Name) and isinstance(run.live(site, key.value), list))
        return root.value, ("frame" if columns else "series", rows)
    return root.value, ("series", rows)


# -- AIP202 ---------------------------------------------------------------------------------------
def list_lookups(site: Site, run: Run) -> Explained | None:
    loop = site.loop
    if loop is None or not counts(site):
        return None
    tests: list[tuple[cst.CSTNode, cst.BaseExpression, str]] = [
        (m.node, m.container, "in") for m in loop.memberships if m.loop is loop
    ]
    tests += [(c.node, c.receiver, f".{c.method}") for c in loop.calls
              if c.loop is loop and c.method in SCANS and c.receiver is not None and len(c.node.args) == 1]
    tests += [(c.node, c.node.args[0].value, f"{(c.qname or '').split('.')[-1]}()") for c in loop.calls
              if c.loop is loop and c.qname in ("builtins.min", "builtins.max") and c.node.args
              and not c.node.args[0].star and isinstance(c.node.args[0].value, cst.Name)]
    lookups = iterations(site, run)
    for node, container, op in tests:
        viewed = _values_view(site, run, container) if op == "in" else None
        if viewed is None and op == "in":
            viewed = _list_in_mapping(site, run, container)
        if viewed is not None:
            container = viewed[0]
        elif not isinstance(container, cst.Name):
            continue  # a literal list is a constant; a list built in place is the static rule's
        held = viewed[1] if viewed is not None else (
            _list_of(site, run, container.value) or (_array_of(site, run, container.value) if op == "in" else None))
        if held is None:
            continue
        n, text = held
        array = text.startswith("ndarray")
        if n < MIN_LIST:
            continue
        # a loop run once is judged by its lookups; one run per row or per call (in a lambda, a
        # function, another loop) by the time the run measured on it; a loop of unknown length that
        # took most of the cell (``while unvisited:``), by its scanning lines' share of it
        nested = loop.parent is not None or isinstance(loop.scope.node, cst.FunctionDef) or _in_lambda(site, loop)
        repeated = nested or (lookups is None and _line_share(site, node) + _header_share(site) >= ALONE_SHARE)
        small = lookups is not None and lookups * n < MIN_COMPARISONS
        if (small or lookups is None) and not (repeated and site.share >= ALONE_SHARE):
            continue
        grew = container.value in assigned_names(loop.node) and not text.endswith("when sampled")
        word = text.split(" ")[0] if text.split(" ")[0] in ("list", "deque") else "list"
        listed = f"a {word} that grew to {n:,} items" if grew else text
        if lookups is not None and not small:
            times = f", {lookups:,} times (up to {lookups * n:,} comparisons)"
        elif nested:
            times = ", in a loop that itself runs once per row or call"
        else:
            times = ", at every step of a loop the run could not count"
        word = f"`{op}`" if op == "in" else f"`{op}`" if op.endswith("()") else f"`{op}()`"
        if array:  # ndarray.__contains__ is (a == x).any(): every element compared, a new array each test
            times = times.replace("comparisons", "element comparisons")
            evidence = (f"{run.took(site)}: each `in` test compares the item with all {n:,} elements of "
                        f"{container.value} ({text}), making a new array of booleans{times}")
        else:
            evidence = f"{run.took(site)}: each {word} test scans {container.value}, {listed}, item by item{times}"
        return Explained("AIP202", site, node, evidence, {"items": n, "lookups": lookups}, at=node,
                         advice=ARRAY_ADVICE if array else SCAN_ADVICE.get(op))
    return None


def _values_view(site: Site, run: Run, node: cst.BaseExpression) -> tuple[cst.Name, tuple[int, str]] | None:
    """``d.values()`` of a live dict: ``x in d.values()`` compares x with every value, as a list does."""
    if not (isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) and node.func.attr.value == "values"
            and not node.args and isinstance(node.func.value, cst.Name)):
        return None
    live = run.live(site, node.func.value.value)
    if not isinstance(live, dict):
        return None
    return node.func.value, (len(live), f"the values of a dict of {len(live):,} items")


def _list_in_mapping(site: Site, run: Run, node: cst.BaseExpression) -> tuple[cst.Name, tuple[int, str]] | None:
    """``x in active[month]``: one of the lists a live dict (or list) of lists holds, scanned item by
    item like any list; sized by the longest of them."""
    if not (isinstance(node, cst.Subscript) and isinstance(node.value, cst.Name) and len(node.slice) == 1
            and isinstance(node.slice[0].slice, cst.Index)):
        return None
    live = run.live(site, node.value.value)
    parts = list(live.values()) if isinstance(live, dict) else live if isinstance(live, list) else None
    if not parts or not all(isinstance(p, list | tuple | deque) for p in parts):
        return None
    longest = max(len(p) for p in parts)
    kind_ = f"a {type(live).__name__} of {len(parts):,} lists"
    return node.value, (longest, f"one of the lists of {kind_}, up to {longest:,} items")


def _header_share(site: Site) -> float:
    """The share of a ``while`` loop's time on its header line: the interpreter counts the jump back to
    the header for the header, so a C call of the body that holds the GIL (``unvisited.remove(x)``)
    is often seen there, at the next point where the sampler's thread could take its turn."""
    if site.loop is None or site.loop.kind != "while" or site.seconds <= 0:
        return 0.0
    return sum(h.seconds for h in site.lines if h.line == site.first) / site.seconds


def _line_share(site: Site, node: cst.CSTNode) -> float:
    """The share of the site's time on the lines of ``node``."""
    span = site.code.span(node)
    if span is None or site.seconds <= 0:
        return 0.0
    return sum(h.seconds for h in site.lines if span[0] <= h.line <= span[1]) / site.seconds


def _in_lambda(site: Site, loop: Loop) -> bool:
    return any(isinstance(a, cst.Lambda) for a in site.code.cell.ancestors(loop.node))


def _list_of(site: Site, run: Run, name: str) -> tuple[int, str] | None:
    live = run.live(site, name)
    if live is not MISSING:
        n = _length(live) if isinstance(live, (list, tuple, deque)) else None
        if n is None:
            return None
        sampled = site.size_of(name) if site.type_of(name) in ("list", "tuple") else None
        if sampled is not None and sampled > n:  # emptied by the loop (``unvisited.remove(current)``)
            return sampled, f"{site.described(name) or f'a list of {sampled:,} items'} when sampled"
        d = describe(live, user_code=False)
        return n, d.text if d is not None else f"{type(live).__name__} of {n:,} items"
    t, n = site.type_of(name), site.size_of(name)
    if t in ("list", "tuple") and n is not None:
        return n, site.described(name) or f"a {t} of {n:,} items"
    return None


def _array_of(site: Site, run: Run, name: str) -> tuple[int, str] | None:
    """A live 1-D NumPy array (``df["id"].values``): ``x in a`` compares x with every element, with no
    early exit; a set answers each test by one hash. Other dimensions test something else."""
    live = run.live(site, name)
    if live is not MISSING:
        if kind(live) != "array" or getattr(live, "ndim", 0) != 1:
            return None
        d = describe(live, user_code=False)
        return int(live.size), d.text if d is not None else f"ndarray of {int(live.size):,} elements"
    text, n = site.described(name), site.size_of(name)
    if site.type_of(name) == "numpy.ndarray" and n is not None and text and " x " not in text:
        return n, text
    return None


def iterations(site: Site, run: Run) -> int | None:
    """The site's loop's iterations: as the sampler measured them, else, for a loop of the measured
    cell, the length of the live data it walks (``for cid in orders["customer_id"]``: the frame's rows)."""
    if site.loop_count is not None or site.loop is None or site.code is not run.cell:
        return site.loop_count
    return loop_iterations(site.loop.node, run.namespace)


def _length(live: Any) -> int | None:
    """``len()`` of a live object, or None where a subclass's own ``__len__`` fails."""
    try:
        return len(live)
    except Exception:  # a user's subclass: its length is not ours to insist on
        return None
