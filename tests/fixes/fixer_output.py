"""One rule's fixer run on one node of an analysed cell: the rewritten cell, or the fixer's reason."""

from __future__ import annotations

from typing import Any

from aiperf_magic.fixes.edits import Edits, rewrite_python
from aiperf_magic.rules import all_rules


def rewritten(analysis: Any, code: str, node: Any) -> str:
    """The cell rewritten by ``code``'s fixer at ``node``, or the reason it gave for no fix."""
    fixer = all_rules()[code].fixer
    assert fixer is not None
    edits = fixer(analysis.cell, node, analysis.facts)
    if not isinstance(edits, Edits):
        return edits
    out = rewrite_python(analysis.cell, [edits])
    assert out is not None
    return out
