"""Golden codemod fixtures: ``<CODE>_<case>.in.py`` -> ``<CODE>_<case>.out.py``.

Each input's first line says what the fixer must do (``# expect: safe|unsafe|none``) and the
anchor line of the finding carries ``# <- CODE`` (where the detector reports it). A "none" case may
say why on its second line (``# because: <part of the reason>``): those are the counterexamples,
shapes where a rewrite would break working code. Their fixer is also called directly on the anchored
node, flagged or not, and must refuse with that reason: a detector that one day flags the shape
still gets no rewrite.

A ``<CODE>_<case>.data.py`` beside an input makes its data, for rewrites whose types depend on it
(an ``iterrows`` row is object dtype when a column is text; ``.loc`` creates a new column as
float64): the fixer then sees the live namespace, as inside ``%%aiperf``, both as the data file left
it and as it is after the cell ran, and must write the same rewrite from both; the rewrite run on a
copy of the data must leave every name equal, types and dtypes included, to the cell's own run.
"""

from __future__ import annotations

import ast
import copy
import re
import types
import warnings
from pathlib import Path
from typing import Any

import libcst as cst
import pytest

from aiperf_magic.cell.tree import walk_all
from aiperf_magic.fixes.edits import Edits, compiles
from aiperf_magic.report import Finding
from aiperf_magic.rules import all_rules, analyze, analyze_cell, fix_findings, propose
from aiperf_magic.verification.compare import first_difference


def fixers() -> set[str]:
    return {code for code, r in all_rules().items() if r.fixable}

FIXTURES = Path(__file__).parent.parent / "fixtures" / "fixes"
CASES = sorted(FIXTURES.glob("*.in.py"))
ANCHOR = re.compile(r"#\s*<-\s*(AIP\d{3})")


def findings_of(source: str) -> list[Finding]:
    out = []
    for number, line in enumerate(source.splitlines(), start=1):
        m = ANCHOR.search(line)
        if m:
            out.append(Finding(code=m.group(1), message="fixture", line=number, fixable=True))
    return out


def data_of(case: Path) -> dict[str, Any] | None:
    """The namespace the case's ``.data.py`` builds, or None for a case that has none."""
    data = case.with_name(case.name.replace(".in.py", ".data.py"))
    if not data.exists():
        return None
    namespace: dict[str, Any] = {}
    exec(compile(data.read_text(), str(data), "exec"), namespace)
    return namespace


def run(source: str, namespace: dict[str, Any]) -> dict[str, Any]:
    """``source`` run on a copy of ``namespace``: the names as the user would see them after it."""
    ns = {k: v if isinstance(v, types.ModuleType) else copy.deepcopy(v) for k, v in namespace.items()
          if not k.startswith("__")}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # .at enlarging a frame warns; the results are what matter
        exec(compile(source, "<cell>", "exec"), ns)
    return {k: v for k, v in ns.items() if not k.startswith("__")}


def namespaces(case: Path, source: str) -> list[dict[str, Any] | None]:
    """No namespace (``aiperf lint``), or the data as the data file left it and after the cell ran."""
    data = data_of(case)
    return [None] if data is None else [data, run(source, data)]


@pytest.mark.parametrize("case", CASES, ids=lambda p: p.name[: -len(".in.py")])
def test_golden(case: Path, update_goldens: bool) -> None:
    source = case.read_text()
    expect = source.splitlines()[0].split(":", 1)[1].strip()
    findings = findings_of(source)
    assert findings, f"{case.name} marks no finding"
    out = case.with_name(case.name.replace(".in.py", ".out.py"))
    for namespace in namespaces(case, source):
        found = {(f.code, f.line) for f in analyze(source, fixes=False, select=["ALL"], namespace=namespace)}
        flagged = {(f.code, f.line) for f in findings} <= found
        # a rewrite is only ever built for what a detector flags; a "none" case may also not be flagged at all
        assert flagged or expect == "none", f"the detector does not flag {case.name}'s anchor"
        fixes = [propose(source, f, namespace) for f in findings]
        assert all(f is not None for f in fixes)
        if not flagged:
            assert fix_findings(source, findings, unsafe=True, namespace=namespace) == source
            continue
        if expect == "none":
            assert all(f is not None and not f.source and f.reason for f in fixes), [f.source for f in fixes if f]
        else:
            assert all(f is not None and f.source and f.safety == expect for f in fixes), fixes
            assert all(compiles(f.source) and f.diff.startswith("--- ") for f in fixes if f)
        result = fix_findings(source, findings, unsafe=True, namespace=namespace)
        assert compiles(result)
        if update_goldens or not out.exists():
            out.write_text(result)
        assert result == out.read_text()
        if expect == "none":
            assert result == source


