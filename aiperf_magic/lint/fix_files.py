"""Apply fixes to files on disk: ``.py`` sources and ``.ipynb`` notebooks (``aiperf lint --fix``).

Only what a fix changes is rewritten. In a ``.py`` file the encoding (PEP 263 coding line, BOM)
and the line endings of every untouched line stay as they were; in a notebook only the changed
cells' ``source`` values are replaced, in the file's own JSON layout (see :mod:`.notebook`).
A file is written in place (its hard links, owner and permissions stay), never through a
symbolic link, and never when it is read-only or when a fix cannot be written in its encoding.
"""

from __future__ import annotations

import contextlib
import os
import signal
import stat
import threading
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..fixes.edits import unified_diff
from .notebook import NotebookError, fixer_text, read_notebook
from .text import EncodingError, SourceBytes


class FixError(ValueError):
    """A file that could not be fixed: unreadable, malformed, or not writable. One line."""

    def __init__(self, path: Path | str, reason: str) -> None:
        super().__init__(f"{path}: {reason}")
        self.path = str(path)
        self.reason = reason


@dataclass
class FileFix:
    path: Path
    changed: bool
    diff: str
    cells: list[int] = field(default_factory=list)  # indexes (among all cells) of the changed notebook cells
    written: bool = False


def fix_source(
    source: str,
    *,
    select: Iterable[str] | None = None,
    ignore: Iterable[str] | None = None,
    unsafe: bool = False,
    context: Any = None,
) -> str:
    """``source`` with its fixes applied; ``context`` carries earlier notebook cells' imports."""
    from ..rules import analyze_cell, apply_fixes

    analysis = analyze_cell(
        source, select=list(select) if select else None, ignore=list(ignore) if ignore else None, context=context
    )
    return apply_fixes(analysis, unsafe=unsafe)


def fix_file(
    path: str | Path,
    *,
    select: Iterable[str] | None = None,
    ignore: Iterable[str] | None = None,
    unsafe: bool = False,
    write: bool = False,
) -> FileFix:
    """Fix one ``.py`` or ``.ipynb`` file; write it back only when ``write`` and something changed.

    Raises ``FixError`` (a ``ValueError`` whose message starts with the path) when the file cannot
    be read, is not a notebook lint understands, or cannot be written.
    """
    path = Path(path)
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise FixError(path, exc.strerror or str(exc)) from None
    opts: dict[str, Any] = {"select": select, "ignore": ignore, "unsafe": unsafe}
    try:
        if path.suffix == ".ipynb":
            new, cells, diff = _fix_notebook(path, data, opts)
        else:
            new, cells, diff = _fix_python(path, data, opts)
    except (NotebookError, EncodingError) as exc:
        raise FixError(path, str(exc)) from None
    result = FileFix(path=path, changed=new != data, diff=diff, cells=cells)
    if result.changed and write:
        _write(path, new)
        result.written = True
    return result


def _fix_python(path: Path, data: bytes, opts: dict[str, Any]) -> tuple[bytes, list[int], str]:
    source = SourceBytes.decode(data)
    text = source.text
    new_text = fix_source(text, **opts)
    if new_text == text:
        return data, [], ""
    return source.encode(new_text), [], unified_diff(text, new_text, str(path))


def _fix_notebook(path: Path, data: bytes, opts: dict[str, Any]) -> tuple[bytes, list[int], str]:
    """(new file bytes, changed cell indexes, a diff per changed cell named ``path:cell N``).

    Every cell is read knowing the names earlier cells defined, and every fixer sees the whole
    notebook: a function whose loss a later cell backpropagates is training code, wherever it is.
    """
    from ..rules import Context, apply_fixes, find, prepare_cell

    nb = read_notebook(data)
    select = list(opts["select"]) if opts["select"] else None
    ignore = list(opts["ignore"]) if opts["ignore"] else None
    context = Context()
    cells = [(i, fixer_text(c)) for i, c in enumerate(nb.cells) if c.kind == "code"]
    analyses = [prepare_cell(text, select=select, ignore=ignore, context=context) for _, text in cells]
    notebook = [a.facts for a in analyses if a.facts is not None]
    new_sources: dict[int, str] = {}
    diffs: list[str] = []
    for (index, text), analysis in zip(cells, analyses, strict=True):
        find(analysis, select=select, ignore=ignore, notebook=notebook)
        new_text = apply_fixes(analysis, unsafe=opts["unsafe"])
        if new_text != text:
            new_sources[index] = new_text
            diffs.append(unified_diff(text, new_text, f"{path}:cell {index}"))
    if not new_sources:
        return data, [], ""
    return nb.with_sources(new_sources), sorted(new_sources), "".join(diffs)


def _write(path: Path, data: bytes) -> None:
    """Rewrite ``path`` in place; a read-only file is refused even where the user could force it
    (root), and a symbolic link is never written through (``O_NOFOLLOW``)."""
    if path.is_symlink():
        raise FixError(path, f"a symbolic link to {os.readlink(path)}: not written through (fix the file itself)")
    try:
        mode = path.stat().st_mode
        if not mode & (stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH):
            raise FixError(path, "read-only file: not rewritten")
        with _ctrl_c_after():  # a file is never left half written
            fd = os.open(path, os.O_WRONLY | os.O_TRUNC | getattr(os, "O_NOFOLLOW", 0))
            with os.fdopen(fd, "wb") as fh:
                fh.write(data)
    except OSError as exc:
        raise FixError(path, f"could not write the fix ({exc.strerror or exc})") from None


@contextlib.contextmanager
def _ctrl_c_after() -> Iterator[None]:
    """Holds Ctrl-C (SIGINT) back until the block is done, then raises it."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    caught: list[int] = []
    previous = signal.signal(signal.SIGINT, lambda signum, _frame: caught.append(signum))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
    if caught:
        raise KeyboardInterrupt
