"""benchmarks/memory_lines.py: its reference reading and its table, on a tiny cell (never its numbers)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

import memory_lines as bench


def test_the_reference_reads_each_statement_and_the_line_memory_stood_highest_at(ip: Any) -> None:
    body = "a = bytearray(20_000_000)\nb = bytearray(5_000_000)\ndel a\nc = 1\n"
    ref, peak = bench.reference(ip, body, "tracemalloc")
    assert ref[1][0] == pytest.approx(20e6, rel=0.01) and ref[2][0] == pytest.approx(5e6, rel=0.01)
    assert ref[3][0] < 1024 and peak == 2
    rss, rss_peak = bench.reference(ip, "d = bytearray(30_000_000)\nd[::4096] = b'x' * len(d[::4096])\n", "rss")
    assert rss[1][0] + rss[2][0] >= 25e6 and rss_peak in (1, 2)


def test_the_table_marks_judged_lines_against_each_modes_goal(capsys: pytest.CaptureFixture[str]) -> None:
    rows = [
        {"cell": "c", "line": 1, "code": "a = f()", "mode": "memray", "run": 0, "ref": 100e6, "got": 95e6,
         "seconds": 0.2, "judged": True, "ref_peak": 1, "peak": 1},
        {"cell": "c", "line": 1, "code": "a = f()", "mode": "sampled", "run": 0, "ref": 100e6, "got": 60e6,
         "seconds": 0.2, "judged": True, "ref_peak": 1, "peak": 2},
    ]
    bench.print_matrix(rows)
    out = capsys.readouterr().out
    assert "-5% " in out and " ok" in out and "-40%" in out and "MISS" in out
    assert "memray      1/1 lines within ±10 %" in out and "sampled     0/1 lines within ±25 %" in out
    assert "wrong: c: 2 (reference 1)" in out


def test_the_reference_peak_is_the_statement_that_brought_memory_to_its_highest() -> None:
    plateau = [(1, 300.0, 300.0), (2, 301.0, 301.0), (3, 305.0, 305.0)]
    assert bench.peak_statement(plateau) == 1  # the later ones only carry the level
    fell = [(1, 300.0, 10.0), (2, 310.0, 310.0)]
    assert bench.peak_statement(fell) == 2  # memory fell away between: a peak of its own
    assert bench.peak_statement([(1, 0.0, 0.0)]) is None
