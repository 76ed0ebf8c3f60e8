"""The trap catalog: one module per rule, holding its detector, its documentation and its fixer.

``analyze(source)`` returns :class:`~aiperf_magic.report.Finding` objects (with their fixes);
``fix(source)`` applies them; ``all_rules()`` is the registry of every code. Families:
``data_loading`` (AIP1xx), ``structures`` (AIP2xx), ``dataframes`` (AIP3xx), ``concurrency``
(AIP4xx), ``pytorch`` (AIP5xx). Importing this package never imports IPython, pandas or torch.
"""

from __future__ import annotations

from .engine import Analysis, Context, analyze, analyze_cell
from .families import PARSE_ERROR
from .fixing import apply_fixes, attach_fixes, fix, fix_findings, propose
from .registry import HEADINGS, RULES, Rule, all_rules

__all__ = [
    "HEADINGS", "PARSE_ERROR", "RULES", "Analysis", "Context", "Rule", "all_rules", "analyze", "analyze_cell",
    "apply_fixes", "attach_fixes", "fix", "fix_findings", "propose",
]
