"""From explained sites to the findings the report shows.

Each :class:`~.run.Explained` becomes one finding on the line that costs, with the run's evidence in
its message and in ``finding.evidence``. When a static rule of the same code already flagged that
code (the same loop, the same call, or for AIP101/AIP401 the loader or the threads the hot loop
runs), that finding is the one shown, moved to the costly line if it sat on a line that cost nothing,
and keeps its rewrite. Otherwise the finding is new, and the rule's fixer is asked for the rewrite of
the node the evidence points at, as if the rule had flagged it: a fixer that cannot rewrite it says
why. A finding about a function defined in another cell sits on this cell's line that calls it; its
rewrite belongs to that cell.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Mapping
from typing import Any

import libcst as cst

from ...report import Finding, Fix, Hotspot, Report
from ..engine import Analysis
from ..facts import unwrap_iterable
from ..fixing import edits_for, to_fix
from ..fixing_earlier import fix_in_earlier_cell
from ..registry import all_rules
from ..suppress import is_suppressed
from .array_edits import array_edited
from .conversions import tensor_from_arrays
from .coroutines import awaited_one_by_one, blocking_coroutine, waited_as_submitted
from .flatten import list_rebuilt, list_sum, text_grown
from .helpers import caller_of, helper_sites, top_function
from .interpreted import interpreted_loop
from .judge import judge_static
from .keyed import keyed_scans
from .loading import blocking_apply, blocking_io, cpu_threads, db_queries, loader_loop
from .models import model_autograd, model_dispatch, one_sample_steps
from .numbers import numeric_loop
from .pandas_calls import applied_per_group, pandas_per_item
from .quoted import quote_time
from .rereads import archive_members, file_reread
from .run import MISSING, Explained, Run
from .scans import applied_scans, front_pops
from .shapes import list_lookups, row_apply, row_loop
from .sites import Code, Site, applied_sites, sites_of
from .vectorized import vectorized_call, vectorized_sites
from .writes import db_commits, file_appends

Shape = Callable[[Site, Run], "Explained | None"]
# codes whose static finding sits on a line that costs nothing (a DataLoader(...), a Thread(...)): the
# finding moves to the line where the time went, and keeps its rewrite of the constructor
MOVED = frozenset({"AIP101", "AIP401"})
# asked in this order; the first group that explains a site names it, with every trap of that group
# (a model loop can both keep autograd on and be dispatch-bound)
SHAPES: tuple[tuple[Shape, ...], ...] = (
    (loader_loop,), (cpu_threads,), (model_autograd, model_dispatch, one_sample_steps), (tensor_from_arrays,),
    (row_apply, applied_scans, applied_per_group), (row_loop,), (list_lookups, front_pops), (keyed_scans,),
    (blocking_io, blocking_apply, blocking_coroutine, awaited_one_by_one, waited_as_submitted),
    (db_queries,), (db_commits, file_appends), (list_sum,), (list_rebuilt, text_grown, array_edited),
    (file_reread, archive_members),
    (pandas_per_item,), (numeric_loop,), (interpreted_loop,),
)


def explain(site: Site, run: Run) -> list[Explained]:
    for group in SHAPES:
        found = [e for e in (shape(site, run) for shape in group) if e is not None]
        if found:
            return found
    return []


def findings_from_run(analysis: Analysis, report: Report, namespace: Mapping[str, Any]) -> list[Finding]:
    """Add to ``analysis.findings`` what the run's hot lines explain; returns the findings it made
    or changed."""
    if analysis.cell is None or analysis.facts is None or not (report.hotspots or report.function_lines):
        return []
    run = Run(report, namespace, Code(analysis.cell, analysis.facts))
    placed: list[Finding] = []
    seen: set[tuple[str, int]] = set()
    found: list[tuple[Explained, Hotspot | None]] = []
    for site in sites_of(run.cell, report.hotspots):
        found += [(ex, None) for ex in explain(site, run)]
    for site in applied_sites(run.cell, report.hotspots):
        found += [(ex, None) for ex in (row_apply(site, run),) if ex is not None]
    for site, call, pyfunc in vectorized_sites(run.cell, report.hotspots):
        found += [(ex, None) for ex in (vectorized_call(site, run, call, pyfunc),) if ex is not None]
    for site, caller in helper_sites(run):
        found += [(ex, caller) for ex in explain(site, run)]
    found.sort(key=lambda item: item[0].fallback)  # hottest first within each: sites_of sorts them so
    for ex, caller in found:
        if ex.site.code is not run.cell and caller is None:
            caller = caller_of(run, ex.site)
            if caller is None:
                continue  # a function of elsewhere that no line of this cell called (a background thread)
        finding = _place(analysis, run, ex, caller, seen, placed)
        if finding is not None:
            seen.add((finding.code, finding.line or 0))
            placed.append(finding)
    _overruled(analysis, [ex for ex, caller in found if caller is None and ex.site.loop is not None], placed)
    quote_time(analysis, run, placed)
    judge_static(analysis, report, namespace)
    return placed


def _overruled(analysis: Analysis, explained: list[Explained], placed: list[Finding]) -> None:
    """A static AIP201 (arithmetic one element at a time) on a loop whose time the run put elsewhere
    (pandas per row, a loader, a model, the network): the arithmetic is not what the loop costs."""
    for ex in explained:
        if ex.code == "AIP201" or ex.site.loop is None:
            continue
        span = ex.site.code.span(ex.site.loop.node)
        if span is None:
            continue
        for f in analysis.findings:
            inside = f.line is not None and span[0] <= f.line <= span[1]
            if f.code == "AIP201" and f.shown and inside and all(f is not p for p in placed):
                f.shown, f.evidence["judged"] = False, True
                f.hidden_reason = f"the run put this loop's time elsewhere ({ex.code}): its arithmetic is not the cost"


def _place(analysis: Analysis, run: Run, ex: Explained, caller: Hotspot | None,
           seen: set[tuple[str, int]], placed: list[Finding]) -> Finding | None:
    """The finding of one explanation: a static one given the evidence, or a new one; None when the
    trap is already reported there (one finding per trap and line, the hottest explanation's)."""
    at = _position(run, ex, caller)
    if at is None:
        return None
    line, col, end_line, end_col = at
    if (ex.code, line) in seen or is_suppressed(analysis.source.splitlines(), line, end_line, ex.code):
        return None
    rule = all_rules()[ex.code]
    # a loader or threads made in this cell and used by a function of elsewhere are still this cell's
    static = (_static_match(analysis, run, ex, line, end_line, caller)
              if caller is None or ex.code in MOVED else None)
    numbers = {"share": round(ex.site.share, 4), "seconds": round(ex.site.seconds, 6),
               "hot_line": ex.site.hottest.line if caller is None else caller.line,
               **{k: v for k, v in ex.numbers.items() if v is not None}}
    sentence = ex.evidence[:1].upper() + ex.evidence[1:]
    if static is not None and any(static[0] is f for f in placed):
        return None  # that trap already has its evidence (from a hotter site)
    if static is not None:
        finding, node = static
        if ex.code in MOVED:  # its line cost nothing: it moves to where the time went
            finding.line, finding.col, finding.end_line, finding.end_col = line, col, end_line, end_col
    else:
        finding = Finding(code=ex.code, name=rule.name, message=rule.message, line=line, col=col,
                          end_line=end_line, end_col=end_col, preview=rule.preview)
        analysis.findings.append(finding)
        node = ex.node if ex.site.code is run.cell else None
        if node is not None:
            analysis.nodes[id(finding)] = node
        _fix(analysis, run, finding, node, ex, rule.fixer is not None)
    if ex.advice is not None and finding.message == rule.message:
        finding.message = ex.advice  # a static rule's own words are kept: they name this code
    finding.message = f"{sentence}. {finding.message}"
    finding.evidence.update(numbers)
    finding.evidence["from_run"] = True
    finding.shown, finding.hidden_reason = True, None
    return finding


def _fix(analysis: Analysis, run: Run, finding: Finding, node: cst.CSTNode | None, ex: Explained,
         fixable: bool) -> None:
    if not fixable:
        return
    if ex.fix_reason is not None:
        finding.fix = Fix(title=all_rules()[finding.code].fix_title, reason=ex.fix_reason)
        finding.fixable = False
        return
    if node is None:  # the loop is in a function of elsewhere: rewritten there, when it is an earlier cell
        code = ex.site.code
        finding.fix = fix_in_earlier_cell(finding, analysis.source, code.cell, code.facts, ex.node, code.where,
                                          ex.site.hottest.file, run.namespace, lambda name: _argument(run, ex, name),
                                          label=top_function(ex.site.hottest.function) or None)
        finding.fixable = bool(finding.fix.source)
        return
    finding.fix = to_fix(analysis, finding, edits_for(analysis, finding))
    finding.fixable = bool(finding.fix.source)


def _argument(run: Run, ex: Explained, name: str) -> object:
    """What the cell's call bound to a parameter of the function holding the site (a name's live
    value, or a number or string written in the call: ``moving_average(close, 50)``), or None."""
    value = run.live(ex.site, name)
    if value is not MISSING:
        return value
    scope = ex.site.loop.scope if ex.site.loop is not None else None
    while scope is not None and not isinstance(scope.node, cst.FunctionDef):
        scope = scope.parent
    func = scope.node if scope is not None else None
    if not isinstance(func, cst.FunctionDef):
        return None
    params = [p.name.value for p in func.params.params]
    for call in run.cell.facts.calls:
        if isinstance(call.node.func, cst.Name) and call.node.func.value == func.name.value and name in params:
            arg = call.kwarg(name) or call.positional(params.index(name))
            if arg is not None and isinstance(arg.value, (cst.Integer, cst.Float, cst.SimpleString)):
                return ast.literal_eval(run.cell.cell.code(arg.value))
    return None


def _position(run: Run, ex: Explained, caller: Hotspot | None) -> tuple[int, int, int, int] | None:
    cell = run.cell.cell
    if ex.code == "AIP401":
        # threads running a function of elsewhere: the line that hands it to them
        # (``Thread(target=work)``, ``pool.map(work, chunks)``) is the one a fix changes
        via = ex.site.hottest.via
        function = (top_function(ex.site.hottest.function) if ex.site.code is not run.cell
                    else top_function(max(via, key=via.__getitem__)) if via else None)
        handing = _handing(run, function) if function else None
        if handing is not None:
            return cell.user_range(handing)
    if caller is not None:  # the cell's line that called into the function
        text = run.report.source.splitlines()[caller.line - 1] if run.report.source else ""
        indent = len(text) - len(text.lstrip())
        return caller.line, indent + 1, caller.line, len(text.rstrip()) + 1
    node = ex.at or (ex.site.loop.node if ex.site.loop is not None else None)
    if node is not None:
        return cell.user_range(node)
    line = ex.site.hottest.line
    return line, 1, line, 1


def _handing(run: Run, function: str) -> cst.Call | None:
    """The cell's first call that hands ``function`` over by name (``target=function``, an argument)."""
    leaf = function.split(".")[-1]
    for call in run.cell.facts.calls:
        if any(isinstance(a.value, cst.Name) and a.value.value == leaf for a in call.node.args):
            return call.node
    return None


def _static_match(analysis: Analysis, run: Run, ex: Explained, line: int, end_line: int,
                  caller: Hotspot | None = None) -> tuple[Finding, cst.CSTNode | None] | None:
    """The static finding of the same code that names the same trap."""
    same = [f for f in analysis.findings if f.code == ex.code]
    for f in same:
        node = analysis.node_of(f)
        if node is not None and node is ex.node:
            return f, node
    if ex.code == "AIP101":
        return _loader_finding(analysis, ex, same, caller)
    if ex.code == "AIP401":
        return next(((f, analysis.node_of(f)) for f in same), None)
    for f in same:
        if f.line is not None and f.line <= end_line and (f.end_line or f.line) >= line:
            return f, analysis.node_of(f)
    return None


def _loader_finding(analysis: Analysis, ex: Explained, same: list[Finding], caller: Hotspot | None
                    ) -> tuple[Finding, cst.CSTNode | None] | None:
    """The static AIP101 finding on the ``DataLoader(...)`` that the hot loop iterates: the loop's own
    iterable, or, for a loop in a function of elsewhere, a loader the calling line hands it."""
    loop = ex.site.loop
    facts = analysis.facts
    if loop is None or facts is None:
        return None
    if caller is not None:
        names = set(_words(caller.text))
    else:
        it = unwrap_iterable(facts, loop.iter)
        names = {it.value} if isinstance(it, cst.Name) else set()
    for f in same:
        node = analysis.node_of(f)
        bound = {t.value for a in facts.assigns if a.value is node for t in a.targets if isinstance(t, cst.Name)}
        if names & bound:
            return f, node
    return None


def _words(text: str) -> list[str]:
    return re.findall(r"[A-Za-z_][A-Za-z0-9_]*", text)
