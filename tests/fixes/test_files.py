"""fix_file on .py files and .ipynb notebooks (only changed cells rewritten, the rest byte-for-byte)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from aiperf_magic.lint.fix_files import fix_file

SRC = "with open(path) as fh:\n    for line in fh.readlines():\n        n += 1\n"
FIXED = "    for line in fh:"


def test_py_file_diff_and_write(tmp_path: Path) -> None:
    path = tmp_path / "m.py"
    path.write_text(SRC)
    r = fix_file(path, select=["ALL"])
    assert r.changed and "+" + FIXED in r.diff and path.read_text() == SRC
    r = fix_file(path, write=True, select=["ALL"])
    assert FIXED in path.read_text()
    assert not fix_file(path, select=["ALL"]).changed


def notebook(cells: list[dict]) -> str:
    nb = {"cells": cells, "metadata": {"kernelspec": {"name": "python3"}}, "nbformat": 4, "nbformat_minor": 5}
    return json.dumps(nb, indent=1, sort_keys=True, ensure_ascii=False) + "\n"


def code(src: str, cid: str) -> dict:
    return {
        "cell_type": "code",
        "execution_count": None,
        "id": cid,
        "metadata": {},
        "outputs": [],
        "source": src.splitlines(keepends=True),
    }


def test_notebook_only_changed_cells_are_rewritten(tmp_path: Path) -> None:
    cells = [
        code("import numpy as np  # é\n", "c1"),
        {"cell_type": "markdown", "id": "m", "metadata": {}, "source": ["x in [1]"]},
        code("%%aiperf\n" + SRC, "c2"),
        code("%%bash\nfor line in $(cat f); do :; done", "c3"),
    ]
    path = tmp_path / "n.ipynb"
    raw = notebook(cells)
    path.write_text(raw, encoding="utf-8")
    r = fix_file(path, write=True, select=["ALL"])
    assert r.changed and r.cells == [2]
    assert f"{path}:cell 2 (before)" in r.diff and "+" + FIXED in r.diff
    new = path.read_text(encoding="utf-8")
    changed = [(a, b) for a, b in zip(raw.splitlines(), new.splitlines(), strict=False) if a != b]
    assert len(raw.splitlines()) == len(new.splitlines()) and len(changed) == 1
    assert FIXED.strip() in changed[0][1]
    assert json.loads(new)["cells"][2]["source"][0] == "%%aiperf\n"


def test_invalid_notebook_json_is_a_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "bad.ipynb"
    path.write_text("{not json")
    with pytest.raises(ValueError, match=r"bad\.ipynb: not valid notebook JSON"):
        fix_file(path)
    assert path.read_text() == "{not json"
