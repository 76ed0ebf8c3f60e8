"""Notebooks as ``aiperf lint`` reads them: nbformat 4 and 3, and cells IPython accepts."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from aiperf_magic.cli import main
from aiperf_magic.lint.files import notebook_cells
from aiperf_magic.rules import analyze

LOOP = "for i, row in df.iterrows():\n    df.loc[i, 'b'] = row['a'] * 2\n"


def v3(*cells: dict) -> bytes:
    return json.dumps(
        {"nbformat": 3, "nbformat_minor": 0, "metadata": {"name": ""}, "worksheets": [{"cells": list(cells)}]}
    ).encode()


def test_nbformat_3_cells_are_read_from_the_worksheets() -> None:
    data = v3(
        {"cell_type": "heading", "level": 1, "source": ["Sales"]},
        {"cell_type": "code", "language": "python", "input": ["import pandas as pd\n", "df = pd.read_csv('a.csv')"]},
        {"cell_type": "markdown", "source": "text"},
        {"cell_type": "code", "language": "python", "input": LOOP},
    )
    cells = notebook_cells(data)
    assert cells == [
        ("heading", "Sales"),
        ("code", "import pandas as pd\ndf = pd.read_csv('a.csv')"),
        ("markdown", "text"),
        ("code", LOOP),
    ]


def test_lint_reads_an_nbformat_3_notebook(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "old.ipynb"
    path.write_bytes(
        v3(
            {"cell_type": "code", "input": "import pandas as pd\ndf = pd.read_csv('a.csv')"},
            {"cell_type": "code", "input": LOOP},
        )
    )
    code = main(["lint", "--format", "json", "--preview", "--select", "AIP301", str(path)])
    found = json.loads(capsys.readouterr().out)
    assert code == 1 and [(f["cell"], f["line"], f["code"]) for f in found] == [(1, 1, "AIP301")]


def test_unreadable_notebooks_give_a_clear_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "odd.ipynb"
    path.write_text(json.dumps({"nbformat": 3, "worksheets": [{"cells": "nope"}]}))
    assert main(["lint", str(path)]) == 2
    assert "nbformat 3" in capsys.readouterr().err
    path.write_text(json.dumps({"metadata": {}}))
    assert main(["lint", str(path)]) == 2
    assert "no 'cells' list" in capsys.readouterr().err


def test_a_leading_space_parses_as_ipython_accepts_it() -> None:
    assert analyze(" Image(filename='a.png')\n", select=["ALL"]) == []
    assert analyze(" from IPython.display import Image\n Image('b.png')\n", select=["ALL"]) == []
