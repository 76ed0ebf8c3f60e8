"""Fix generation costs in proportion to the findings (one cell with 200 row loops once took 30 s,
because every fix generated the whole cell's code again). Counted, not timed: the code each size of
cell makes libcst generate while its fixes are built. The times are in ``benchmarks/analyze.py``."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import libcst as cst
import pytest

from aiperf_magic.rules import analyze

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

from analyze import many_row_loops as _cell  # the benchmark's own cell


@pytest.fixture
def generated(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """Characters of code libcst generates (a node's code, or a whole module's)."""
    chars = [0]
    for_node = cst.Module.code_for_node
    whole = cst.Module.code.fget  # type: ignore[attr-defined]

    def counted_node(self: cst.Module, node: cst.CSTNode) -> str:
        out = for_node(self, node)
        chars[0] += len(out)
        return out

    def counted_whole(self: cst.Module) -> str:
        out = whole(self)
        chars[0] += len(out)
        return out

    monkeypatch.setattr(cst.Module, "code_for_node", counted_node)
    monkeypatch.setattr(cst.Module, "code", property(counted_whole))
    yield chars


def test_two_hundred_findings_in_one_cell_get_their_fixes_in_linear_work(generated: list[int]) -> None:
    made = {}
    for n in (50, 200):
        source = _cell(n)
        generated[0] = 0
        found = analyze(source, select=["ALL"])
        assert len(found) == n and all(f.fixable for f in found)
        made[n] = generated[0]
    # linear: four times the findings, about four times the code; once per fix the whole cell: 16 times
    assert 0 < made[200] <= 5 * made[50], made
    assert made[200] < 2 * len(_cell(200)), "the fixes generated more than twice the cell's code"
