"""Reading an ``.ipynb`` notebook, and rewriting cells' sources without touching anything else.

``read_notebook`` checks the shape lint relies on (a top-level object with a ``cells`` list of
objects whose ``source`` is text or a list of text) and records where each cell's ``source`` value
lies in the file. ``NotebookText.with_sources`` then replaces only those values, written the way
the file writes them: a string stays a string, a list keeps its one-line or one-item-per-line
layout and its indentation, non-ASCII stays raw or ``\\u``-escaped as the file has it, and lines
end as the file's lines end. Every other byte (BOM, key order, indentation, outputs, metadata) is
left as it was, whichever tool wrote the notebook.
"""

from __future__ import annotations

import codecs
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from json.decoder import scanstring  # type: ignore[attr-defined]
from typing import Any

from .text import keep_endings, normalise

_WS = re.compile(r"[ \t\n\r]*")
_DECODER = json.JSONDecoder()
# a \uXXXX escape of a non-ASCII character (an odd number of backslashes before the "u")
_NON_ASCII_ESCAPE = re.compile(
    r"(?<!\\)(?:\\\\)*\\u(?:00[89a-fA-F]|0[1-9a-fA-F][0-9a-fA-F]|[1-9a-fA-F][0-9a-fA-F]{2})[0-9a-fA-F]"
)


class NotebookError(ValueError):
    """The file is not a notebook lint can read; the message is one line."""


@dataclass
class Cell:
    kind: str
    source: str  # as in the file (line endings kept), the list joined
    span: tuple[int, int]  # where the ``source`` value lies in NotebookText.text
    as_list: bool


@dataclass
class NotebookText:
    text: str  # the file, decoded, without its BOM
    bom: bool
    cells: list[Cell] = field(default_factory=list)

    def with_sources(self, sources: dict[int, str]) -> bytes:
        """The file with cell ``i``'s source replaced by ``sources[i]`` (``\\n`` line endings; each
        cell's own endings are put back on the lines the fix kept)."""
        out: list[str] = []
        pos = 0
        for index in sorted(sources):
            cell = self.cells[index]
            start, end = cell.span
            new = keep_endings(cell.source, sources[index])
            if start < 0:  # a cell without a source key: nothing to rewrite
                continue
            out += [self.text[pos:start], self._value(cell, new)]
            pos = end
        out.append(self.text[pos:])
        return (codecs.BOM_UTF8 if self.bom else b"") + "".join(out).encode("utf-8")

    def _value(self, cell: Cell, new: str) -> str:
        old = self.text[cell.span[0] : cell.span[1]]
        ascii_only = self._ensure_ascii(old)
        if not cell.as_list:
            return json.dumps(new, ensure_ascii=ascii_only)
        items = [json.dumps(line, ensure_ascii=ascii_only) for line in new.splitlines(keepends=True)]
        if not items:
            return "[]"
        layout = re.match(r"\[([ \t]*\r?\n)([ \t]*)", old)
        if layout is None:  # one line: ["a", "b"] (or an empty list, written as the file writes lists)
            if old.replace(" ", "") == "[]":
                return self._empty_list_layout(cell, items)
            return "[" + ("," if re.search(r'",["]', old) else ", ").join(items) + "]"
        newline, indent = layout.group(1)[-2:].lstrip(" \t") or "\n", layout.group(2)
        closing = re.search(r"\n([ \t]*)\]$", old)
        close_indent = closing.group(1) if closing else indent[:-1]
        return "[" + newline + ("," + newline).join(indent + item for item in items) + newline + close_indent + "]"

    def _empty_list_layout(self, cell: Cell, items: list[str]) -> str:
        """An empty ``[]`` source gets the layout of another cell's multi-line list, or one line."""
        start = cell.span[0]
        line_start = self.text.rfind("\n", 0, start) + 1
        key_indent = re.match(r"[ \t]*", self.text[line_start:start]).group(0)  # type: ignore[union-attr]
        unit = _indent_unit(self.text)
        if unit is None:
            return "[" + ", ".join(items) + "]"
        newline = "\r\n" if self.text[start - 1 : start] == "\r" or "\r\n" in self.text else "\n"
        indent = key_indent + unit
        return "[" + newline + ("," + newline).join(indent + i for i in items) + newline + key_indent + "]"

    def _ensure_ascii(self, old_value: str) -> bool:
        """Escape non-ASCII as ``\\uXXXX`` when the file does (judged on this value, else the file)."""
        for sample in (old_value, self.text):
            if not sample.isascii():
                return False
            if _NON_ASCII_ESCAPE.search(sample):
                return True
        return False


def _indent_unit(text: str) -> str | None:
    """The file's indentation step (the indent of its second line), None for a one-line file."""
    match = re.search(r"\n([ \t]+)\S", text)
    return match.group(1) if match else None


