"""``finding.fixable`` is exact: true only when a rewrite is attached, false with ``fix.reason``."""

from __future__ import annotations

from pathlib import Path

import pytest

from aiperf_magic.rules import all_rules, analyze

FIXTURES = Path(__file__).parent.parent / "fixtures"
SOURCES = sorted([*FIXTURES.glob("fixes/*.in.py"), *FIXTURES.glob("rules/*.py")])


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: p.name)
def test_fixable_exactly_when_a_rewrite_is_attached(path: Path) -> None:
    rules = all_rules()
    for f in analyze(path.read_text(), select=["ALL"]):
        has_fixer = f.code in rules and rules[f.code].fixer is not None
        if not has_fixer:
            assert not f.fixable and f.fix is None, f
            continue
        assert f.fix is not None, f
        assert f.fixable == bool(f.fix.source), f
        if f.fixable:
            assert f.fix.diff and f.fix.reason is None, f
        else:
            assert f.fix.reason and not f.fix.diff, f
