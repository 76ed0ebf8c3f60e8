"""The fix API around the fixers: attach_fixes, one-pass application, IPython lines, bad input."""

from __future__ import annotations

import importlib.util

import pytest

from aiperf_magic.fixes.edits import compiles
from aiperf_magic.report import Finding
from aiperf_magic.rules import analyze, fix_findings, propose

LOADER = """from torch.utils.data import DataLoader
loader = DataLoader(ds, batch_size=64)
for xb, yb in loader:
    xb = xb.to(device)
    yb = yb.to(device)
"""


def test_analyze_gives_each_finding_its_fix_and_fixable_says_so() -> None:
    findings = analyze(LOADER, select=["ALL"])
    by_line = {(f.code, f.line): f for f in findings}
    workers, pinned = by_line[("AIP101", 2)], by_line[("AIP102", 4)]
    assert workers.fix is not None and "num_workers=" in workers.fix.source and workers.fixable
    assert pinned.fix is not None and "non_blocking=True" in pinned.fix.source and pinned.fixable
    assert all(f.fixable == bool(f.fix and f.fix.source) for f in findings)


def test_a_fixer_that_declines_leaves_fixable_false_with_a_reason() -> None:
    src = "out = []\nfor _, r in df.iterrows():\n    if r['a'] > 0:\n        out.append(r['a'])\n"
    (finding,) = analyze(src, select=["ALL"])
    assert finding.code == "AIP301" and not finding.fixable
    assert finding.fix is not None and not finding.fix.source and "control flow" in (finding.fix.reason or "")


def test_fixes_touching_the_same_call_merge_in_one_pass() -> None:
    # AIP102 is reported once per loop, at the first tensor moved
    findings = [Finding("AIP101", "m", line=2), Finding("AIP102", "m", line=4)]
    out = fix_findings(LOADER, findings, unsafe=True)
    assert out.count("pin_memory=True") == 1 and out.count("non_blocking=True") == 1
    assert "persistent_workers=True" in out and out.startswith("import os\n")
    assert compiles(out)


def test_overlapping_fixes_keep_the_first_and_still_compile() -> None:
    src = "for i in range(len(df)):\n    df.loc[i, 'b'] = df.loc[i, 'a'] * 2\n"
    findings = [Finding("AIP301", "m", line=1), Finding("AIP201", "m", line=1)]
    out = fix_findings(src, findings, unsafe=True)
    assert out == "df['b'] = df['a'] * 2\n"


def test_ipython_lines_survive_a_rewrite() -> None:
    src = "%time x = 1\nfor _, r in df.iterrows():\n    out.append(r['a'] + 1)\n!echo done\n"
    fix = propose(src, Finding("AIP301", "m", line=2))
    assert fix is not None and fix.source == "%time x = 1\nout.extend((df['a'] + 1).to_numpy())\n!echo done\n"


def test_attribute_named_like_the_loop_variable_is_not_replaced() -> None:
    fix = propose("vals = list(range(10_000))\nout = [v * cfg.v for v in vals]\n", Finding("AIP201", "m", line=2))
    assert fix is not None and "np.asarray(vals) * cfg.v" in fix.source


def test_unparsable_cell_gives_a_reason_not_an_exception() -> None:
    fix = propose("for x in :\n", Finding("AIP201", "m", line=1))
    assert fix is not None and not fix.source and "does not parse" in (fix.reason or "")
    assert fix_findings("for x in :\n", [Finding("AIP201", "m", line=1)]) == "for x in :\n"


def test_wrong_line_gives_a_reason() -> None:
    fix = propose("x = 1\n", Finding("AIP203", "m", line=1))
    assert fix is not None and not fix.source and fix.reason


def test_unknown_code_has_no_fix() -> None:
    assert propose("x = 1\n", Finding("AIP999", "m", line=1)) is None


needs_analysis = pytest.mark.skipif(
    importlib.util.find_spec("aiperf_magic.rules") is None,
    reason="the detectors (aiperf_magic.rules) are not merged yet",
)


@needs_analysis
def test_fix_end_to_end_applies_safe_fixes_only(rule_statuses) -> None:
    import aiperf_magic

    rule_statuses(AIP203="default", AIP301="preview")  # about the fix API, not about what the corpus measured

    src = (
        "import numpy as np\narr = np.array([])\nfor i in range(100):\n    arr = np.append(arr, i)\n"
        "for idx, row in df.iterrows():\n    df.loc[idx, 'b'] = row['a'] * 2\n"
    )
    out = aiperf_magic.fix(src)
    assert "arr_parts.append(i)" in out and "iterrows" in out  # AIP301's column-assign fix is unsafe
    both = aiperf_magic.fix(src, unsafe=True, select=["ALL"])  # AIP301 is a preview rule
    assert "arr_parts" in both and "df['b'] = df['a'] * 2" in both and compiles(both)
    only = aiperf_magic.fix(src, select=["AIP301"], unsafe=True)
    assert "np.append(arr, i)" in only and "df['b'] = df['a'] * 2" in only
    assert aiperf_magic.fix("x = 1\n") == "x = 1\n"


@needs_analysis
@pytest.mark.parametrize("src", ["", "x = (\n", "def f(:\n", "%matplotlib inline\n", "a" * 10_000])
def test_fix_never_returns_invalid_python(src: str) -> None:
    import aiperf_magic

    out = aiperf_magic.fix(src, unsafe=True)
    assert out == src or compiles(out)


def test_every_fixer_on_every_line_of_every_fixture_is_valid_or_declines() -> None:
    """Findings at the wrong place (or of the wrong code) never crash a fixer or yield invalid Python."""
    from pathlib import Path

    from aiperf_magic.fixes.edits import Edits, rewrite_python
    from aiperf_magic.rules import all_rules, analyze_cell

    fixtures = sorted((Path(__file__).parent.parent / "fixtures" / "fixes").glob("*.py"))
    fixers = {code: r.fixer for code, r in all_rules().items() if r.fixer is not None}
    tried = 0
    for path in fixtures:
        analysis = analyze_cell(path.read_text())
        cell, facts = analysis.cell, analysis.facts
        assert cell is not None and facts is not None
        for node in list(cell.positions):
            for code, fn in fixers.items():
                out = fn(cell, node, facts)
                assert isinstance(out, (Edits, str)), (path.name, code, type(node).__name__)
                if isinstance(out, Edits):
                    assert rewrite_python(cell, [out]) is not None, (path.name, code, type(node).__name__)
                    tried += 1
    assert tried > 50
