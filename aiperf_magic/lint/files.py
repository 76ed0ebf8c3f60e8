"""Lint files and folders: ``.py`` files whole, ``.ipynb`` notebooks cell by cell.

In a notebook, names imported or defined by earlier code cells resolve in later ones (a notebook
usually imports in its first cells), and line numbers are within each cell.

Folders are walked without following links to folders. A file reached through a symbolic link is
read once, under the first name found; when files are rewritten (``--fix``), links are never
written through: a link whose target lies outside the paths given is skipped and named, one whose
target is also found directly is fixed there. Broken and looping links are named, not passed over.
"""

from __future__ import annotations

import errno
import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..report import Finding
from ..rules import analyze, analyze_notebook
from ..rules.families import PARSE_ERROR
from .notebook import NotebookError, fixer_text, read_notebook
from .text import EncodingError, SourceBytes

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
SUFFIXES = (".py", ".ipynb")
NOT_REGULAR = "not a regular file: skipped"
NOT_ANALYSED = "not-analysed"


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


@dataclass(frozen=True)
class Skipped:
    """A file deliberately left alone (a link), with the reason; a warning, not an error."""

    path: str
    reason: str


def iter_files(paths: Iterable[str | Path], *, rewriting: bool = False) -> Iterator[Path | ReadError | Skipped]:
    """Each ``.py``/``.ipynb`` file named or found (recursively) under a folder, in order, once.

    ``rewriting``: the files will be written, so symbolic links are skipped (see the module doc).
    """
    given = [Path(p) for p in paths]
    roots = [os.path.realpath(p) for p in given if p.is_dir() or (p.is_file() and not p.is_symlink())]
    found: list[Path | ReadError | Skipped] = []
    for path in given:
        if path.is_dir():
            found.extend(_walk(path))
        elif path.is_file():
            found.append(path)
        elif path.is_symlink():
            found.append(_broken_link(path))
        elif os.path.exists(path):  # a FIFO, a socket, a device: reading it could block or never end
            found.append(Skipped(str(path), NOT_REGULAR))
        else:
            found.append(ReadError(str(path), "no such file or directory"))
    real_files = {os.path.realpath(p) for p in found if isinstance(p, Path) and not p.is_symlink()}
    seen: set[str] = set()
    for entry in found:
        if not isinstance(entry, Path):
            yield entry
            continue
        real = os.path.realpath(entry)
        if real in seen:
            continue
        if rewriting and entry.is_symlink():
            if real in real_files:
                continue  # the target itself is on the list: it is fixed under its own name
            yield Skipped(str(entry), _link_note(entry, real, roots))
            continue
        seen.add(real)
        yield entry


def _walk(folder: Path) -> list[Path | Skipped]:
    out: list[Path | Skipped] = []
    for top, dirs, files in os.walk(folder):  # links to folders are listed in dirs, never entered
        dirs[:] = [d for d in dirs if d not in SKIP_DIRS and not d.startswith(".")]
        for name in files:
            path = Path(top, name)
            if path.suffix not in SUFFIXES:
                continue
            if path.is_file():
                out.append(path)
            elif path.is_symlink():
                out.append(_broken_link(path))
            else:
                out.append(Skipped(str(path), NOT_REGULAR))
    return sorted(out, key=lambda entry: Path(entry.path if isinstance(entry, Skipped) else entry).parts)


def _broken_link(path: Path) -> Skipped:
    try:
        path.resolve(strict=True)
    except RuntimeError:  # Python < 3.13 reports a link loop so
        return Skipped(str(path), "a symbolic link that loops: skipped")
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            return Skipped(str(path), "a symbolic link that loops: skipped")
        return Skipped(str(path), f"a broken symbolic link (to {os.readlink(path)}): skipped")
    return Skipped(str(path), NOT_REGULAR)


def _link_note(path: Path, real: str, roots: list[str]) -> str:
    inside = any(real == root or real.startswith(root.rstrip(os.sep) + os.sep) for root in roots)
    if inside:
        return f"a symbolic link to {os.readlink(path)}: not rewritten through the link (name the file itself)"
    return f"a symbolic link to {os.readlink(path)}, outside the paths given: not rewritten"


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
    return [Located(str(path), None, f) for f in analyze(text, select=select, ignore=ignore, fix_sources=False)]


def unanalysed(found: list[Located]) -> Located | None:
    """The first part of a file that aiperf could not analyse (AIP000 ``not-analysed``: nested too
    deeply, or too long a line), or None: such a file was not checked in full."""
    return next((i for i in found if i.finding.code == PARSE_ERROR and i.finding.name == NOT_ANALYSED), None)


def lint_cells(path: str, cells: list[tuple[str, str]], *, select: Any = None, ignore: Any = None) -> list[Located]:
    """Findings of a notebook's code cells, each cell read knowing the whole notebook."""
    code = [(index, source) for index, (kind, source) in enumerate(cells) if kind == "code"]
    found = analyze_notebook([source for _, source in code], select=select, ignore=ignore, fix_sources=False)
    return [Located(path, index, f) for (index, _), findings in zip(code, found, strict=True) for f in findings]


def decode_source(data: bytes) -> str | None:
    """Decode a Python file as Python does (BOM, ``# -*- coding: ... -*-``, else UTF-8)."""
    try:
        return SourceBytes.decode(data).text
    except EncodingError:
        return None


def notebook_cells(data: bytes) -> list[tuple[str, str]] | str:
    """(cell_type, source) of every cell, or the reason the notebook cannot be read.

    nbformat 4 keeps the cells in ``cells``; nbformat 3 (notebooks saved by IPython 1 and 2) in
    ``worksheets[].cells``, with a code cell's text under ``input``. Cell indexes count every cell
    of every worksheet, in order."""
    try:
        return [(cell.kind, fixer_text(cell)) for cell in read_notebook(data).cells]
    except NotebookError as exc:
        return str(exc)
