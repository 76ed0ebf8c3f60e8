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
    # 20 reads that are not most of the cell (the rest is elsewhere): too few to matter
    spots = [hot(1, 0.4, 60, callees={"Series.apply": 60}), hot(2, 0.55, 83)]
    few = run_on(CELL + "x = sum(i * i for i in range(10 ** 6))\n", spots, _ns(HELPER, rows=20),
                 [hot(2, 0.2, 30, callees={"_modified_open": 25}, function="clean", where="cell [1]", file=file)])
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


OPENED = ("def category_of(code):\n"
          "    with open(lookup_path, 'rb') as fh:\n"
          "        table = pickle.load(fh)\n"
          "    return table.get(code, 'unknown')\n"
          "\n"
          "cats = [category_of(c) for c in codes]\n")


def test_a_handle_read_in_the_with_block_that_opened_it_counts_as_the_file_read() -> None:
    """The time is on ``pickle.load(fh)``; the path is on the ``with open(...)`` above it."""
    import pickle

    ns = {"pickle": pickle, "lookup_path": "table.pkl", "codes": [f"c{i}" for i in range(1_000)]}
    spots = [hot(3, 0.8, 80), hot(2, 0.15, 15, callees={"_modified_open": 15}), hot(6, 0.02, 2)]
    (reread,) = [f for f in run_on(OPENED, spots, ns) if f.code == "AIP105" and f.shown]
    assert reread.line == 2 and "lookup_path was opened and read again 1,000 times" in reread.message
    assert "lines 3-4 took 95% of the cell" in reread.message
    per_code = OPENED.replace("open(lookup_path, 'rb')", "open(f'{code}.pkl', 'rb')")
    assert "AIP105" not in [c for c, _ in shown(run_on(per_code, spots, ns))]


BATCHES = ("def batches(path, size, total):\n"
           "    for start in range(0, total, size):\n"
           "        yield pd.read_csv(path, skiprows=range(1, start + 1), nrows=size)\n"
           "\n"
           "for batch in batches(csv_path, 2_000, 60_000):\n"
           "    pass\n")


def test_a_file_parsed_again_for_each_batch_is_found_when_the_reads_are_the_cell() -> None:
    """30 reads are few, but each parses the file from its top: the run says they are the cell. The
    path is a parameter, which does not change within the loop."""
    ns = {"pd": pd, "csv_path": "train.csv"}
    spots = [hot(3, 0.9, 90, callees={"read_csv": 88}, loop_line=2, loop_count=30), hot(5, 0.05, 5)]
    (reread,) = [f for f in run_on(BATCHES, spots, ns) if f.code == "AIP105" and f.shown]
    assert reread.line == 3 and "path was opened and read again 30 times, once per iteration" in reread.message
    assert "chunksize=n" in reread.message
    light = [hot(3, 0.3, 30, callees={"read_csv": 28}, loop_line=2, loop_count=30), hot(5, 0.6, 60)]
    assert "AIP105" not in [c for c, _ in shown(run_on(BATCHES, light, ns))]
