"""Lint output: text for people, JSON for scripts, SARIF 2.1.0 for code-scanning tools."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any
from urllib.parse import quote

from .. import __version__
from ..rules.registry import all_rules
from .files import Located

JSON_KEYS = ("path", "cell", "line", "col", "end_line", "end_col", "code", "name", "message", "fixable", "fix")
SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"


def as_dict(item: Located) -> dict[str, Any]:
    f = item.finding
    return {
        "path": item.path,
        "cell": item.cell,
        "line": f.line,
        "col": f.col,
        "end_line": f.end_line,
        "end_col": f.end_col,
        "code": f.code,
        "name": f.name,
        "message": f.message,
        "fixable": f.fixable,
        # the rule's answer: its rewrite's title and safety, or why there is none (null: no fixer)
        "fix": None if f.fix is None else {
            "title": f.fix.title,
            "safety": f.fix.safety,
            "reason": f.fix.reason,
            "measure_first": f.fix.measure_first,
        },
    }


def render_json(items: list[Located], unread: int = 0, unanalysed: int = 0) -> str:
    """The findings as a list (files that could not be read are reported on stderr)."""
    return json.dumps([as_dict(i) for i in items], indent=2)


def _files(n: int) -> str:
    return f"{n} file" if n == 1 else f"{n} files"


def render_text(items: list[Located], unread: int = 0, unanalysed: int = 0) -> str:
    """One line per finding and a summary; "All checks passed!" only when every file was read."""
    lines = []
    for item in items:
        f = item.finding
        where = f"{item.path}:cell {item.cell}" if item.cell is not None else item.path
        mark = " [*]" if f.fixable else ""
        lines.append(f"{where}:{f.line}:{f.col}: {f.code}{mark} {f.message}")
    if items:
        fixable = sum(i.finding.fixable for i in items)
        noun = "finding" if len(items) == 1 else "findings"
        lines.append(
            f"Found {len(items)} {noun} ({fixable} with a proposed fix: `%aiperf fix` or `aiperf lint --fix`)."
        )
        lines.append("Explain a code with `aiperf explain CODE` (or `%aiperf explain CODE` in a notebook).")
    elif not unread:
        lines.append("All checks passed!")
    if unread:
        lines.append(f"{_files(unread)} could not be read or fixed (see the errors above); they were not checked.")
    if unanalysed:
        lines.append(f"{_files(unanalysed)} could not be analysed in full (see the errors above): "
                     "the code named there was not checked.")
    return "\n".join(lines)


def render_sarif(items: list[Located], unread: int = 0, unanalysed: int = 0) -> str:
    """SARIF 2.1.0; files that could not be read make the invocation unsuccessful."""
    rules = list(all_rules().values())
    index = {r.code: i for i, r in enumerate(rules)}
    driver = {
        "name": "aiperf",
        "version": __version__,
        "informationUri": "https://pypi.org/project/aiperf-magic/",
        "rules": [
            {
                "id": r.code,
                "name": r.name,
                "shortDescription": {"text": r.message},
                "fullDescription": {"text": r.summary},
                "help": {"text": r.doc, "markdown": r.doc},
                "defaultConfiguration": {"level": "warning"},
                "properties": {"fixable": r.fixable, "runtime_only": r.runtime},
            }
            for r in rules
        ],
    }
    results = []
    for item in items:
        f = item.finding
        region = {
            "startLine": f.line or 1,
            "startColumn": f.col or 1,
            "endLine": f.end_line or f.line or 1,
            "endColumn": f.end_col or f.col or 1,
        }
        message = f.message if item.cell is None else f"cell {item.cell}, line {f.line}: {f.message}"
        result: dict[str, Any] = {
            "ruleId": f.code,
            "level": "warning" if f.code != "AIP000" else "error",
            "message": {"text": message},
            "locations": [
                {
                    "physicalLocation": {
                        "artifactLocation": {"uri": _uri(item.path)},
                        "region": region,
                    }
                }
            ],
        }
        if f.code in index:
            result["ruleIndex"] = index[f.code]
        if item.cell is not None:
            # Lines are within the notebook cell: SARIF has no notion of cells, so the cell rides along.
            result["properties"] = {"cell": item.cell}
        results.append(result)
    sarif = {
        "$schema": SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {"driver": driver},
                "invocations": [_invocation(unread, unanalysed)],
                "results": results,
            }
        ],
    }
    return json.dumps(sarif, indent=2)


def _invocation(unread: int, unanalysed: int = 0) -> dict[str, Any]:
    invocation: dict[str, Any] = {"executionSuccessful": not (unread or unanalysed)}
    texts = []
    if unread:
        texts.append(f"{_files(unread)} could not be read or fixed; they were not checked.")
    if unanalysed:
        texts.append(f"{_files(unanalysed)} could not be analysed in full (see their AIP000 results).")
    if texts:
        invocation["toolExecutionNotifications"] = [{"level": "error", "message": {"text": t}} for t in texts]
    return invocation


def _uri(path: str) -> str:
    """SARIF wants URIs (RFC 3986): relative paths stay relative (to the repository) and are
    percent-encoded (spaces, ``#``, ``%``, ``?``, ``:``, non-ASCII); absolute ones get file://."""
    p = Path(path)
    return p.as_uri() if p.is_absolute() else quote(p.as_posix(), safe="/")


RENDERERS = {"text": render_text, "json": render_json, "sarif": render_sarif}