def read_notebook(data: bytes) -> NotebookText:
    """The notebook's cells and where their sources lie; NotebookError says why it cannot be read."""
    bom = data.startswith(codecs.BOM_UTF8)
    try:
        text = data[len(codecs.BOM_UTF8) if bom else 0 :].decode("utf-8")
    except UnicodeDecodeError:
        raise NotebookError("not UTF-8 text") from None
    try:
        json.loads(text)
    except json.JSONDecodeError as exc:
        raise NotebookError(f"invalid notebook JSON: {exc.msg} at line {exc.lineno}, column {exc.colno}") from None
    except RecursionError:
        raise NotebookError("invalid notebook: nested too deeply") from None
    nb = NotebookText(text=text, bom=bom)
    _Scanner(text, nb).top()
    return nb


class _Scanner:
    """Walks the (already validated) JSON text to find each cell's ``source`` value."""

    def __init__(self, text: str, nb: NotebookText) -> None:
        self.text, self.nb, self.pos = text, nb, 0

    def ws(self) -> None:
        self.pos = _WS.match(self.text, self.pos).end()  # type: ignore[union-attr]

    def value(self) -> tuple[Any, int, int]:
        self.ws()
        start = self.pos
        obj, self.pos = _DECODER.raw_decode(self.text, start)
        return obj, start, self.pos

    def elements(self, close: str) -> Iterator[None]:
        """Yields once for each element of the array or object whose opening bracket is at ``pos``,
        with ``pos`` at the element; the caller consumes it, then the separator is read here."""
        self.pos += 1  # "[" or "{"
        self.ws()
        if self.text[self.pos] == close:
            self.pos += 1
            return
        while True:
            self.ws()
            yield
            self.ws()
            sep = self.text[self.pos]
            self.pos += 1
            if sep == close:
                return

    def members(self) -> Iterator[str]:
        """Yields each key of the object at ``pos`` with ``pos`` at its value; the caller consumes it."""
        self.ws()
        for _ in self.elements("}"):
            key, self.pos = scanstring(self.text, self.pos + 1)
            self.ws()
            self.pos += 1  # ":"
            yield key

    def top(self) -> None:
        self.ws()
        if self.text[self.pos] != "{":
            raise NotebookError("invalid notebook: the file is not a JSON object (is it an nbformat 4 notebook?)")
        found = False
        for key in self.members():
            self.ws()
            if key == "cells" and self.text[self.pos] == "[":
                found = True
                self.cells()
            elif key == "worksheets" and self.text[self.pos] == "[":  # nbformat 3 (IPython 1 and 2)
                found = True
                self.worksheets()
            else:
                self.value()
        if not found:
            raise NotebookError("invalid notebook: no 'cells' list (nbformat 4) nor 'worksheets' (nbformat 3)")

    def objects(self, not_object: str, first: int = 0) -> Iterator[None]:
        """Yields once for each element of the array at ``pos``, with ``pos`` at that element, which
        must be a JSON object (else ``not_object``, formatted with its index counted from ``first``,
        is the error); the caller consumes it."""
        for index, _ in enumerate(self.elements("]"), first):
            if self.text[self.pos] != "{":
                raise NotebookError(not_object.format(index=index))
            yield

    def worksheets(self) -> None:
        """nbformat 3: ``worksheets[].cells``; cell indexes run on across worksheets."""
        for _ in self.objects("invalid nbformat 3 notebook: a worksheet is not a JSON object"):
            for key in self.members():
                self.ws()
                if key == "cells" and self.text[self.pos] == "[":
                    self.cells()
                elif key == "cells":
                    raise NotebookError("invalid nbformat 3 notebook: a worksheet's 'cells' is not a list")
                else:
                    self.value()

    def cells(self) -> None:
        # nbformat 3: the cells of earlier worksheets come first, and indexes run on
        for _ in self.objects("invalid notebook: cell {index} is not a JSON object", first=len(self.nb.cells)):
            self.cell(len(self.nb.cells))

    def cell(self, index: int) -> None:
        kind, source, span, as_list = "", "", (-1, -1), False
        for key in self.members():
            obj, start, end = self.value()
            if key == "cell_type":
                kind = obj if isinstance(obj, str) else ""
            elif key == "source" or key == "input":  # nbformat 3 keeps a code cell's text in "input"
                span, as_list = (start, end), isinstance(obj, list)
                if isinstance(obj, list) and all(isinstance(s, str) for s in obj):
                    source = "".join(obj)
                elif isinstance(obj, str):
                    source = obj
                else:
                    raise NotebookError(f"invalid notebook: cell {index}'s source is not text or a list of text")
        self.nb.cells.append(Cell(kind=kind, source=source, span=span, as_list=as_list))


def fixer_text(cell: Cell) -> str:
    """What fixers see of a cell: its source with ``\\n`` line endings."""
    return normalise(cell.source)
