"""From findings to rewrites: each rule's fixer, run on the node its detector flagged.

``attach_fixes`` gives every finding of a fixable rule its own :class:`~aiperf_magic.report.Fix`
(the whole rewritten cell and its diff, or the reason no rewrite is offered) and sets
``finding.fixable`` to whether it got one. ``fix_findings`` applies several fixes in one pass;
``fix`` is the public "analyse, then apply every fix of the allowed safety" entry point.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace
from typing import Any

import libcst as cst

from ..fixes.edits import Edits, bound_names, compatible, rewrite_python, unified_diff
from ..report import Finding, Fix
from .engine import Analysis, analyze_cell
from .registry import all_rules

# What a fixer may raise on an unusual shape: it must not take the whole report down.
_FIXER_ERRORS = (cst.ParserSyntaxError, cst.CSTValidationError, ValueError, KeyError, AttributeError, TypeError)


def attach_fixes(analysis: Analysis, *, sources: bool = True) -> None:
    """Set ``finding.fix`` (and ``finding.fixable``) for every finding; the findings themselves stay.

    ``sources=False`` drops each rewritten cell and its diff as soon as it is built and checked."""
    rules = all_rules()
    for finding in analysis.findings:
        rule = rules.get(finding.code)
        if rule is None or rule.fixer is None:
            finding.fixable = False
            continue
        fix = to_fix(analysis, finding, edits_for(analysis, finding), diff=sources)
        finding.fixable = bool(fix.source)
        finding.fix = fix if sources else replace(fix, source="", diff="")


def edits_for(analysis: Analysis, finding: Finding) -> Edits | str | None:
    """The fixer's answer for ``finding``: its edits, why it offers none, or None (no fixer)."""
    rule = all_rules().get(finding.code)
    if rule is None or rule.fixer is None:
        return None
    node = analysis.node_of(finding)
    if node is None or analysis.cell is None or analysis.facts is None:
        return "the finding no longer matches the cell's code"
    try:
        with bound_names(analysis.facts.names.bound_to, analysis.facts.names.holds):
            return rule.fixer(analysis.cell, node, analysis.facts)
    except _FIXER_ERRORS as exc:
        return f"the rewrite could not be built here ({type(exc).__name__}: {exc})"


def to_fix(analysis: Analysis, finding: Finding, edits: Edits | str | None, *, diff: bool = True) -> Fix:
    title = all_rules()[finding.code].fix_title
    if edits is None or isinstance(edits, str):
        return Fix(title=title, reason=edits or f"no rewrite exists for {finding.code}")
    cell = analysis.cell
    assert cell is not None

    def kept(**more: str) -> Fix:
        return Fix(title=edits.title, safety=_safety(edits), measure_first=edits.measure_first, **more)

    python = rewrite_python(cell, [edits])
    if python is None:  # never hand out invalid Python
        return kept(reason="the rewrite would not compile")
    new = cell.python.restore(python)
    if new is None:
        return kept(reason="the rewrite would change a line of IPython syntax")
    if new == analysis.source:
        return kept(reason="the rewrite changes nothing")
    return kept(source=new, diff=unified_diff(analysis.source, new) if diff else "")


def _safety(edits: Edits) -> str:
    # a rewrite whose gain depends on size is never applied without consent: it counts as unsafe
    return "unsafe" if edits.needs_consent else "safe"


def fix_findings(
    source: str,
    findings: Iterable[Finding],
    *,
    unsafe: bool = False,
    namespace: Mapping[str, Any] | None = None,
) -> str:
    """Apply the fixes of ``findings`` (safe ones, plus unsafe ones when asked) in one pass.

    The findings may come from an earlier report: they are matched to a fresh analysis of
    ``source`` by code and position. Returns ``source`` unchanged when nothing applies.
    """
    wanted = list(findings)
    codes = sorted({f.code for f in wanted})
    if not codes:
        return source
    analysis = analyze_cell(source, select=codes, namespace=namespace)
    return apply_fixes(analysis, _matching(analysis, wanted), unsafe=unsafe)


def apply_fixes(analysis: Analysis, findings: Iterable[Finding] | None = None, *, unsafe: bool = False) -> str:
    """The analysed cell with the fixes of ``findings`` (default: all of its findings) applied."""
    cell = analysis.cell
    if cell is None:
        return analysis.source
    accepted: list[Edits] = []
    for finding in analysis.findings if findings is None else findings:
        edits = edits_for(analysis, finding)
        if not isinstance(edits, Edits) or (edits.needs_consent and not unsafe):
            continue
        if compatible(cell, accepted, edits):
            accepted.append(edits)
    # two fixes that disagree: keep the longest prefix of fixes that compiles
    while accepted:
        python = rewrite_python(cell, accepted)
        new = cell.python.restore(python) if python is not None else None
        if new is not None:
            return new
        accepted.pop()
    return analysis.source


def fix(source: str, *, select: Iterable[str] | None = None, unsafe: bool = False) -> str:
    """Analyse ``source`` and return it with every proposed fix of the allowed safety applied.

    ``select`` limits the rules (codes or prefixes such as ``"AIP3"``); ``unsafe=True`` also applies
    fixes that may change results or behaviour. Returns ``source`` unchanged when nothing applies,
    and never returns invalid Python.
    """
    return apply_fixes(analyze_cell(source, select=list(select) if select is not None else None), unsafe=unsafe)


def propose(source: str, finding: Finding, namespace: Mapping[str, Any] | None = None) -> Fix | None:
    """The rewrite of the whole cell for one finding (``Fix.reason`` set when none applies);
    None when the finding's rule has no fixer."""
    rule = all_rules().get(finding.code)
    if rule is None or rule.fixer is None:
        return None
    analysis = analyze_cell(source, select=[finding.code, "AIP000"], namespace=namespace)
    if analysis.cell is None:
        problem = next((f.message for f in analysis.findings), "it is not Python")
        return Fix(title=rule.fix_title, reason=f"the cell does not parse: {problem}")
    matched = _matching(analysis, [finding])
    if not matched:
        return Fix(title=rule.fix_title, reason="the finding no longer matches the cell's code")
    return to_fix(analysis, matched[0], edits_for(analysis, matched[0]))


def _matching(analysis: Analysis, wanted: list[Finding]) -> list[Finding]:
    """The fresh findings that stand where ``wanted`` ones stood (same code and line; column if known)."""
    exact = {(f.code, f.line, f.col) for f in wanted}
    lines = {(f.code, f.line) for f in wanted}
    out = [f for f in analysis.findings if (f.code, f.line, f.col) in exact]
    if len(out) < len(wanted):
        out += [f for f in analysis.findings if f not in out and (f.code, f.line) in lines]
    return out
