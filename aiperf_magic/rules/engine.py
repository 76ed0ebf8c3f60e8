"""``analyze``: a cell's source in, :class:`~aiperf_magic.report.Finding` objects out.

One parse (:mod:`aiperf_magic.cell.parsed`), one traversal (:mod:`.facts`), then every selected
rule queries the facts. Positions are computed only when something was found, and mapped back to
the user's own lines. The same parse is handed to the fixers (:mod:`.fixing`), which receive the
very nodes the detectors flagged; :func:`aiperf_magic.rules.analyze` does both.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

import libcst as cst

from ..cell.parsed import ParsedCell, ParseFailure, parse, recursion_headroom
from ..report import Finding
from .collector import Collector
from .facts import Facts
from .families import PARSE_ERROR
from .names import Names
from .registry import Rule, code_selected, selected
from .suppress import is_suppressed
from .symbols import Symbol


@dataclass
class Context:
    """What earlier cells of a notebook taught about names, for the cells after them."""

    imports: dict[str, str] = field(default_factory=dict)
    symbols: dict[str, Symbol] = field(default_factory=dict)
    functions: dict[str, str] = field(default_factory=dict)  # name -> "cpu" | "io" | "other"
    flags: set[str] = field(default_factory=set)  # "cuda", "compile", "autocast", "train"
    definitions: dict[str, cst.FunctionDef] = field(default_factory=dict)  # for AIP302's apply(f)


@dataclass
class Analysis:
    """One analysed cell: its parse, its facts, and each finding with the node its rule flagged."""

    source: str
    cell: ParsedCell | None = None
    facts: Facts | None = None
    findings: list[Finding] = field(default_factory=list)
    nodes: dict[int, cst.CSTNode] = field(default_factory=dict)  # id(finding) -> flagged node

    def node_of(self, finding: Finding) -> cst.CSTNode | None:
        return self.nodes.get(id(finding))


def analyze_cell(
    source: str,
    *,
    select: Iterable[str] | str | None = None,
    ignore: Iterable[str] | str | None = None,
    namespace: Mapping[str, Any] | None = None,
    context: Context | None = None,
    preview: bool = False,
) -> Analysis:
    """The parse, facts and findings of one cell, kept together for the fixers."""
    analysis = prepare_cell(source, select=select, ignore=ignore, namespace=namespace, context=context, preview=preview)
    find(analysis, select=select, ignore=ignore, preview=preview)
    return analysis


def prepare_cell(
    source: str,
    *,
    select: Iterable[str] | str | None = None,
    ignore: Iterable[str] | str | None = None,
    namespace: Mapping[str, Any] | None = None,
    context: Context | None = None,
    preview: bool = False,
) -> Analysis:
    """One cell parsed and its facts gathered (``context`` learns its names), no rule run yet;
    a cell that cannot be read gets its AIP000 finding here."""
    analysis = Analysis(source)
    parsed = parse(source)
    if parsed is None:  # another language (%%bash ...)
        return analysis
    if isinstance(parsed, ParseFailure):
        if code_selected(PARSE_ERROR, select, ignore, preview=preview):
            analysis.findings.append(_parse_finding(parsed))
        return analysis
    analysis.cell = parsed
    with recursion_headroom():
        try:
            analysis.facts = _collect(parsed, namespace, context)
        except RecursionError:
            analysis.findings.append(_too_deep())
            return analysis
    if context is not None:
        _remember(context, analysis.facts)
    return analysis


def find(
    analysis: Analysis,
    *,
    select: Iterable[str] | str | None = None,
    ignore: Iterable[str] | str | None = None,
    preview: bool = False,
    notebook: list[Facts] | None = None,
) -> None:
    """Run the selected rules on a prepared cell. ``notebook`` holds the facts of every cell of
    its notebook, later ones too: a rule may ask whether the notebook trains, or how a loader
    made three cells below uses a dataset defined here."""
    facts = analysis.facts
    if facts is None:
        return
    facts.notebook = notebook or []
    rules = [r for r in selected(select, ignore, preview=preview) if r.check is not None]
    with recursion_headroom():
        try:
            hits = [(r, hit) for r in rules for hit in r.check(facts)]  # type: ignore[misc]
        except RecursionError:
            analysis.findings.append(_too_deep())
            return
    if hits:
        _findings(analysis, hits)


def _too_deep() -> Finding:
    return _parse_finding(ParseFailure("not-analysed", "The code nests too deeply to be analysed.", 1, 1))


def _parse_finding(failure: ParseFailure) -> Finding:
    return Finding(
        code=PARSE_ERROR, name=failure.kind, message=failure.message, line=failure.line, col=failure.col,
        end_line=failure.line, end_col=failure.col,
    )


def _collect(cell: ParsedCell, namespace: Mapping[str, Any] | None, context: Context | None) -> Facts:
    names = Names(
        earlier=dict(context.imports) if context else {},
        namespace=namespace,  # read, never copied: a kernel's namespace can be large
    )
    collector = Collector(cell.module, names, dict(context.symbols) if context else {})
    collector.facts.cell = cell
    if context is not None:
        collector.facts.earlier_functions = dict(context.functions)
        collector.facts.earlier_flags = set(context.flags)
        collector.facts.earlier_defs = dict(context.definitions)
    collector.walk(cell.module)
    return collector.facts


def _findings(analysis: Analysis, hits: list[tuple[Rule, Any]]) -> None:
    cell = analysis.cell
    assert cell is not None
    user_lines = analysis.source.splitlines()
    out: dict[tuple[str, int, int], tuple[Finding, cst.CSTNode]] = {}
    for rule, hit in hits:
        node, message = hit if isinstance(hit, tuple) else (hit, rule.message)
        where = cell.user_range(node)
        if where is None:
            continue
        line, col, end_line, end_col = where
        if is_suppressed(user_lines, line, end_line, rule.code):
            continue
        finding = Finding(
            code=rule.code, name=rule.name, message=message, line=line, col=col, end_line=end_line, end_col=end_col,
            preview=rule.preview,
        )
        out.setdefault((rule.code, line, col), (finding, node))
    for finding, node in sorted(out.values(), key=lambda fn: (fn[0].line or 0, fn[0].col or 0, fn[0].code)):
        analysis.findings.append(finding)
        analysis.nodes[id(finding)] = node


def _remember(context: Context, facts: Facts) -> None:
    from .work import cell_flags, function_work  # what each function does, for later cells

    context.imports.update(facts.names.local)
    context.symbols.update(facts.symbols)
    for name, scope in facts.functions.items():
        context.functions[name] = function_work(facts, scope)
        if isinstance(scope.node, cst.FunctionDef):
            context.definitions[name] = scope.node
    context.flags |= cell_flags(facts)
