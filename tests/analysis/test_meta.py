"""The catalog itself: unique codes, complete docs, and a positive and a healthy fixture per rule."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from aiperf_magic.rules import HEADINGS, all_rules, analyze
from aiperf_magic.rules.registry import RULES, parse_sections, rule

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "rules"
ISSUE_CODES = {
    f"AIP{n}" for n in (101, 102, 103, 104, 201, 202, 203, 301, 302, 303, 304, 401, 402, 501, 502, 503, 504, 505, 506)
}
FIXABLE = ISSUE_CODES - {"AIP103", "AIP303"}


def test_catalog_has_every_code_of_the_issue() -> None:
    assert set(all_rules()) == ISSUE_CODES
    assert {c for c, r in all_rules().items() if r.fixable} == FIXABLE
    assert [c for c, r in all_rules().items() if r.runtime] == ["AIP303"]


def test_codes_and_names_unique() -> None:
    rules = list(all_rules().values())
    assert len({r.code for r in rules}) == len(rules)
    assert len({r.name for r in rules}) == len(rules)
    assert all(re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", r.name) for r in rules)


def test_registering_a_code_twice_fails() -> None:
    with pytest.raises(ValueError, match="AIP101"):
        rule("AIP101", "again", "again")(lambda facts: iter(()))
    assert RULES["AIP101"].name == "dataloader-without-workers"


@pytest.mark.parametrize("code", sorted(ISSUE_CODES))
def test_rule_documented_with_all_headings(code: str) -> None:
    r = all_rules()[code]
    assert list(r.sections) == list(HEADINGS)
    assert all(text.strip() for text in r.sections.values())
    assert "```python" in r.sections["Example"] and "```python" in r.sections["Use instead"]
    assert "Seed article" in r.sections["References"]
    assert "⟨" not in r.doc, "a measured number is still missing"


def test_why_sections_quote_a_number_or_say_why_not() -> None:
    for r in all_rules().values():
        why = r.sections["Why is this bad?"]
        assert re.search(r"\d", why), r.code


@pytest.mark.parametrize("code", sorted(ISSUE_CODES - {"AIP303"}))
def test_every_rule_has_a_positive_and_a_healthy_fixture(code: str) -> None:
    positives = [p for p in FIXTURES.glob(f"{code}*.py") if not p.stem.endswith("healthy")]
    healthy = FIXTURES / f"{code}_healthy.py"
    assert positives and healthy.exists()
    assert any(f.code == code for p in positives for f in analyze(p.read_text()))
    assert analyze(healthy.read_text()) == []


def test_parse_sections_splits_on_headings() -> None:
    assert parse_sections("## A\none\n## B\ntwo\n") == {"A": "one", "B": "two"}


def test_import_stays_light() -> None:
    import subprocess

    code = (
        "import sys, aiperf_magic.rules as a; a.analyze('import torch\\nx = 1\\n'); "
        "print(sorted(m for m in ('torch', 'pandas', 'numpy', 'IPython') if m in sys.modules))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        cwd=Path(__file__).resolve().parents[2],
    )
    assert out.stdout.strip() == "[]"
