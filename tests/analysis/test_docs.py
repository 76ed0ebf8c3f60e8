"""docs/rules.md carries the catalog generated from the rules' own docs: it must not drift."""

from __future__ import annotations

from pathlib import Path

from aiperf_magic.rules.catalog import markdown_catalog

DOC = Path(__file__).resolve().parents[2] / "docs" / "rules.md"
MARK = "<!-- catalog: generated from the rule docstrings; pytest tests/analysis --update-goldens -->\n"


def test_docs_catalog_is_current(update_goldens: bool) -> None:
    text = DOC.read_text(encoding="utf-8")
    head, sep, _ = text.partition(MARK)
    assert sep, "docs/rules.md lost its catalog marker"
    if update_goldens:
        DOC.write_text(head + MARK + "\n" + markdown_catalog(), encoding="utf-8")
        text = DOC.read_text(encoding="utf-8")
    assert text.partition(MARK)[2] == "\n" + markdown_catalog()
