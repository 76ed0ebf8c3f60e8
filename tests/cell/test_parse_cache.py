"""A cell run again unchanged reuses its parse; anything else is parsed afresh."""

from __future__ import annotations

from aiperf_magic.cell import parsed
from aiperf_magic.cell.parsed import ParsedCell, ParseFailure, parse
from aiperf_magic.rules.engine import analyze_cell
from aiperf_magic.rules.registry import ALL


def test_the_same_source_gets_the_same_parse_and_another_source_its_own() -> None:
    first = parse("rows = []\nfor i in range(10):\n    rows.append(i)\n")
    assert isinstance(first, ParsedCell)
    assert parse("rows = []\nfor i in range(10):\n    rows.append(i)\n") is first
    other = parse("rows = []\nfor i in range(10):\n    rows.append(i + 1)\n")
    assert isinstance(other, ParsedCell) and other is not first
    assert other.module.code.endswith("rows.append(i + 1)\n")


def test_only_the_last_few_sources_are_kept() -> None:
    first = parse("a = 0\n")
    for i in range(parsed._RECENT):
        parse(f"a = {i + 1}\n")
    assert len(parsed._recent) <= parsed._RECENT
    again = parse("a = 0\n")
    assert isinstance(again, ParsedCell) and again is not first


def test_a_failure_is_not_kept() -> None:
    failure = parse("for x in:\n    pass\n")
    assert isinstance(failure, ParseFailure)
    assert "for x in:\n    pass\n" not in parsed._recent


def test_a_released_parse_still_gives_the_same_findings() -> None:
    source = "total = 0\nfor i in range(2_000):\n    total += i * 2\n"
    first = analyze_cell(source, select=[ALL])
    codes = [(f.code, f.line, f.col, f.end_line, f.end_col) for f in first.findings]
    assert codes
    assert first.cell is not None
    first.cell.release()  # what the notebook linter does after each cell
    second = analyze_cell(source, select=[ALL])
    assert second.cell is first.cell
    assert [(f.code, f.line, f.col, f.end_line, f.end_col) for f in second.findings] == codes
