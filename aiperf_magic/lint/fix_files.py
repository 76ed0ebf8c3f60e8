"""Apply fixes to files on disk: ``.py`` sources and ``.ipynb`` notebooks (``aiperf lint --fix``).

In a notebook only the changed code cells' ``source`` is rewritten; when the file was written the
way Jupyter writes notebooks (one-space indent, sorted keys), every other byte stays as it was.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..fixes.edits import unified_diff
from ..report import Finding

Analyzer = Callable[..., list[Finding]]
# cell magics whose body is Python; a %%bash or %%html cell is left alone
PYTHON_CELL_MAGICS = ("%%aiperf", "%%time", "%%timeit", "%%capture", "%%prun")


@dataclass
class FileFix:
    path: Path
    changed: bool
    diff: str
    cells: list[int]  # indexes (among all cells) of the notebook cells changed; empty for .py


def _analyzer() -> Analyzer:
    from ..rules import analyze

    return analyze


def fix_source(
    source: str,
    *,
    select: Iterable[str] | None = None,
    ignore: Iterable[str] | None = None,
    unsafe: bool = False,
    analyze: Analyzer | None = None,
    context: Any = None,
) -> str:
    """``source`` with its fixes applied; ``context`` carries earlier notebook cells' imports."""
    from ..fixes import fix_findings

    analyze = analyze or _analyzer()
    extra = {"context": context} if context is not None else {}
    findings = analyze(
        source, select=list(select) if select else None, ignore=list(ignore) if ignore else None, **extra
    )
    return fix_findings(source, findings, unsafe=unsafe)


def fix_file(
    path: str | Path,
    *,
    select: Iterable[str] | None = None,
    ignore: Iterable[str] | None = None,
    unsafe: bool = False,
    write: bool = False,
    analyze: Analyzer | None = None,
) -> FileFix:
    """Fix one ``.py`` or ``.ipynb`` file; write it back only when ``write`` and something changed.

    Raises ``ValueError`` (with the path and reason) for a notebook that is not valid JSON.
    """
    path = Path(path)
    raw = path.read_text(encoding="utf-8")
    opts: dict[str, Any] = {"select": select, "ignore": ignore, "unsafe": unsafe, "analyze": analyze}
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
    context = _notebook_context() if opts.get("analyze") is None else None
    for index, cell in enumerate(nb.get("cells", [])):
        if cell.get("cell_type") != "code":
            continue
        src = cell.get("source", "")
        text = "".join(src) if isinstance(src, list) else src
        head, body = _split_magic(text)
        if body is None:
            continue
        new_body = fix_source(body, **opts, context=context)
        if new_body == body:
            continue
        new_text = head + new_body
        cell["source"] = new_text.splitlines(keepends=True) if isinstance(src, list) else new_text
        changed.append(index)
        diffs.append(unified_diff(text, new_text, f"{path}:cell {index}"))
    if not changed:
        return raw, [], ""
    return _dump_like(nb, raw), changed, "".join(diffs)


def _notebook_context() -> Any:
    from .. import rules as analysis

    context_type = getattr(analysis, "Context", None)
    return context_type() if context_type is not None else None


def _split_magic(text: str) -> tuple[str, str | None]:
    """(first line if it is a Python cell magic, body); body None for non-Python cells."""
    if not text.startswith("%%"):
        return "", text
    first, _, rest = text.partition("\n")
    if first.split()[0] in PYTHON_CELL_MAGICS:
        return first + "\n", rest
    return "", None


def _dump_like(nb: dict[str, Any], raw: str) -> str:
    """Serialise like Jupyter (indent 1, sorted keys, no ASCII escaping) when the file was so written."""
    original = json.loads(raw)
    for indent, sort in ((1, True), (1, False), (2, True), (2, False)):
        text = json.dumps(original, indent=indent, sort_keys=sort, ensure_ascii=False) + "\n"
        if text == raw or text.rstrip("\n") == raw:
            out = json.dumps(nb, indent=indent, sort_keys=sort, ensure_ascii=False)
            return out + ("\n" if raw.endswith("\n") else "")
    return json.dumps(nb, indent=1, sort_keys=True, ensure_ascii=False) + "\n"
