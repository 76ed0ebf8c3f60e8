"""Rewrites for the traps aiperf finds: one libcst fixer per rule code, applied in one pass.

``fix(source)`` analyses a cell and returns it with every accepted fix applied;
``attach_fixes(source, findings)`` gives each finding its own ``Fix`` (the whole rewritten cell
and its diff, or the reason no rewrite is offered).
"""

from __future__ import annotations

from collections.abc import Iterable

from ..report import Finding
from .edits import Edits, apply_edits, compatible, compiles
from .registry import TITLES, edits_for, fixers, parse, propose, to_fix

__all__ = ["attach_fixes", "fix", "fix_findings", "propose"]


def attach_fixes(source: str, findings: list[Finding]) -> None:
    """Set ``finding.fix`` for every finding whose rule has a fixer; the findings themselves stay."""
    known = fixers()
    wanted = [f for f in findings if f.code in known]
    if not wanted:
        return
    cell = parse(source)
    for finding in wanted:
        title = TITLES[finding.code]
        if isinstance(cell, str):
            from ..report import Fix

            finding.fix = Fix(title=title, reason=cell)
            continue
        finding.fix = to_fix(cell, finding, edits_for(cell, finding), title)


def fix_findings(source: str, findings: Iterable[Finding], *, unsafe: bool = False) -> str:
    """Apply the fixes of ``findings`` (safe ones, plus unsafe ones when asked) in one pass."""
    cell = parse(source)
    if isinstance(cell, str):
        return source
    accepted: list[Edits] = []
    for finding in findings:
        edits = edits_for(cell, finding)
        if not isinstance(edits, Edits) or (edits.safety != "safe" and not unsafe):
            continue
        if compatible(cell, accepted, edits):
            accepted.append(edits)
    if not accepted:
        return source
    new = apply_edits(cell, accepted)
    if compiles(new):
        return new
    # Should not happen; if two fixes disagree, keep the longest prefix of fixes that compiles.
    while accepted:
        accepted.pop()
        new = apply_edits(cell, accepted) if accepted else source
        if compiles(new):
            return new
    return source


def fix(source: str, *, select: Iterable[str] | None = None, unsafe: bool = False) -> str:
    """Analyse ``source`` and return it with every proposed fix of the allowed safety applied.

    ``select`` limits the rules (codes or prefixes such as ``"AIP3"``); ``unsafe=True`` also applies
    fixes that may change results or behaviour. Returns ``source`` unchanged when nothing applies,
    and never returns invalid Python.
    """
    from ..rules import analyze  # the detectors live beside the fixes; imported on use

    findings = analyze(source, select=list(select) if select is not None else None, fixes=False)
    return fix_findings(source, findings, unsafe=unsafe)
