"""Default, preview and runtime-only rules: a rule's precision on held-out repositories decides its status."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from aiperf_magic.cli import main, with_preview
from aiperf_magic.report import Finding, Report
from aiperf_magic.rules import all_rules, analyze, analyze_notebook, precision
from aiperf_magic.rules.catalog import catalog, markdown_catalog, precision_note
from aiperf_magic.rules.precision import (
    DEFAULT_PRECISION,
    DEFAULT_SAMPLE,
    FOUND_FROM_RUN,
    LINT_PRECISION,
    LINT_SAMPLE,
    MEASURED,
    TUNED,
    Measured,
    is_default,
    is_runtime_only,
)
from aiperf_magic.rules.registry import lint_codes, selected

ROOT = Path(__file__).resolve().parents[2]
LABELS = ROOT / "benchmarks" / "corpus_labels.json"
FROM_RUN = ROOT / "aiperf_magic" / "rules" / "from_run"
LOOP = (
    "import pandas as pd\ndf = pd.read_csv('a.csv')\n"
    "for i, row in df.iterrows():\n    df.loc[i, 'b'] = row['a'] * 2\n"
)


def preview_codes() -> list[str]:
    return [c for c, r in all_rules().items() if r.preview and not r.runtime_only]


@pytest.fixture
def statuses(rule_statuses):
    return rule_statuses


def test_status_follows_the_measured_precision() -> None:
    for code, rule in all_rules().items():
        if rule.kind != "static":
            assert not rule.preview and not rule.runtime_only and rule.status in ("runtime", "default")
            continue
        m = MEASURED.get(code)  # a rule the held-out corpus has not measured yet (AIP6xx) is preview
        decided = 0 if m is None else m.tp + m.fp
        share = 0.0 if m is None else m.tp / max(1, decided)
        earned = decided >= DEFAULT_SAMPLE and share >= DEFAULT_PRECISION
        left = decided >= LINT_SAMPLE and share < LINT_PRECISION
        assert rule.preview is not earned and is_default(code) is earned, code
        assert rule.runtime_only is left and is_runtime_only(code) is left, code
        assert rule.status == ("default" if earned else "runtime only" if left else "preview"), code


def test_measured_precision_arithmetic() -> None:
    assert Measured(findings=40, tp=9, fp=1, debatable=5).earns_default
    assert not Measured(findings=40, tp=8, fp=1, debatable=9).earns_default  # 9 decided: too few
    assert not Measured(findings=40, tp=17, fp=3, debatable=0).earns_default  # 85 %
    assert Measured(findings=0, tp=0, fp=0, debatable=0).precision is None
    assert Measured(findings=9, tp=2, fp=3, debatable=4).leaves_lint  # 40 % over 5 decided
    assert not Measured(findings=9, tp=0, fp=4, debatable=5).leaves_lint  # 4 decided: too few to drop
    assert not Measured(findings=9, tp=3, fp=3, debatable=0).leaves_lint  # 50 % stays preview
    assert not Measured(findings=0, tp=0, fp=0, debatable=0).leaves_lint


def test_the_split_decides_and_the_tuning_numbers_do_not() -> None:
    data = json.loads(LABELS.read_text(encoding="utf-8"))
    split = data["split"]
    assert split["held_out"] and split["tuning"] and not set(split["held_out"]) & set(split["tuning"])
    assert set(split["held_out"]) | set(split["tuning"]) == set(data["repos"])
    held = Counter()
    for lab in data["labels"]:
        if lab["repo"] in split["held_out"]:
            held[(lab["code"], lab["label"])] += 1
    for code, m in MEASURED.items():  # the generated numbers are the held-out labels'
        assert (m.tp, m.fp, m.debatable) == (held[(code, "TP")], held[(code, "FP")], held[(code, "debatable")])
    assert TUNED["AIP101"] != MEASURED["AIP101"]


def test_found_from_run_names_codes_the_run_reports() -> None:
    source = "".join(p.read_text(encoding="utf-8") for p in FROM_RUN.glob("*.py"))
    for code in FOUND_FROM_RUN:
        assert f'"{code}"' in source, code


def test_selection_of_preview_rules(statuses) -> None:
    statuses(AIP301="preview")
    code = "AIP301"
    plain = {r.code for r in selected(None, None)}
    assert code not in plain and "AIP000" in plain
    assert code in {r.code for r in selected(["ALL"], None)}
    assert code in {r.code for r in selected(None, None, preview=True)}
    assert code in {r.code for r in selected([code], None)}  # an exact code is a deliberate choice
    assert code not in {r.code for r in selected([code[:4]], None)}  # a prefix takes the default ones
    assert code in {r.code for r in selected([code[:4]], None, preview=True)}
    assert code not in {r.code for r in selected(["ALL"], [code])}


def test_selection_of_runtime_only_rules(statuses) -> None:
    statuses(AIP301="runtime only")
    code = "AIP301"
    assert all_rules()[code].preview  # inside %%aiperf it is shown only with the run's evidence
    assert code not in {r.code for r in selected(None, None)}
    assert code not in {r.code for r in selected([code[:4]], None)}
    # the Python API (what %%aiperf builds on) runs it as a preview rule; the linter does not
    assert code in {r.code for r in selected(["ALL"], None)}
    assert code in {r.code for r in selected(None, None, preview=True)}
    assert code in {r.code for r in selected([code], None)}
    assert code not in lint_codes() and "AIP000" in lint_codes()
    assert code not in lint_codes(("AIP3",)) and lint_codes(("AIP3",))


def test_analyze_runs_each_status_when_asked(statuses) -> None:
    statuses(AIP301="preview")
    assert analyze(LOOP) == []
    assert [f.code for f in analyze(LOOP, select=["ALL"])] == ["AIP301"]
    assert [f.code for f in analyze(LOOP, preview=True)] == ["AIP301"]
    (found,) = analyze(LOOP, select=["all"])
    assert found.preview
    assert analyze_notebook(["import pandas as pd", LOOP]) == [[], []]
    statuses(AIP301="runtime only")
    assert analyze(LOOP) == []
    assert [f.code for f in analyze(LOOP, select=["ALL"])] == ["AIP301"]
    assert [f.code for f in analyze(LOOP, preview=True)] == ["AIP301"]
    statuses(AIP301="default")
    assert [f.code for f in analyze(LOOP)] == ["AIP301"]
    assert not analyze(LOOP)[0].preview


def lint_codes_found(capsys: pytest.CaptureFixture[str], *args: str) -> list[str]:
    main(["lint", "--format", "json", *args])
    return [f["code"] for f in json.loads(capsys.readouterr().out)]


def test_cli_preview_flag(tmp_path: Path, capsys: pytest.CaptureFixture[str], statuses) -> None:
    statuses(AIP301="preview")
    path = tmp_path / "loop.py"
    path.write_text(LOOP)
    assert main(["lint", "--format", "json", str(path)]) == 0
    assert json.loads(capsys.readouterr().out) == []
    assert main(["lint", "--format", "json", "--preview", str(path)]) == 1
    assert [f["code"] for f in json.loads(capsys.readouterr().out)] == ["AIP301"]
    assert main(["lint", "--format", "json", "--preview", "--select", "AIP2", str(path)]) == 0
    capsys.readouterr()
    assert main(["lint", "--select", "AIP301", "--format", "json", str(path)]) == 1  # exact code
    capsys.readouterr()
    assert lint_codes_found(capsys, "--select", "ALL", str(path)) == ["AIP301"]


def test_cli_runs_a_runtime_only_rule_only_by_its_code(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], statuses
) -> None:
    statuses(AIP301="runtime only")
    path = tmp_path / "loop.py"
    path.write_text(LOOP)
    assert lint_codes_found(capsys, str(path)) == []
    assert lint_codes_found(capsys, "--preview", str(path)) == []
    assert lint_codes_found(capsys, "--select", "ALL", str(path)) == []
    assert lint_codes_found(capsys, "--preview", "--select", "AIP3", str(path)) == []
    assert lint_codes_found(capsys, "--select", "AIP301", str(path)) == ["AIP301"]  # a config naming it still works
    assert lint_codes_found(capsys, "--preview", "--select", "AIP301", str(path)) == ["AIP301"]
    assert lint_codes_found(capsys, "--select", "ALL,AIP301", str(path)) == ["AIP301"]


def test_with_preview_expands_prefixes_to_lint_codes(statuses) -> None:
    statuses(AIP301="preview", AIP302="preview", AIP304="runtime only")
    assert with_preview(None, False) is None and with_preview(["AIP3"], False) == ["AIP3"]
    every = with_preview(None, True)
    assert every is not None and "AIP301" in every and "AIP304" not in every and "AIP000" in every
    assert with_preview(["ALL"], False) == every == with_preview(["ALL"], True)
    assert with_preview(["AIP30"], True) == ["AIP301", "AIP302", "AIP303"]
    assert with_preview(["AIP304"], True) == ["AIP304"]  # an exact code, runtime only or not
    assert with_preview(["AIP30", "AIP304"], True) == ["AIP301", "AIP302", "AIP303", "AIP304"]


def test_lint_says_when_no_rule_is_on_by_default(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, statuses
) -> None:
    path = tmp_path / "loop.py"
    path.write_text(LOOP)
    for code, rule in all_rules().items():
        if rule.kind == "static":
            monkeypatch.setitem(precision.MEASURED, code, Measured(findings=0, tp=0, fp=0, debatable=0))
    main(["lint", str(path)])
    assert "no rule is on by default" in capsys.readouterr().err
    main(["lint", "--preview", str(path)])
    assert "no rule is on by default" not in capsys.readouterr().err
    statuses(AIP101="default")
    main(["lint", str(path)])
    assert "no rule is on by default" not in capsys.readouterr().err


def test_catalog_says_status_and_precision(statuses) -> None:
    statuses(AIP301="runtime only", AIP402="runtime only")
    text = catalog().text()
    assert "preview" in text and "status" in text.splitlines()[0] and "runtime only" in text
    note = precision_note(all_rules()["AIP101"])
    assert "precision" in note or "no held-out finding" in note
    assert "held-out" in note or "no held-out finding" in note
    assert "also finds it from the run" in precision_note(all_rules()["AIP301"])
    statuses(AIP304="runtime only")
    assert "also finds it" not in precision_note(all_rules()["AIP304"])
    assert "| status | held-out precision |" in markdown_catalog()


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


def test_a_selection_that_matches_no_code_is_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "loop.py"
    path.write_text(LOOP)
    main(["lint", "--select", "AIP999,AIP3", str(path)])
    err = capsys.readouterr().err
    assert "--select AIP999 matches no rule code" in err and "AIP3 " not in err
    main(["lint", "--select", "ALL", "--preview", str(path)])
    assert "matches no rule" not in capsys.readouterr().err