DATA_CASES = [c for c in CASES if c.with_name(c.name.replace(".in.py", ".data.py")).exists()]


@pytest.mark.parametrize("case", DATA_CASES, ids=lambda p: p.name[: -len(".in.py")])
def test_rewrite_on_the_data_leaves_every_name_equal(case: Path) -> None:
    data = data_of(case)
    assert data is not None
    source = case.read_text()
    before, after = run(source, data), run(case.with_name(case.name.replace(".in.py", ".out.py")).read_text(), data)
    loop_targets = {n.id for node in ast.walk(ast.parse(source)) if isinstance(node, (ast.For, ast.comprehension))
                    for n in ast.walk(node.target) if isinstance(n, ast.Name)}
    for name in sorted(set(before) - loop_targets):
        assert name in after, f"the rewrite no longer binds {name}"
        assert first_difference(before[name], after[name], name, []) is None


BECAUSE = re.compile(r"^#\s*because:\s*(.+)$")
COUNTEREXAMPLES = [c for c in CASES if BECAUSE.match(c.read_text().splitlines()[1])]


def fixer_answers(source: str, code: str, line: int, namespace: dict[str, Any] | None) -> list[Edits | str]:
    """What the rule's fixer says for every node that starts on ``line`` (outermost first)."""
    analysis = analyze_cell(source, select=[code], namespace=namespace)
    cell, facts = analysis.cell, analysis.facts
    assert cell is not None and facts is not None
    fixer = all_rules()[code].fixer
    assert fixer is not None
    nodes = [n for n in walk_all(cell.module) if not isinstance(n, cst.Module) and n in cell.positions]
    return [fixer(cell, n, facts) for n in nodes if cell.positions[n].start.line == line]


@pytest.mark.parametrize("case", COUNTEREXAMPLES, ids=lambda p: p.name[: -len(".in.py")])
def test_counterexample_gets_no_rewrite_and_says_why(case: Path) -> None:
    source = case.read_text()
    because = BECAUSE.match(source.splitlines()[1])
    assert because is not None and source.startswith("# expect: none")
    for namespace in namespaces(case, source):
        for finding in findings_of(source):
            answers = fixer_answers(source, finding.code, finding.line, namespace)
            assert answers, f"no node on line {finding.line}"
            reasons = [a for a in answers if isinstance(a, str)]
            assert any(because.group(1) in r for r in reasons), (because.group(1), answers)
            assert not any(isinstance(a, Edits) for a in answers), answers
        assert fix_findings(source, findings_of(source), unsafe=True, namespace=namespace) == source


def test_every_counterexample_class_has_a_fixture() -> None:
    """The shapes where rewrites broke working code in public notebooks and scripts."""
    names = {c.name[: -len(".in.py")] for c in COUNTEREXAMPLES}
    assert {
        "AIP502_forward_none", "AIP502_backpropagated_none", "AIP502_gradient_penalty_none",
        "AIP502_char_rnn_none", "AIP502_style_loss_none", "AIP504_bce_none", "AIP504_bce_module_none",
        "AIP504_loss_only_none", "AIP201_list_repeat_none", "AIP201_list_concat_none",
        "AIP201_int_overflow_none", "AIP201_sum_overflow_none", "AIP201_tensor_elements_none",
        "AIP506_generation_none", "AIP506_cat_growth_none",
    } <= names


def test_every_fixer_has_a_positive_fixture() -> None:
    covered = {c.name.split("_")[0] for c in CASES if "# expect: none" not in c.read_text().splitlines()[0]}
    assert set(fixers()) <= covered, set(fixers()) - covered


def test_safe_fixes_only_without_consent() -> None:
    source = (FIXTURES / "AIP201_listcomp_range.in.py").read_text()
    assert fix_findings(source, findings_of(source)) == source  # AIP201's fix is unsafe
    assert fix_findings(source, findings_of(source), unsafe=True) != source
