"""Which fixer answers which rule code, and how a fixer's edits become a :class:`report.Fix`."""

from __future__ import annotations

import importlib
from collections.abc import Callable

import libcst as cst

from ..report import Finding, Fix
from .base import Cell
from .edits import Edits, apply_edits, compiles, unified_diff

# A fixer reads the cell and the finding and returns its edits, or a sentence saying why it offers none.
Fixer = Callable[[Cell, Finding], Edits | str]

FIXERS: dict[str, Fixer] = {}
TITLES: dict[str, str] = {}
_MODULES = ("loaders", "numeric", "frames", "readers", "concurrency", "tensors")
_loaded = False


def fixer(code: str, title: str) -> Callable[[Fixer], Fixer]:
    """Register ``fn`` as the fixer of ``code``; ``title`` names the rewrite for a user."""

    def register(fn: Fixer) -> Fixer:
        FIXERS[code] = fn
        TITLES[code] = title
        return fn

    return register


def fixers() -> dict[str, Fixer]:
    global _loaded
    if not _loaded:
        for name in _MODULES:
            importlib.import_module(f"aiperf_magic.rules.fixers.{name}")
        _loaded = True
    return FIXERS


def edits_for(cell: Cell, finding: Finding) -> Edits | str | None:
    """The fixer's answer for ``finding``; None when no fixer exists for its code."""
    fn = fixers().get(finding.code)
    if fn is None:
        return None
    try:
        return fn(cell, finding)
    except (cst.ParserSyntaxError, ValueError, KeyError, AttributeError, TypeError) as exc:
        # a fixer that trips on an unusual shape must not take the whole report down
        return f"the rewrite could not be built here ({type(exc).__name__}: {exc})"


def parse(source: str) -> Cell | str:
    try:
        return Cell(source)
    except cst.ParserSyntaxError as exc:
        return f"the cell does not parse: {str(exc).splitlines()[0]}"


def propose(source: str, finding: Finding) -> Fix | None:
    """The rewrite of the whole cell for one finding (``Fix.reason`` set when none applies)."""
    if finding.code not in fixers():
        return None
    cell = parse(source)
    title = TITLES[finding.code]
    if isinstance(cell, str):
        return Fix(title=title, reason=cell)
    return to_fix(cell, finding, edits_for(cell, finding), title)


def to_fix(cell: Cell, finding: Finding, edits: Edits | str | None, title: str) -> Fix:
    if edits is None or isinstance(edits, str):
        return Fix(title=title, reason=edits or f"no rewrite exists for {finding.code}")
    new = apply_edits(cell, [edits])
    if new == cell.source:
        return Fix(title=edits.title, safety=edits.safety, reason="the rewrite changes nothing")
    if not compiles(new):  # never hand out invalid Python
        return Fix(title=edits.title, safety=edits.safety, reason="the rewrite would not compile")
    return Fix(title=edits.title, safety=edits.safety, source=new, diff=unified_diff(cell.source, new))
