"""Golden fixtures: ``tests/fixtures/rules/<CODE>_<case>.py`` must give exactly ``<case>.txt``.

Each ``.txt`` line is ``LINE:COL-END_LINE:END_COL CODE message``. Healthy twins
(``*_healthy.py``) have an empty ``.txt``. Every rule runs, preview ones too (``select=["ALL"]``).

A ``<CODE>_<case>.nb.py`` fixture is a notebook: its ``# %%`` lines separate the cells, which are
read as ``aiperf lint`` reads a notebook (each cell knowing the names of earlier ones and the facts
of the whole notebook); its ``.txt`` lines start with ``cell N:`` (N counts from 0).

After a deliberate change, regenerate with ``pytest tests/analysis --update-goldens`` and review the
diff.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from aiperf_magic.report import Finding
from aiperf_magic.rules import analyze, analyze_notebook

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "rules"

CASES = sorted(FIXTURES.glob("AIP*.py"))
CELL = re.compile(r"^# %%.*$", re.M)


def cells_of(text: str) -> list[str]:
    """The cells of a ``.nb.py`` fixture (the text before the first ``# %%`` is not a cell)."""
    return [part.lstrip("\n") for part in CELL.split(text)[1:]]


def line(f: Finding) -> str:
    return f"{f.line}:{f.col}-{f.end_line}:{f.end_col} {f.code} {f.message}\n"


def render(path: Path) -> str:
    text = path.read_text(encoding="utf-8")
    if path.name.endswith(".nb.py"):
        found = analyze_notebook(cells_of(text), select=["ALL"])
        return "".join(f"cell {i}: {line(f)}" for i, findings in enumerate(found) for f in findings)
    return "".join(line(f) for f in analyze(text, select=["ALL"]))


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_golden(path: Path, update_goldens: bool) -> None:
    got = render(path)
    golden = path.with_name(path.name.removesuffix(".nb.py").removesuffix(".py") + ".txt")
    if update_goldens:
        golden.write_text(got, encoding="utf-8")
    assert golden.exists(), f"missing {golden.name}: run pytest with --update-goldens and review it"
    assert got == golden.read_text(encoding="utf-8")


def test_healthy_twins_are_clean() -> None:
    """Every ``*_healthy`` fixture (plain or notebook) reports nothing."""
    healthy = [p for p in CASES if p.name.removesuffix(".nb.py").removesuffix(".py").endswith("healthy")]
    assert len(healthy) >= 30
    assert {p.name: render(p) for p in healthy} == {p.name: "" for p in healthy}


def test_fixtures_found() -> None:
    assert len(CASES) >= 36
    assert any(p.name.endswith(".nb.py") for p in CASES)
