"""Golden fixtures: ``tests/fixtures/rules/<CODE>_<case>.py`` must give exactly ``<case>.txt``.

Each ``.txt`` line is ``LINE:COL-END_LINE:END_COL CODE message``. Healthy twins
(``*_healthy.py``) have an empty ``.txt``. After a deliberate change, regenerate with
``pytest tests/analysis --update-goldens`` and review the diff.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from aiperf_magic.rules import analyze

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "rules"

CASES = sorted(FIXTURES.glob("AIP*.py"))


def render(source: str) -> str:
    return "".join(f"{f.line}:{f.col}-{f.end_line}:{f.end_col} {f.code} {f.message}\n" for f in analyze(source, select=["ALL"]))


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_golden(path: Path, update_goldens: bool) -> None:
    got = render(path.read_text(encoding="utf-8"))
    golden = path.with_suffix(".txt")
    if update_goldens:
        golden.write_text(got, encoding="utf-8")
    assert golden.exists(), f"missing {golden.name}: run pytest with --update-goldens and review it"
    assert got == golden.read_text(encoding="utf-8")


def test_fixtures_found() -> None:
    assert len(CASES) >= 36
