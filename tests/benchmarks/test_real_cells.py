"""benchmarks/real_cells.py: the labelled cells read and agree with their frozen split, and the harness
runs a few of them end to end and reports in the shape it documents (never its numbers)."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "benchmarks"
sys.path.insert(0, str(BENCH / "real_cells"))

from cell_labels import Trap, check_index, load_cells, load_index, parse_markers  # noqa: E402

SCRIPT = BENCH / "real_cells.py"
# one slow and one healthy cell of the data kernel, one slow cell of the torch kernel: all short
FEW = ["apply_series_lambda_bins", "member_literal_list_ok", "tensor_d2l_vector_add"]


def test_markers_become_traps_and_leave_the_cell_as_it_runs() -> None:
    source = (
        "for i, row in df.iterrows():  # expect: AIP301\n"
        "    df.loc[i, 'x'] = row['a']  # expect: AIP301 ok: AIP303\n"
        "total = sum(a)  # expect: AIP201/sum\n"
        "low = min(a)  # expect: AIP201/min expect[cuda]: AIP102\n"
        "rows = parse(line)  # expect: *\n"
        "print(total)  # a comment that is no label\n"
    )
    text, traps, ok = parse_markers(source)
    assert text.splitlines() == ["for i, row in df.iterrows():", "    df.loc[i, 'x'] = row['a']",
                                 "total = sum(a)", "low = min(a)", "rows = parse(line)",
                                 "print(total)  # a comment that is no label"]
    assert Trap(("AIP301",), (1, 2)) in traps
    assert Trap(("AIP201",), (3,), "sum") in traps and Trap(("AIP201",), (4,), "min") in traps
    assert Trap(("AIP102",), (4,), cuda=True) in traps
    assert ok == [("AIP303", 2)]
    star = next(t for t in traps if t.codes == ("*",))
    assert star.accepts("AIP999", 5) and not star.accepts("AIP999", 4)
    with pytest.raises(ValueError, match="cannot read the label"):
        parse_markers("x = 1  # expect: AIP30\n")


def test_every_cell_reads_compiles_and_sits_in_its_fixed_half() -> None:
    cells, index = load_cells(), load_index()
    assert check_index(cells, index) == []
    assert sum(c.kind == "slow" for c in cells) >= 60 and sum(c.kind == "healthy" for c in cells) >= 20
    for cell in cells:
        compile(cell.setup, f"{cell.name} setup", "exec")
        # a notebook cell may await at its top level (IPython runs it so)
        compile(cell.source, f"{cell.name} cell", "exec", flags=ast.PyCF_ALLOW_TOP_LEVEL_AWAIT)
        body_lines = len(cell.source.splitlines())
        assert all(1 <= line <= body_lines for t in cell.traps for line in t.lines), cell.name
    groups = Counter((c.family, c.kind, index[c.name]["half"]) for c in cells)
    for family, kind in {(c.family, c.kind) for c in cells}:
        assert abs(groups[(family, kind, "A")] - groups[(family, kind, "B")]) <= 1, (family, kind)
    split = json.loads((BENCH / "corpus_labels.json").read_text(encoding="utf-8"))["real_cells_split"]
    assert sorted(name for half in "ABCDEFGHIJK" for name in split[half]) == sorted(index)
    assert all(index[name]["half"] == half for half in "ABCDEFGHIJK" for name in split[half])
    for later_half in "CDEFGHIJK":  # each newer held-out half: at least 14 slow and 6 healthy cells
        later = Counter(c.kind for c in cells if index[c.name]["half"] == later_half)
        assert later["slow"] >= 14 and later["healthy"] >= 6, later_half


def test_the_index_says_which_halves_are_tuned_on_and_which_are_held_out() -> None:
    from cell_labels import HALVES, held_out_halves

    record = json.loads((BENCH / "real_cells" / "index.json").read_text(encoding="utf-8"))
    assert sorted(record["tuning"] + record["held_out"]) == sorted(HALVES)
    assert not set(record["tuning"]) & set(record["held_out"])
    # B moved to tuning after its second report, D, E, F, G, H, I and J after their first; C and K were never tuned on
    assert record["tuning"] == ["A", "B", "D", "E", "F", "G", "H", "I", "J"] and held_out_halves() == ("C", "K")


def test_a_cpu_verdict_is_judged_by_the_cells_own_cpu_and_what_it_waited_for() -> None:
    from cell_score import contradiction

    assert contradiction("AIP907", {"process_cpu_cores": 0.95}) is None
    assert contradiction("AIP907", {"process_cpu_cores": 0.4}) == "AIP907 at 0.40 core of the cell's own CPU"
    # on a busy machine: 0.62 core of its own and 0.38 waiting for a CPU is a cell that wanted one core
    assert contradiction("AIP907", {"process_cpu_cores": 0.62, "cpu_wait_cores": 0.38}) is None
    # ... but not at 0.4 core of its own, whatever it waited, nor when it waited too little
    assert contradiction("AIP907", {"process_cpu_cores": 0.4, "cpu_wait_cores": 0.6}) is not None
    assert contradiction("AIP907", {"process_cpu_cores": 0.6, "cpu_wait_cores": 0.05}) is not None
    # AIP908 ("several cores") needs the cores themselves: waiting does not make them
    assert "AIP908 at 1.10 core" in contradiction("AIP908", {"process_cpu_cores": 1.1, "cpu_wait_cores": 0.8})
    assert contradiction("AIP903", {"process_cpu_cores": 0.01}) is None


@pytest.mark.slow
def test_the_harness_runs_a_few_cells_and_reports_every_figure(tmp_path: Path) -> None:
    out = tmp_path / "out.json"
    proc = subprocess.run([sys.executable, str(SCRIPT), "--only", ",".join(FEW), "--repeat", "1", "--json", str(out)],
                          capture_output=True, text=True, timeout=300, check=False)
    assert proc.returncode == 0, proc.stderr[-3000:]
    for figure in ("precision by site", "recall", "verdict accuracy", "false alarms", "overhead",
                   "first %%aiperf in the data kernel", "first %%aiperf in the torch kernel"):
        assert figure in proc.stdout, figure
    report = json.loads(out.read_text())
    assert [c["name"] for c in report["cells"]] == sorted(FEW)
    for cell in report["cells"]:
        assert not cell.get("error"), cell
        assert cell["verdict"] and isinstance(cell["verdict_ok"], bool)
        assert len(cell["runs"]["plain"]) == len(cell["runs"]["magic"]) == 1
        assert all(site["mark"] in ("right", "wrong", "neutral") for site in cell["sites"])
        assert set(cell["found"]) | set(cell["missed"]) == set(cell["traps"])
    assert "false_alarm" in next(c for c in report["cells"] if c["kind"] == "healthy")
    halves = {h for h in report["totals"] if h != "all"}
    assert halves <= {"A", "B", "C", "D", "E"} and halves
    for t in report["totals"].values():
        assert {"precision", "recall", "verdict", "false_alarms", "overhead"} <= set(t)
