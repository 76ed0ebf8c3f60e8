"""pandas called many times on a little data each, where one call on everything would do (from the run).

- **pandas per iteration** (AIP301): a loop of 100 iterations or more whose time went into pandas,
  each iteration a few milliseconds: a feature row per ``groupby`` group (``g["basket"].mean()``
  for each of 3,500 users), ``replace`` of one key per pass over a column, ``json_normalize`` of
  one record at a time. Each call pays pandas' fixed cost (checks, an index, a new object) for a
  little work; ``groupby().agg``, one ``replace`` or ``map`` with the whole mapping, one
  ``json_normalize`` of the list do it in one pass.
- **a Python function per group or window** (AIP302): ``groupby(...).transform(lambda s: ...)``,
  ``rolling(20).apply(lambda w: ...)``: pandas calls the function once per group or window, each
  call on a small Series; the built-in reductions by name run in C over all of them.
"""

from __future__ import annotations

import sys
from typing import Any

import libcst as cst

from ...cell.tree import walk_all
from ...sizing import kind
from ..exprs import names_used
from ..facts import Loop
from .callees import PANDAS_CALLEES
from .run import MISSING, Explained, Run
from .shapes import iterations
from .sites import Site, counts

PANDAS_LIKE = (*PANDAS_CALLEES, "json_normalize", "SeriesGroupBy.", "DataFrameGroupBy.", "Rolling.", "Window.",
               "Expanding.", "Resampler.", "BaseGrouper.", "NDFrame.", "deprecate_nonkeyword_arguments")
GROWERS = frozenset({"concat", "append", "_append", "vstack", "hstack", "concatenate", "cat", "stack"})
MIN_ITEMS = 100  # fewer pandas calls than this cost little whatever each does
MAX_EACH_S = 0.02  # an iteration that took longer is a real job for pandas, not its per-call cost
GROUPERS = frozenset({"groupby", "rolling", "expanding", "resample", "ewm"})
PER_GROUP = frozenset({"transform", "apply", "agg", "aggregate", "filter"})
MAX_ROWS_COUNTED = 5_000_000  # groups are counted (nunique) on frames up to this many rows

ITEM_ADVICE = ("pandas called once per item: each call pays pandas' fixed costs again, or passes over the whole "
               "column again. Make one call over all the items: one replace or map with the whole mapping, "
               "json_normalize of the whole list, a whole-column expression")
GROUP_ADVICE = ("A loop over groupby groups computing a few statistics of each: one groupby(...).agg(...) with "
                "named aggregations (n=('col', 'size'), mean_x=('x', 'mean'), ...) computes them for every group "
                "in one pass")
FUNCTION_ADVICE = ("pandas calls a Python function once per group or window: the built-in reductions by name "
                   "(transform('mean'), rolling(20).mean(), .std()) run over all of them in C, and what follows "
                   "(fillna, arithmetic) runs once on the whole column")
BY_HAND = "not written for you: which one call does the loop's work depends on what each iteration computes"


def pandas_per_item(site: Site, run: Run) -> Explained | None:
    loop = site.loop
    if loop is None or not counts(site) or _pandas_share(site) < 0.5 or _grows(loop):
        return None
    groups = _grouped(site, run, loop.iter) if isinstance(loop.node, cst.For) else None
    n = iterations(site, run) or (groups[1] if groups is not None else None)
    if n is None or n < MIN_ITEMS or site.seconds / n > MAX_EACH_S:
        return None
    each = f"{site.seconds / n * 1e3:.2g} ms each"
    if groups is not None:
        evidence = f"{run.took(site)}: pandas called in each of {n:,} iterations, one per group of {groups[0]} ({each})"
        return Explained("AIP301", site, loop.node, evidence, {"iterations": n}, advice=GROUP_ADVICE,
                         fix_reason=BY_HAND)
    evidence = f"{run.took(site)}: pandas called in each of {n:,} iterations ({each})"
    return Explained("AIP301", site, loop.node, evidence, {"iterations": n}, advice=ITEM_ADVICE,
                     fix_reason=BY_HAND, fallback=True)


def applied_per_group(site: Site, run: Run) -> Explained | None:
    if site.loop is not None or not counts(site) or _pandas_share(site) < 0.5:
        return None
    line = site.hottest.line
    for call in site.code.calls_on(line) + site.code.calls_around(line):
        if call.method not in PER_GROUP or call.receiver is None or not call.node.args:
            continue
        if not isinstance(call.node.args[0].value, (cst.Lambda, cst.Name)):
            continue  # a reduction by name ("mean") runs in C
        grouper = _grouper(call.receiver)
        if grouper is None:
            continue
        how = grouper.func.attr.value  # type: ignore[attr-defined]
        count = _grouped(site, run, grouper) if how == "groupby" else _windows(site, run, grouper) if how in (
            "rolling", "expanding") else _bins(site, run, grouper) if how == "resample" else None
        unit = "group" if how in ("groupby", "resample") else "window"
        if count is None or count[1] < MIN_ITEMS or site.seconds / count[1] > MAX_EACH_S:
            return None  # a dozen groups (a least-squares fit on 40,000 rows each): the function's own work
        times = f", {count[1]:,} {unit}s of {count[0]}"
        evidence = f"{run.took(site)}: {call.method} called a Python function once per {unit}{times}"
        return Explained("AIP302", site, call.node, evidence, {"groups": count[1]},
                         at=call.node, advice=FUNCTION_ADVICE, fix_reason=BY_HAND)
    return None


