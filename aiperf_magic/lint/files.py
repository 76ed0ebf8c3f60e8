"""Lint files and folders: ``.py`` files whole, ``.ipynb`` notebooks cell by cell.

In a notebook, names imported or defined by earlier code cells resolve in later ones (a notebook
usually imports in its first cells), and line numbers are within each cell.
"""

from __future__ import annotations

import io
import json
import tokenize
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..report import Finding
from ..rules import analyze, analyze_notebook

SKIP_DIRS = frozenset(
    {
        ".git",
        ".hg",
        ".venv",
        "venv",
        "__pycache__",
        ".ipynb_checkpoints",
        "node_modules",
        ".tox",
        ".mypy_cache",
        ".ruff_cache",
        ".pytest_cache",
        "build",
        "dist",
    }
)


@dataclass(frozen=True)
class Located:
    """A finding with the file (and notebook cell) it belongs to."""

    path: str
    cell: int | None  # 0-based index among all cells of the notebook; None for .py files
    finding: Finding


@dataclass(frozen=True)
class ReadError:
    path: str
    reason: str


def iter_files(paths: Iterable[str | Path]) -> Iterator[Path | ReadError]:
    """Each ``.py``/``.ipynb`` file named or found (recursively) under a folder, in order."""
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            for child in sorted(path.rglob("*")):
                rel = child.relative_to(path).parts
                if any(part in SKIP_DIRS or part.startswith(".") for part in rel[:-1]):
                    continue
                if child.suffix in (".py", ".ipynb") and child.is_file():
                    yield child
        elif path.is_file():
            yield path
        else:
            yield ReadError(str(path), "no such file or directory")


def lint_path(path: Path, *, select: Any = None, ignore: Any = None) -> list[Located] | ReadError:
    """Findings of one file, or why it could not be read."""
    try:
        data = path.read_bytes()
    except OSError as exc:
        return ReadError(str(path), exc.strerror or str(exc))
    if path.suffix == ".ipynb":
        cells = notebook_cells(data)
        if isinstance(cells, str):
            return ReadError(str(path), cells)
        return lint_cells(str(path), cells, select=select, ignore=ignore)
    text = decode_source(data)
    if text is None:
        return ReadError(
            str(path), "not valid text in its declared encoding (UTF-8 unless a coding line says otherwise)"
        )
    return [Located(str(path), None, f) for f in analyze(text, select=select, ignore=ignore)]


def lint_cells(path: str, cells: list[tuple[str, str]], *, select: Any = None, ignore: Any = None) -> list[Located]:
    """Findings of a notebook's code cells, each cell read knowing the whole notebook."""
    code = [(index, source) for index, (kind, source) in enumerate(cells) if kind == "code"]
    found = analyze_notebook([source for _, source in code], select=select, ignore=ignore)
    return [Located(path, index, f) for (index, _), findings in zip(code, found, strict=True) for f in findings]


def decode_source(data: bytes) -> str | None:
    """Decode a Python file as Python does (BOM, ``# -*- coding: ... -*-``, else UTF-8)."""
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
        return data.decode(encoding).removeprefix("\ufeff")
    except (SyntaxError, LookupError, UnicodeDecodeError):
        return None


def notebook_cells(data: bytes) -> list[tuple[str, str]] | str:
    """(cell_type, source) of every cell, or the reason the notebook cannot be read.

    nbformat 4 keeps the cells in ``cells``; nbformat 3 (notebooks saved by IPython 1 and 2) in
    ``worksheets[].cells``, with a code cell's text under ``input``. Cell indexes count every cell
    of every worksheet, in order."""
    try:
        nb = json.loads(data.decode("utf-8-sig"))
    except UnicodeDecodeError:
        return "not UTF-8 text"
    except json.JSONDecodeError as exc:
        return f"invalid notebook JSON: {exc.msg} at line {exc.lineno}, column {exc.colno}"
    if not isinstance(nb, dict):
        return "invalid notebook: the file is not a JSON object"
    raw = nb.get("cells")
    text_key = "source"
    if raw is None and isinstance(nb.get("worksheets"), list):
        sheets = nb["worksheets"]
        if not all(isinstance(w, dict) and isinstance(w.get("cells", []), list) for w in sheets):
            return "invalid nbformat 3 notebook: a worksheet has no 'cells' list"
        raw = [cell for sheet in sheets for cell in sheet.get("cells", [])]
        text_key = "input"
    if not isinstance(raw, list):
        return "invalid notebook: no 'cells' list (nbformat 4) nor 'worksheets' (nbformat 3)"
    cells: list[tuple[str, str]] = []
    for cell in raw:
        if not isinstance(cell, dict):
            return "invalid notebook: a cell is not a JSON object"
        kind = str(cell.get("cell_type", ""))
        source = cell.get(text_key if kind == "code" else "source", cell.get("source", ""))
        if isinstance(source, list):
            source = "".join(s for s in source if isinstance(s, str))
        cells.append((kind, source if isinstance(source, str) else ""))
    return cells
