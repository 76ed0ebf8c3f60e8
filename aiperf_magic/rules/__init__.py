"""The trap catalog: one module per rule, holding its detector, its documentation and its fixer.

``analyze(source)`` returns :class:`~aiperf_magic.report.Finding` objects (with their fixes);
``fix(source)`` applies them; ``all_rules()`` is the registry of every code. Families:
``data_loading`` (AIP1xx), ``structures`` (AIP2xx), ``dataframes`` (AIP3xx), ``concurrency``
(AIP4xx), ``pytorch`` (AIP5xx). Importing this package never imports IPython, pandas or torch.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from ..report import Finding
from .engine import Analysis, Context, analyze_cell, find, prepare_cell
from .facts import Notebook
from .families import PARSE_ERROR
from .fixing import apply_fixes, attach_fixes, fix, fix_findings, propose
from .registry import HEADINGS, RULES, Rule, all_rules

__all__ = [
    "HEADINGS", "PARSE_ERROR", "RULES", "Analysis", "Context", "Rule", "all_rules", "analyze", "analyze_cell",
    "analyze_notebook",
    "apply_fixes", "attach_fixes", "fix", "fix_findings", "propose",
]


def analyze(
    source: str,
    *,
    select: Iterable[str] | str | None = None,
    ignore: Iterable[str] | str | None = None,
    namespace: Mapping[str, Any] | None = None,
    context: Context | None = None,
    fixes: bool = True,
    fix_sources: bool = True,
    preview: bool = False,
) -> list[Finding]:
    """Static findings for one cell (or file), sorted by position.

    ``select``/``ignore`` take code prefixes (``"AIP3"``, ``["AIP101", "AIP2"]``). By default only
    the rules that earned their place by measured precision run; ``select=["ALL"]`` (or
    ``preview=True``) adds the preview rules, and an exact code selects its rule. ``namespace`` is
    the live namespace of ``%%aiperf`` (objects there tell what a name holds). ``context`` carries
    names imported and defined by earlier cells of a notebook; it is updated with this cell's.
    A cell that starts with ``%%time``/``%%timeit``/``%%aiperf`` is analysed on its body (lines
    still count from the magic line); other cell magics (``%%bash``...) are not Python: no findings.
    With ``fixes`` (the default) each finding whose rule has a fixer carries its rewrite in
    ``finding.fix`` (or the reason there is none), and ``finding.fixable`` says whether it has one.
    ``fix_sources=False`` keeps of each fix only its title, safety and reason (``fixable`` still
    says whether the rewrite was built): what a listing such as ``aiperf lint`` needs, without one
    rewritten copy of the whole file per finding.
    """
    analysis = analyze_cell(
        source, select=select, ignore=ignore, namespace=namespace, context=context, preview=preview
    )
    if fixes and analysis.findings:
        attach_fixes(analysis, sources=fix_sources)
    return analysis.findings


def analyze_notebook(
    sources: Iterable[str],
    *,
    select: Iterable[str] | str | None = None,
    ignore: Iterable[str] | str | None = None,
    fixes: bool = True,
    fix_sources: bool = True,
    preview: bool = False,
) -> list[list[Finding]]:
    """The findings of each code cell of a notebook, in order.

    Every cell is parsed once, knowing the names earlier cells defined; then every rule runs on
    each cell knowing the whole notebook (a validation loop in a notebook that trains three cells
    below, a ``Dataset`` whose loaders, made later, use no workers).
    """
    context = Context()
    options: dict[str, Any] = {"select": select, "ignore": ignore, "preview": preview}
    analyses = [prepare_cell(source, context=context, **options) for source in sources]
    notebook = Notebook(a.facts for a in analyses if a.facts is not None)
    for analysis in analyses:
        find(analysis, notebook=notebook, **options)
        if fixes and analysis.findings:
            attach_fixes(analysis, sources=fix_sources)
        if analysis.cell is not None:
            analysis.cell.release()  # its positions and parents served its own findings and fixes
    return [a.findings for a in analyses]