def _grows(loop: Loop) -> bool:
    """``df = pd.concat([df, part])`` or ``df.loc[len(df)] = row`` in the loop: a frame grown at each
    step, AIP203's trap, not this."""
    for a in loop.assigns:
        if any(_appends_row(t) for t in a.targets):
            return True
        targets = [t.value for t in a.targets if isinstance(t, cst.Name)]
        if a.value is not None and targets and any(t in names_used(a.value) for t in targets) and any(
                isinstance(n, cst.Call) and _leaf(n.func) in GROWERS for n in walk_all(a.value)):
            return True
    return False


def _appends_row(target: cst.BaseExpression) -> bool:
    """``log.loc[len(log)] = row``: a row added at a new label, the frame grown in place."""
    if not isinstance(target, cst.Subscript):
        return False
    root: cst.BaseExpression = target.value
    while isinstance(root, (cst.Attribute, cst.Subscript)):
        root = root.value
    return isinstance(root, cst.Name) and any(root.value in names_used(el) for el in target.slice)


def _leaf(func: cst.BaseExpression) -> str:
    return func.attr.value if isinstance(func, cst.Attribute) else func.value if isinstance(func, cst.Name) else ""


def _pandas_share(site: Site) -> float:
    """The share of the site's samples in pandas: its functions by name, and on lines that hold pandas
    objects, the decorators' wrappers pandas puts around its methods (``wrapper`` of a ``<locals>``)."""
    callees = site.callees()
    typed = any(t.startswith("pandas.") for h in site.lines for t in h.types.values()) or any(
        text.startswith(("DataFrame", "Series")) for h in site.lines for text in h.locals.values())
    inside = sum(n for label, n in callees.items()
                 if label.startswith(PANDAS_LIKE) or (typed and label.endswith("<locals>.wrapper")))
    return inside / max(site.samples, sum(callees.values()), 1)


def _grouper(node: cst.BaseExpression) -> cst.Call | None:
    """The ``groupby(...)``/``rolling(...)`` call in a receiver chain (``df.groupby("k")["x"]``)."""
    while isinstance(node, (cst.Subscript, cst.Attribute, cst.Call)):
        if (isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute)
                and node.func.attr.value in GROUPERS):
            return node
        node = node.func if isinstance(node, cst.Call) else node.value
    return None


def _windows(site: Site, run: Run, call: cst.Call) -> tuple[str, int] | None:
    """``s.rolling(20)`` (or ``df["close"].rolling(20)``): one window per row of the live series."""
    root = call.func.value  # type: ignore[attr-defined]
    while isinstance(root, (cst.Subscript, cst.Attribute)):
        root = root.value
    live = run.live(site, root.value) if isinstance(root, cst.Name) else MISSING
    if live is MISSING or kind(live) not in ("frame", "series"):
        return None
    return root.value, len(live)


def _bins(site: Site, run: Run, call: cst.Call) -> tuple[str, int] | None:
    """``prices.resample("5min")`` of a live series or frame on a datetime index: the bins of that fixed
    width its first to last time spans (a calendar rule, "M", has no fixed width: not counted)."""
    root = call.func.value  # type: ignore[attr-defined]
    while isinstance(root, (cst.Subscript, cst.Attribute)):
        root = root.value
    live = run.live(site, root.value) if isinstance(root, cst.Name) else MISSING
    rule = call.args[0].value if call.args and call.args[0].keyword is None else None
    pd = sys.modules.get("pandas")
    if live is MISSING or kind(live) not in ("frame", "series") or not isinstance(rule, cst.SimpleString) or pd is None:
        return None
    if any(a.keyword is not None and a.keyword.value in ("on", "level") for a in call.args):
        return None  # bins of a column's times, not the index's
    try:
        width = pd.tseries.frequencies.to_offset(rule.evaluated_value).nanos
        index = live.index
        if not isinstance(index, pd.DatetimeIndex) or len(index) == 0:
            return None
        return root.value, int((index.max() - index.min()).value // width) + 1
    except Exception:  # a calendar rule (no fixed width), an odd index: not counted
        return None


def _grouped(site: Site, run: Run, it: cst.BaseExpression) -> tuple[str, int] | None:
    """``df.groupby("key")`` over a live frame: its name and how many groups the key makes."""
    call = _grouper(it) if isinstance(it, cst.Call) else None
    if call is None or call.func.attr.value != "groupby" or not call.args:  # type: ignore[attr-defined]
        return None
    frame = call.func.value  # type: ignore[attr-defined]
    key = call.args[0].value
    if not isinstance(frame, cst.Name) or not isinstance(key, cst.SimpleString):
        return None
    live = run.live(site, frame.value)
    if live is MISSING or kind(live) != "frame" or len(live) > MAX_ROWS_COUNTED:
        return None
    n = _nunique(live, key.evaluated_value)
    return (frame.value, n) if n is not None else None


def _nunique(frame: Any, column: Any) -> int | None:
    try:
        return int(frame[column].nunique())
    except Exception:  # a key that is not a column (an index level): not counted
        return None
