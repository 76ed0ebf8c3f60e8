"""Static analysis: the trap catalog (AIP1xx-AIP5xx) run over a cell's code.

``analyze(source)`` returns :class:`~aiperf_magic.report.Finding` objects; ``all_rules()`` is the
catalog. Importing this package never imports IPython, pandas or torch.
"""

from __future__ import annotations

from .engine import PARSE_ERROR, Context, analyze
from .registry import HEADINGS, RULES, Rule, all_rules

__all__ = ["HEADINGS", "PARSE_ERROR", "RULES", "Context", "Rule", "all_rules", "analyze"]
