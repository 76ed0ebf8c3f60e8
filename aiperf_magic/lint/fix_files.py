"""Apply fixes to files on disk: ``.py`` sources and ``.ipynb`` notebooks (``aiperf lint --fix``).

In a notebook only the changed code cells' ``source`` is rewritten; when the file was written the
way Jupyter writes notebooks (one-space indent, sorted keys), every other byte stays as it was.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..fixes.edits import unified_diff


@dataclass
class FileFix:
    path: Path
    changed: bool
    diff: str
    cells: list[int]  # indexes (among all cells) of the notebook cells changed; empty for .py


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

    Raises ``ValueError`` (with the path and reason) for a notebook that is not valid JSON.
    """
    path = Path(path)
    raw = path.read_text(encoding="utf-8")
    opts: dict[str, Any] = {"select": select, "ignore": ignore, "unsafe": unsafe}
    if path.suffix == ".ipynb":
        new, cells, diff = _fix_notebook(path, raw, opts)
    else:
        new, cells = fix_source(raw, **opts), []
        diff = unified_diff(raw, new, str(path)) if new != raw else ""
    changed = new != raw
    if changed and write:
        path.write_text(new, encoding="utf-8")
    return FileFix(path=path, changed=changed, diff=diff, cells=cells)


def _fix_notebook(path: Path, raw: str, opts: dict[str, Any]) -> tuple[str, list[int], str]:
    """(new file text, changed cell indexes, a diff per changed cell named ``path:cell N``)."""
    try:
        nb = json.loads(raw)
    except json.JSONDecodeError as exc:
        raise ValueError(f"{path}: not valid notebook JSON ({exc})") from exc
    changed: list[int] = []
    diffs: list[str] = []
    # names imported in the first cells resolve in later ones, as when the notebook runs top to bottom
    context = _notebook_context()
    for index, cell in enumerate(nb.get("cells", [])):
        if cell.get("cell_type") != "code":
            continue
        src = cell.get("source", "")
        text = "".join(src) if isinstance(src, list) else src
        new_text = fix_source(text, **opts, context=context)
        if new_text == text:
            continue
        cell["source"] = new_text.splitlines(keepends=True) if isinstance(src, list) else new_text
        changed.append(index)
        diffs.append(unified_diff(text, new_text, f"{path}:cell {index}"))
    if not changed:
        return raw, [], ""
    return _dump_like(nb, raw), changed, "".join(diffs)


def _notebook_context() -> Any:
    from ..rules import Context

    return Context()


def _dump_like(nb: dict[str, Any], raw: str) -> str:
    """Serialise like Jupyter (indent 1, sorted keys, no ASCII escaping) when the file was so written."""
    original = json.loads(raw)
    for indent, sort in ((1, True), (1, False), (2, True), (2, False)):
        text = json.dumps(original, indent=indent, sort_keys=sort, ensure_ascii=False) + "\n"
        if text == raw or text.rstrip("\n") == raw:
            out = json.dumps(nb, indent=indent, sort_keys=sort, ensure_ascii=False)
            return out + ("\n" if raw.endswith("\n") else "")
    return json.dumps(nb, indent=1, sort_keys=True, ensure_ascii=False) + "\n"
