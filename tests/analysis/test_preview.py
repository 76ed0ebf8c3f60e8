"""Default and preview rules: a rule runs by default only when its measured precision earned it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from aiperf_magic.cli import main, with_preview
from aiperf_magic.report import Finding, Report
from aiperf_magic.rules import all_rules, analyze, analyze_notebook
from aiperf_magic.rules.catalog import catalog, markdown_catalog, precision_note
from aiperf_magic.rules.precision import DEFAULT_PRECISION, DEFAULT_SAMPLE, MEASURED, Measured, is_default
from aiperf_magic.rules.registry import selected

LOOP = (
    "import pandas as pd\ndf = pd.read_csv('a.csv')\n"
    "for i, row in df.iterrows():\n    df.loc[i, 'b'] = row['a'] * 2\n"
)


def preview_codes() -> list[str]:
    return [c for c, r in all_rules().items() if r.preview]


def test_status_follows_the_measured_precision() -> None:
    for code, rule in all_rules().items():
        if rule.kind != "static":
            assert not rule.preview and rule.status in ("runtime", "default")
            continue
        m = MEASURED.get(code)  # a rule the corpus has not measured yet (AIP6xx) is preview
        earned = m is not None and m.tp + m.fp >= DEFAULT_SAMPLE and m.tp / max(1, m.tp + m.fp) >= DEFAULT_PRECISION
        assert rule.preview is not earned and is_default(code) is earned, code


def test_measured_precision_arithmetic() -> None:
    assert Measured(findings=40, tp=9, fp=1, debatable=5).earns_default
    assert not Measured(findings=40, tp=8, fp=1, debatable=9).earns_default  # 9 decided: too few
    assert not Measured(findings=40, tp=17, fp=3, debatable=0).earns_default  # 85 %
    assert Measured(findings=0, tp=0, fp=0, debatable=0).precision is None


def test_selection_of_preview_rules() -> None:
    previews = preview_codes()
    assert previews, "the corpus leaves some rules in preview"
    code = previews[0]
    plain = {r.code for r in selected(None, None)}
    assert code not in plain and "AIP000" in plain
    assert code in {r.code for r in selected(["ALL"], None)}
    assert code in {r.code for r in selected(None, None, preview=True)}
    assert code in {r.code for r in selected([code], None)}  # an exact code is a deliberate choice
    assert code not in {r.code for r in selected([code[:4]], None)}  # a prefix takes the default ones
    assert code not in {r.code for r in selected(["ALL"], [code])}


def test_analyze_runs_preview_rules_only_when_asked() -> None:
    if not all_rules()["AIP301"].preview:
        pytest.skip("AIP301 is a default rule on the current corpus")
    assert analyze(LOOP) == []
    assert [f.code for f in analyze(LOOP, select=["ALL"])] == ["AIP301"]
    assert [f.code for f in analyze(LOOP, preview=True)] == ["AIP301"]
    (found,) = analyze(LOOP, select=["all"])
    assert found.preview
    assert analyze_notebook(["import pandas as pd", LOOP]) == [[], []]


def test_cli_preview_flag(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    if not all_rules()["AIP301"].preview:
        pytest.skip("AIP301 is a default rule on the current corpus")
    path = tmp_path / "loop.py"
    path.write_text(LOOP)
    assert main(["lint", "--format", "json", str(path)]) == 0
    assert json.loads(capsys.readouterr().out) == []
    assert main(["lint", "--format", "json", "--preview", str(path)]) == 1
    assert [f["code"] for f in json.loads(capsys.readouterr().out)] == ["AIP301"]
    assert main(["lint", "--format", "json", "--preview", "--select", "AIP2", str(path)]) == 0
    capsys.readouterr()
    assert main(["lint", "--select", "AIP301", "--format", "json", str(path)]) == 1  # exact code


def test_with_preview_expands_prefixes_to_codes() -> None:
    assert with_preview(None, False) is None and with_preview(["AIP3"], False) == ["AIP3"]
    assert with_preview(None, True) == ["ALL"]
    assert with_preview(["AIP30"], True) == ["AIP301", "AIP302", "AIP303", "AIP304"]


def test_catalog_says_status_and_precision() -> None:
    text = catalog().text()
    assert "preview" in text and "status" in text.splitlines()[0]
    note = precision_note(all_rules()["AIP101"])
    assert "precision" in note or "no labelled finding" in note
    assert "| status | precision |" in markdown_catalog()


def test_finding_fields_round_trip() -> None:
    report = Report(source="x = 1\n")
    report.findings.append(
        Finding(code="AIP301", message="m", line=1, evidence={"share": 0.01, "rows": 3}, shown=False,
                hidden_reason="negligible", preview=True)
    )
    back = Report.from_json(report.to_json())
    (f,) = back.findings
    assert (f.shown, f.hidden_reason, f.preview, f.evidence) == (False, "negligible", True, {"share": 0.01, "rows": 3})
    assert Finding.__dataclass_fields__["shown"].default is True
