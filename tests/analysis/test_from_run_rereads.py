"""AIP105 from the run: the same file opened and read again at every call of a helper handed to
``apply`` (an earlier cell's, as the notebook has it) or at every iteration of a loop, found by the
time of the line that opens it, the path that depends on nothing the call changes, and the rows
``apply`` walked. A path that changes per call or iteration, and a file read once, stay silent."""

from __future__ import annotations

from typing import Any

import pytest

from aiperf_magic.report import Hotspot

from .test_from_run_hand_over import earlier_cell, hot, run_on, shown

pd = pytest.importorskip("pandas")

HELPER = ("def clean(text):\n"
          "    with open(stop_path, encoding='utf-8') as f:\n"
          "        stop = set(f.read().split())\n"
          "    return ' '.join(w for w in text.lower().split() if w not in stop)\n")
CELL = "df['clean'] = df['review'].apply(clean)\n"


def _functions(file: str, where: str = "cell [1]") -> list[Hotspot]:
    return [hot(2, 0.51, 77, callees={"_modified_open": 65}, function="clean", where=where, file=file),
            hot(3, 0.35, 52, function="clean", where=where, file=file),
            hot(4, 0.05, 8, function="clean", where=where, file=file)]


def _ns(helper: str, rows: int = 20_000) -> dict[str, Any]:
    ns: dict[str, Any] = {"df": pd.DataFrame({"review": ["a b c"] * rows}), "stop_path": "stop.txt"}
    exec(compile(helper, "<helper>", "exec"), ns)  # the test's own helper, as an earlier cell defines it
    return ns


def test_a_file_read_in_a_helper_handed_to_apply_is_found_per_row() -> None:
    file = earlier_cell(HELPER, "reread-1")
    found = run_on(CELL, [hot(1, 0.95, 143, callees={"Series.apply": 143})], _ns(HELPER), _functions(file))
    (reread,) = [f for f in found if f.code == "AIP105" and f.shown]
    assert reread.line == 1 and reread.evidence["reads"] == 20_000
    assert "stop_path was opened and read again 20,000 times" in reread.message
    assert "lines 2-3 took 86% of the cell" in reread.message and not reread.fixable


def test_a_path_given_by_the_call_or_a_few_rows_stay_silent() -> None:
    per_call = HELPER.replace("def clean(text):", "def clean(text, stop_path='stop.txt'):")
    file = earlier_cell(per_call, "reread-2")
    found = run_on(CELL, [hot(1, 0.95, 143, callees={"Series.apply": 143})], _ns(per_call), _functions(file))
    assert "AIP105" not in [c for c, _ in shown(found)]
    file = earlier_cell(HELPER, "reread-3")
    few = run_on(CELL, [hot(1, 0.95, 143, callees={"Series.apply": 143})], _ns(HELPER, rows=20), _functions(file))
    assert "AIP105" not in [c for c, _ in shown(few)]


LOOP = ("frames = []\nfor name in names:\n    table = pd.read_csv(lookup_path)\n"
        "    frames.append(table[table['k'] == name])\n")


def test_a_constant_file_read_in_a_loop_is_found_and_one_per_item_is_not() -> None:
    ns = {"pd": pd, "names": [f"n{i}" for i in range(500)], "lookup_path": "lookup.csv", "frames": []}
    spots = [hot(3, 0.9, 40, callees={"read_csv": 38}, loop_line=2, loop_count=500), hot(4, 0.05, 3, loop_line=2)]
    found = run_on(LOOP, spots, ns)
    assert ("AIP105", 3) in shown(found)
    per_item = LOOP.replace("pd.read_csv(lookup_path)", "pd.read_csv(f'{name}.csv')")
    assert "AIP105" not in [c for c, _ in shown(run_on(per_item, spots, ns))]
