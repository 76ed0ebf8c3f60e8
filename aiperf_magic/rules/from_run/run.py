"""What the shapes share about one measured cell: the Report, the live namespace, the cell's code,
and the words that quote the run ("line 5 took 98 % of the 0.88 s cell")."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import libcst as cst

from ... import units as fmt
from ...cell.tree import assigned_names
from ...report import Report
from ..facts import Loop
from .sites import Code, Site

MISSING = object()


@dataclass
class Explained:
    """Why a site cost what it did: the trap's code, the node its rule's fixer receives, and the
    run's evidence in words and numbers."""

    code: str
    site: Site
    node: cst.CSTNode | None  # None: nothing in the measured cell to rewrite (the loop is elsewhere)
    evidence: str
    numbers: dict[str, Any] = field(default_factory=dict)
    at: cst.CSTNode | None = None  # where the finding sits in the cell, when not ``node`` or the site's loop
    fix_reason: str | None = None  # why the rule's fixer is not asked (what to write instead)
    advice: str | None = None  # the rule's message in words that fit what the line does (tensors, not NumPy)
    fallback: bool = False  # a general shape: placed after the specific ones that explain the same line


@dataclass
class Run:
    report: Report
    namespace: Mapping[str, Any]
    cell: Code

    @property
    def wall_s(self) -> float:
        return self.report.wall_s

    def lines(self, site: Site) -> str:
        """"line 5", "lines 3-6" (as the user counts the cell's lines), or, for code elsewhere,
        "lines 9-10 of add_features (cell [1])"."""
        if site.code is self.cell:
            first, last = self.report.cell_line(site.first), self.report.cell_line(site.last)
            hot = self.report.cell_line(site.hottest.line)
            if first == last or site.loop is None:
                return f"line {hot}"
            # a loop's time on its header alone is its body's (a pure-Python loop gives up the GIL there)
            return f"lines {first}-{last}" if len(site.lines) > 1 or hot == first else f"line {hot}"
        function = site.hottest.function or "a function"
        span = f"line {site.hottest.line}" if len(site.lines) == 1 else f"lines {site.first}-{site.last}"
        return f"{span} of {function.split('.<locals>')[0]} ({site.code.where})"

    def took(self, site: Site) -> str:
        """The site's share of the cell, with what threads ran it."""
        threads = f" in {site.threads} threads" if site.threads > 1 else ""
        return f"{self.lines(site)} took {fmt.percent(site.share)} of the {fmt.seconds(self.wall_s)} cell{threads}"

    def live(self, site: Site, name: str) -> Any:
        """The live object a name of the site held: the cell's own names from the namespace (their
        value when the cell ended), or a parameter of the site's function bound by the measured
        cell's call to it (``compute_reciprocals(big_array)``: ``values`` is ``big_array``)."""
        if site.code is self.cell and name in self.namespace and not _bound_in_function(site.loop, name):
            return self.namespace[name]
        found = self._argument(site, name)
        if found is MISSING and _a_cell(site.code) and name in self.namespace and _global_of(site, name):
            # a function of an earlier cell reads the kernel's namespace as its globals: a name it
            # neither takes nor binds is the one the user sees (``stop_words`` of ``remove_stopwords``)
            return self.namespace[name]
        return found

    def _argument(self, site: Site, name: str) -> Any:
        scope = site.loop.scope if site.loop is not None else None
        func = scope.node if scope is not None else None
        if not isinstance(func, cst.FunctionDef):
            return MISSING
        params = [p.name.value for p in func.params.params]
        if name not in params:
            return MISSING
        for call in self.cell.facts.calls:
            if not (isinstance(call.node.func, cst.Name) and call.node.func.value == func.name.value):
                continue
            arg = call.kwarg(name) or call.positional(params.index(name))
            if arg is not None and isinstance(arg.value, cst.Name) and arg.value.value in self.namespace:
                return self.namespace[arg.value.value]
        return MISSING


def _a_cell(code: Code) -> bool:
    """Code of an earlier cell of this kernel (``cell [3]``), whose globals are the user's namespace;
    a module's functions read their own module's globals."""
    return code.where is not None and code.where.startswith("cell [")


def _global_of(site: Site, name: str) -> bool:
    """``name`` is free in the function holding the site (not a parameter, not bound there) and the
    code's module level binds nothing else of that name (which would be the same global anyway)."""
    scope = site.loop.scope if site.loop is not None else None
    while scope is not None and not isinstance(scope.node, cst.FunctionDef):
        scope = scope.parent
    if scope is None:
        return False  # module-level code of another cell: its names may have changed since
    func = scope.node
    assert isinstance(func, cst.FunctionDef)
    return scope.binder(name) is None and name not in assigned_names(func.body)


def _bound_in_function(loop: Loop | None, name: str) -> bool:
    """A parameter or a local of the function the loop is in: not the global of that name."""
    if loop is None or not isinstance(loop.scope.node, cst.FunctionDef):
        return False
    return loop.scope.binder(name) is not None or name in assigned_names(loop.scope.node.body)


def count(n: int | None, what: str) -> str:
    return f"{n:,} {what}" if n is not None else what
