"""benchmarks/real_cells.py --try: the shown fixes of slow cells go through the real Try, and each
cell is judged by the Try of its labelled trap's rewrite (never the numbers themselves)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

BENCH = Path(__file__).resolve().parents[2] / "benchmarks"
sys.path.insert(0, str(BENCH / "real_cells"))

from cell_labels import read_cell  # noqa: E402
from cell_try import outcome, rewrite_exists, score  # noqa: E402


def _try(trap: bool = True, **kw: Any) -> dict[str, Any]:
    row = {"code": "AIP301", "line": 1, "safety": "unsafe", "measure_first": False, "equal": True,
           "better": False, "faster": None, "speedup": 1.0, "difference": "", "error": None, "trap": trap}
    return {**row, **kw}


def test_a_cell_is_judged_by_its_trap_and_a_different_try_elsewhere_is_counted_apart() -> None:
    assert outcome({"tries": []}) == "nofix"
    assert outcome({"error": "setup: boom", "tries": []}) == "error"
    assert outcome({"tries": [_try(better=True, speedup=40.0)]}) == "better"
    assert outcome({"tries": [_try(equal=False, difference="df['x']: dtype int64 became float64")]}) == "different"
    assert outcome({"tries": [_try(faster=False, speedup=0.8, speedup_high=0.9, safety="safe")]}) == "slower"
    # within the runs' spread: not faster, not slower
    assert outcome({"tries": [_try(faster=False, speedup=0.9, speedup_high=1.2, safety="safe")]}) == "equal"
    assert outcome({"tries": [_try(faster=False, speedup=0.8, measure_first=True)]}) == "equal"
    assert outcome({"tries": [_try(equal=False, error=["NameError: x"])]}) == "failed"
    cells = [{"tries": [_try(better=True, speedup=40.0),
                        _try(trap=False, equal=False, difference="df['id']: dtype int64 became int32")]},
             {"tries": [_try(better=True, speedup=2.0)]}, {"tries": []}]
    assert outcome(cells[0]) == "better"
    totals = score(cells)
    assert totals["better"] == 2 and totals["other_different"] == 1 and totals["nofix"] == 1
    assert totals["median_speedup"] == 21.0 and round(totals["percent"]) == 67


def test_only_slow_cells_with_a_faster_rewrite_are_tried() -> None:
    cells = {p.stem: read_cell(p) for p in (BENCH / "real_cells" / "cells").glob("*.py")}
    assert rewrite_exists(cells["apply_lambda_bmi"], cuda=False)
    assert not any(rewrite_exists(c, cuda=False) for c in cells.values() if c.kind == "healthy")
    gpu_only = [c for c in cells.values() if c.header["rewrite"].lower().startswith("yes on a gpu")]
    assert gpu_only and not any(rewrite_exists(c, cuda=False) for c in gpu_only)


def test_the_try_harness_runs_a_cell_through_the_real_try(tmp_path: Path) -> None:
    out = tmp_path / "tries.json"
    proc = subprocess.run([sys.executable, str(BENCH / "real_cells.py"), "--try", "--only", "apply_lambda_bmi",
                           "--json", str(out)], capture_output=True, text=True, timeout=600, check=False)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "equal and faster" in proc.stdout and "median speedup" in proc.stdout
    data = json.loads(out.read_text())
    (cell,) = data["cells"]
    assert cell["name"] == "apply_lambda_bmi" and cell["tries"], cell
    tried = cell["tries"][0]
    assert tried["code"] == "AIP302" and tried["trap"] and "apply" not in tried["source"]
    assert set(data["totals"]) == {"A"} and data["totals"]["A"]["cells"] == 1
