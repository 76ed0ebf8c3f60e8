"""The small Markdown the rule docs are written in, as plain data and as escaped HTML.

Rule docs use ``##`` headings, fenced code blocks, ``-`` lists, paragraphs, `code` spans, **bold**
and links. :func:`parse` turns a doc into blocks of plain data, which the panel's script builds
into DOM nodes with ``textContent`` (no markup is ever parsed in the browser), and
:func:`blocks_html` renders the same blocks as HTML for the static views, escaping every string.
"""

from __future__ import annotations

import re
from html import escape
from typing import Any

Inline = list[list[str]]  # [kind, text] or ["link", text, href]; kind: "t" text, "c" code, "b" bold
Block = dict[str, Any]

_INLINE = re.compile(r"`([^`]+)`|\*\*(?=\S)(.+?)(?<=\S)\*\*|\[([^\]]+)\]\((https?://[^)\s]+)\)")


def inline(text: str) -> Inline:
    """Text split into plain, code, bold and link runs; code spans are found first, so ``**`` in
    code stays code."""
    out: Inline = []
    pos = 0
    for m in _INLINE.finditer(text):
        if m.start() > pos:
            out.append(["t", text[pos : m.start()]])
        if m.group(1) is not None:
            out.append(["c", m.group(1)])
        elif m.group(2) is not None:
            out.append(["b", m.group(2)])
        else:
            out.append(["link", m.group(3), m.group(4)])
        pos = m.end()
    if pos < len(text):
        out.append(["t", text[pos:]])
    return out


def parse(doc: str) -> list[Block]:
    """Blocks: ``{"t": "h", "text"}``, ``{"t": "p", "inl"}``, ``{"t": "code", "text"}``, ``{"t": "ul", "items"}``."""
    blocks: list[Block] = []
    para: list[str] = []
    items: list[str] = []
    code: list[str] | None = None

    def flush() -> None:
        if para:
            blocks.append({"t": "p", "inl": inline(" ".join(para))})
            para.clear()
        if items:
            blocks.append({"t": "ul", "items": [inline(i) for i in items]})
            items.clear()

    for line in doc.splitlines():
        if code is not None:
            if line.strip().startswith("```"):
                blocks.append({"t": "code", "text": "\n".join(code)})
                code = None
            else:
                code.append(line)
        elif line.strip().startswith("```"):
            flush()
            code = []
        elif line.startswith("#"):
            flush()
            blocks.append({"t": "h", "text": line.lstrip("#").strip()})
        elif line.startswith(("- ", "* ")):
            if para:
                flush()
            items.append(line[2:].strip())
        elif not line.strip():
            flush()
        elif items and line.startswith("  "):
            items[-1] += " " + line.strip()
        else:
            if items:
                flush()
            para.append(line.strip())
    if code is not None:  # an unclosed fence still shows its code
        blocks.append({"t": "code", "text": "\n".join(code)})
    flush()
    return blocks


def inline_html(runs: Inline) -> str:
    parts = []
    for run in runs:
        kind, text = run[0], escape(run[1])
        if kind == "c":
            parts.append(f"<code>{text}</code>")
        elif kind == "b":
            parts.append(f"<b>{text}</b>")
        elif kind == "link":
            parts.append(f'<a href="{escape(run[2], quote=True)}" target="_blank" rel="noopener">{text}</a>')
        else:
            parts.append(text)
    return "".join(parts)


def blocks_html(blocks: list[Block]) -> str:
    out = []
    for b in blocks:
        if b["t"] == "h":
            out.append(f'<div style="font-weight:600;margin:6px 0 2px">{escape(b["text"])}</div>')
        elif b["t"] == "p":
            out.append(f'<p style="margin:2px 0 4px">{inline_html(b["inl"])}</p>')
        elif b["t"] == "code":
            out.append(f'<pre style="margin:2px 0 6px;padding:4px 6px;background:#f6f8fa">{escape(b["text"])}</pre>')
        elif b["t"] == "ul":
            lis = "".join(f"<li>{inline_html(i)}</li>" for i in b["items"])
            out.append(f'<ul style="margin:2px 0 4px 18px;padding:0">{lis}</ul>')
    return "".join(out)


def markdown_html(doc: str) -> str:
    return blocks_html(parse(doc))
