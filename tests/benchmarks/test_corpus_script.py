"""benchmarks/corpus.py on a tiny fake corpus: precision table, disappeared and appeared findings, --fix check."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "corpus.py"

ROW_LOOP = """import pandas as pd

df = pd.read_csv("sales.csv")
total = 0
for _, row in df.iterrows():
    total += row["price"] * row["qty"]
print(total)
"""
COLUMN_EXPRESSION = """import pandas as pd

df = pd.read_csv("sales.csv")
total = (df["price"] * df["qty"]).sum()
print(total)
"""


def notebook(*cells: str) -> str:
    """A notebook with a markdown cell first, then the code cells (so code cell k has index k)."""
    code: list[dict[str, Any]] = [
        {"cell_type": "code", "metadata": {}, "source": s, "outputs": [], "execution_count": None} for s in cells
    ]
    body = [{"cell_type": "markdown", "metadata": {}, "source": "# Report"}, *code]
    return json.dumps({"cells": body, "metadata": {}, "nbformat": 4, "nbformat_minor": 5})


LOOP_NOTEBOOK = notebook(
    "import pandas as pd\ndf = pd.read_csv('sales.csv')",
    "total = 0\nfor _, row in df.iterrows():\n    total += row['price'] * row['qty']",
)


def label(repo: str, path: str, cell: int | None, line: int, verdict: str) -> dict[str, Any]:
    return {"repo": repo, "commit": "0" * 40, "path": path, "cell": cell, "line": line, "code": "AIP301",
            "label": verdict, "reason": "test"}  # fmt: skip


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    root = tmp_path / "corpus"
    files = {
        "acme+shop/sales.py": ROW_LOOP,  # labelled TP, still reported
        "acme+shop/extra.py": ROW_LOOP,  # labelled debatable, still reported
        "acme+shop/report.ipynb": LOOP_NOTEBOOK,  # labelled FP, still reported
        "beta+lab/clean.py": COLUMN_EXPRESSION,  # labelled TP, no longer reported: a regression
        "beta+lab/notes.ipynb": LOOP_NOTEBOOK,  # reported, never labelled: appeared
        "beta+lab/old.py": ROW_LOOP,  # reported, unlabelled but in the baseline: not "appeared"
    }
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")
    labels = [
        label("acme/shop", "sales.py", None, 5, "TP"),
        label("acme/shop", "extra.py", None, 5, "debatable"),
        label("acme/shop", "report.ipynb", 2, 2, "FP"),
        label("beta/lab", "clean.py", None, 5, "TP"),
    ]
    doc = {"labels": labels, "unlabelled": [["beta/lab", "old.py", None, 5, "AIP301"]]}
    (tmp_path / "labels.json").write_text(json.dumps(doc), encoding="utf-8")
    return root


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True, text=True, check=False)


def test_precision_and_changes_as_json(corpus: Path) -> None:
    labels = str(corpus.parent / "labels.json")
    proc = run(str(corpus / "acme+shop"), str(corpus / "beta+lab"), "--labels", labels, "--json")
    assert proc.returncode == 0, proc.stderr
    rep = json.loads(proc.stdout)
    assert rep["files"] == 6
    assert rep["rules"] == {"AIP301": 5}
    assert rep["repos"]["acme/shop"] == {"files": 3, "parse_failures": 0, "read_errors": []}
    row = rep["precision"]["rules"]["AIP301"]
    assert (row["findings"], row["labelled"], row["TP"], row["FP"], row["debatable"]) == (5, 3, 1, 1, 1)
    assert row["precision"] == 50.0
    assert row["precision_debatable_false"] == 33.3
    prec = rep["precision"]
    assert [(d["repo"], d["path"], d["label"]) for d in prec["disappeared"]] == [("beta/lab", "clean.py", "TP")]
    assert prec["lost_tp"] == 1
    appeared = [(a["repo"], a["path"], a["cell"], a["line"]) for a in prec["appeared"]]
    assert appeared == [("beta/lab", "notes.ipynb", 2, 2)]


def test_text_table_and_default_root(corpus: Path) -> None:
    proc = run(str(corpus / "acme+shop"), str(corpus / "beta+lab"), "--labels", str(corpus.parent / "labels.json"))
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert "rule | findings | labelled | TP | FP | debatable | precision" in out
    assert "AIP301 | 5 | 3 | 1 | 1 | 1 | 50.0 % | 33.3 %" in out
    assert "REGRESSION TP AIP301 beta/lab/clean.py:5" in out
    assert "AIP301 beta/lab/notes.ipynb:cell 2:2" in out
    # one repository alone: its parent is the corpus root, and the other repository's labels are not "disappeared"
    alone = json.loads(run(str(corpus / "acme+shop"), "--labels", str(corpus.parent / "labels.json"), "--json").stdout)
    assert alone["precision"]["disappeared"] == []
    assert list(alone["repos"]) == ["acme/shop"]


def test_fix_mode_keeps_everything_parsing(corpus: Path) -> None:
    proc = run(str(corpus), "--fix", "--json")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    rep = json.loads(proc.stdout)
    assert rep["files"] == 6
    assert rep["files_rewritten"] >= 1
    assert rep["fixes"].get("AIP301", 0) >= 1
    assert rep["breakages"] == []
    assert "iterrows" in (corpus / "acme+shop" / "sales.py").read_text(encoding="utf-8")  # originals untouched


def test_fix_and_run_compares_outputs_before_and_after(corpus: Path) -> None:
    """--run: the rewritten files that run here (their data beside them) print the same after."""
    shop = corpus / "acme+shop"
    rows = "\n".join(f"{p},{q}" for p, q in zip(range(1, 200), range(3, 202), strict=True))
    (shop / "sales.csv").write_text("price,qty\n" + rows + "\n", encoding="utf-8")
    (shop / "report.ipynb").write_text(
        notebook(
            "import pandas as pd\ndf = pd.read_csv('sales.csv')",
            "total = 0\nfor _, row in df.iterrows():\n    total += row['price'] * row['qty']\nprint(total)",
            "import a_module_this_machine_lacks",  # the original stops here: judged on the cells before
        ),
        encoding="utf-8",
    )
    proc = run(str(shop), "--fix", "--run", "--run-timeout", "120", "--json")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    rep = json.loads(proc.stdout)
    status = {r["path"]: r["status"] for r in rep["runs"]}
    assert status["sales.py"] == "equal" and status["report.ipynb"] == "equal", rep["runs"]
    notes = {r["path"]: r["why"] for r in rep["runs"]}
    assert notes["report.ipynb"].startswith("1 of 1 rewritten cells ran in both")
    assert rep["breakages"] == []


def test_run_comparison_ignores_what_varies_and_catches_other_values() -> None:
    sys.path.insert(0, str(SCRIPT.parent))
    from corpus_run import difference

    before = ["loss 0.123456\ntook 1.2 s\n<obj at 0x7f01>\n"]
    again = ["loss 0.123456\ntook 1.5 s\n<obj at 0x7f99>\n"]
    assert difference(before, again, ["loss 0.1234561\ntook 9.9 s\n<obj at 0x1>\n"]) is None
    assert "0.2" in (difference(before, again, ["loss 0.2\ntook 1.2 s\n<obj at 0x7f01>\n"]) or "")
    assert "output lines" in (difference(before, again, ["loss 0.123456\n"]) or "")


def test_split_reports_held_out_and_tuning_apart(corpus: Path) -> None:
    path = corpus.parent / "labels.json"
    doc = json.loads(path.read_text(encoding="utf-8"))
    doc["split"] = {"tuning": ["beta/lab"], "held_out": ["acme/shop"]}
    path.write_text(json.dumps(doc), encoding="utf-8")
    proc = run(str(corpus / "acme+shop"), str(corpus / "beta+lab"), "--labels", str(path), "--json")
    assert proc.returncode == 0, proc.stderr
    rep = json.loads(proc.stdout)
    held, tuning = rep["splits"]["held_out"], rep["splits"]["tuning"]
    assert held["repos"] == ["acme/shop"] and tuning["repos"] == ["beta/lab"]
    row = held["rules"]["AIP301"]
    assert (row["findings"], row["TP"], row["FP"], row["debatable"], row["precision"]) == (3, 1, 1, 1, 50.0)
    assert tuning["rules"]["AIP301"]["findings"] == 2 and tuning["lost_tp"] == 1 and held["lost_tp"] == 0
    assert rep["precision"]["rules"]["AIP301"]["findings"] == 5  # all repositories, as without a split
    text = run(str(corpus / "acme+shop"), str(corpus / "beta+lab"), "--labels", str(path)).stdout
    assert "precision on 1 held-out repositories" in text and "precision on 1 tuning repositories" in text
    assert text.index("held-out") < text.index("tuning repositories")
