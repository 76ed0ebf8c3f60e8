"""The one registry: every code (AIP000-AIP9xx) documented with Ruff's headings, with a positive and a
healthy fixture, and ``fixable`` true exactly when a rewrite is attached."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from aiperf_magic.rules import HEADINGS, all_rules, analyze
from aiperf_magic.rules.registry import RULES, parse_sections, rule

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "fixtures"
TRAPS = {
    f"AIP{n}" for n in (101, 102, 103, 104, 201, 202, 203, 301, 302, 303, 304, 401, 402, 501, 502, 503, 504, 505, 506)
}
CLUSTER = {"AIP601", "AIP602"}  # Dask and Ray: the seed article does not cover clusters
TRAPS |= CLUSTER
HOST_VERDICTS = {f"AIP90{n}" for n in range(1, 9)}
CLUSTER_VERDICTS = {f"AIP91{n}" for n in range(5)}
VERDICTS = HOST_VERDICTS | CLUSTER_VERDICTS
FIXABLE = TRAPS - {"AIP103", "AIP303"} - CLUSTER
RUN_ONLY = {"AIP105"}  # found from the run alone (rules/from_run/), no static detector and no fixer


def test_registry_holds_every_code() -> None:
    rules = all_rules()
    assert set(rules) == TRAPS | VERDICTS | RUN_ONLY | {"AIP000"}
    assert {c for c, r in rules.items() if r.fixable} == FIXABLE
    assert {c for c, r in rules.items() if r.kind == "verdict"} == VERDICTS
    assert sorted(c for c, r in rules.items() if r.kind == "runtime") == ["AIP105", "AIP303"]
    assert all(r.fix_title for r in rules.values() if r.fixable)


def test_codes_and_names_unique() -> None:
    rules = list(all_rules().values())
    assert len({r.code for r in rules}) == len(rules)
    assert len({r.name for r in rules}) == len(rules)
    assert all(re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", r.name) for r in rules)


def test_registering_a_code_twice_fails() -> None:
    with pytest.raises(ValueError, match="AIP101"):
        rule("AIP101", "again", "again")(lambda facts: iter(()))
    assert RULES["AIP101"].name == "dataloader-without-workers"


@pytest.mark.parametrize("code", sorted(TRAPS | VERDICTS | {"AIP000"}))
def test_every_code_documented_with_all_headings(code: str) -> None:
    r = all_rules()[code]
    assert list(r.sections) == list(HEADINGS)
    assert all(text.strip() for text in r.sections.values())
    assert "```python" in r.sections["Example"] and "```python" in r.sections["Use instead"]
    assert "⟨" not in r.doc, "a measured number is still missing"
    if code in (TRAPS | HOST_VERDICTS) - CLUSTER:
        assert "Seed article" in r.sections["References"]
    if code in CLUSTER | CLUSTER_VERDICTS:
        assert "docs/cluster.md" in r.sections["References"]


@pytest.mark.parametrize("code", sorted(TRAPS | VERDICTS))
def test_why_sections_quote_a_number(code: str) -> None:
    assert re.search(r"\d", all_rules()[code].sections["Why is this bad?"])


@pytest.mark.parametrize("code", sorted(TRAPS - {"AIP303"} | {"AIP000"}))
def test_every_static_code_has_a_positive_and_a_healthy_fixture(code: str) -> None:
    positives = [p for p in (FIXTURES / "rules").glob(f"{code}*.py") if not p.stem.endswith("healthy")]
    healthy = FIXTURES / "rules" / f"{code}_healthy.py"
    assert positives and healthy.exists()
    assert any(f.code == code for p in positives for f in analyze(p.read_text(), select=["ALL"]))
    assert analyze(healthy.read_text(), select=["ALL"]) == []


@pytest.mark.parametrize("code", sorted(HOST_VERDICTS))
def test_every_verdict_has_a_positive_and_a_healthy_timeline(code: str) -> None:
    from aiperf_magic.verdicts.stage import diagnose
    from tests.runtime.timelines import GIB, VERDICT_FIXTURES, timeline

    positive, healthy = VERDICT_FIXTURES[code]
    assert code in [v.code for v in diagnose(timeline(**positive), mem_total_bytes=16 * GIB).verdicts]
    assert code not in [v.code for v in diagnose(timeline(**healthy), mem_total_bytes=16 * GIB).verdicts]


def test_fixable_is_true_exactly_when_a_rewrite_is_attached() -> None:
    """Over every fixture: a finding says fixable only with a rewrite, and a fixer that declines says why."""
    seen = 0
    for path in sorted((FIXTURES / "rules").glob("*.py")) + sorted((FIXTURES / "fixes").glob("*.py")):
        for f in analyze(path.read_text(), select=["ALL"]):
            rule_ = all_rules()[f.code]
            if rule_.fixer is None:
                assert not f.fixable and f.fix is None, (path.name, f.code)
                continue
            assert f.fix is not None, (path.name, f.code)
            assert f.fixable == bool(f.fix.source), (path.name, f.code)
            assert f.fix.source or f.fix.reason, (path.name, f.code)
            seen += 1
    assert seen > 40


def test_every_positive_fix_fixture_has_a_golden_or_a_decline_reason() -> None:
    """For each positive fixture of a fixable rule: a golden rewrite exists, or the fixer says why not."""
    fixes = FIXTURES / "fixes"
    goldens = {p.name.split("_")[0] for p in fixes.glob("*.in.py") if "# expect: none" not in p.read_text()}
    for code in sorted(FIXABLE):
        assert code in goldens, f"{code} has no golden rewrite in tests/fixtures/fixes"
        for path in (FIXTURES / "rules").glob(f"{code}_*.py"):
            if path.stem.endswith("healthy"):
                continue
            for f in analyze(path.read_text(), select=["ALL"]):
                if f.code == code:
                    assert f.fix is not None and (f.fix.source or f.fix.reason), (path.name, f.line)


def test_explain_knows_every_code() -> None:
    from aiperf_magic.rules.catalog import explain

    for code in all_rules():
        assert explain(code).rule is not None, code
    assert "AIP901" in explain("aip901").text() and "gpu-starved" in explain("AIP901").text()


def test_parse_sections_splits_on_headings() -> None:
    assert parse_sections("## A\none\n## B\ntwo\n") == {"A": "one", "B": "two"}


def test_import_stays_light() -> None:
    code = (
        "import sys, aiperf_magic.rules as a; a.analyze('import torch\\nx = 1\\n'); "
        "print(sorted(m for m in ('torch', 'pandas', 'numpy', 'IPython') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
    assert out.stdout.strip() == "[]"
