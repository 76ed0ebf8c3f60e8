"""A cell written in IPython syntax, as plain Python: the only place that translates it.

Two translations, for two needs:

* :func:`to_python` gives text a parser can read, line for line: ``!cmd``, ``%magic``, ``x = !cmd``
  and ``x?`` lines become marker names (same line count, so every finding keeps the user's line),
  ``%time stmt`` keeps its statement in place (``if 1: stmt``, same width, so columns hold too), a
  leading cell magic (``%%time``) is set aside, and a cell whose first line is indented is dedented
  as IPython does. :meth:`PythonSource.restore` turns rewritten Python back into the user's syntax.
* :func:`runnable` gives code to execute (``!cmd`` becomes ``get_ipython().system(...)``), through
  IPython's own transformer, imported only when the cell holds IPython syntax.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

# Cell magics whose body is Python that runs as-is (the body is what gets linted and fixed).
PYTHON_CELL_MAGICS = frozenset({"aiperf", "time", "timeit", "capture", "prun"})
MARKER = "__aiperf_ipython_line_{}__"

# ``!cmd`` / ``%magic`` / ``x = !cmd`` / ``a, b = %magic``: the command part is what gets masked.
_COMMAND = re.compile(r"^(?P<indent>[ \t]*)(?P<lhs>[A-Za-z_][\w, ]*=\s*)?(?P<cmd>[%!].*)$")
# ``x?``, ``obj.attr??``, ``?x``, ``torch.*Tensor?``: IPython's help syntax on a name or a pattern.
_HELP = re.compile(r"^[ \t]*(?:\?{1,2}[\w.*]+|[\w.*]+\?{1,2})[ \t]*$")
# ``%time stmt`` / ``%timeit stmt`` (no options): the statement is the user's code, worth reading.
_TIMED = re.compile(
    r"^(?P<indent>[ \t]*)(?P<head>%(?:time|timeit) +)"
    r"(?!-)(?!(?:for|while|if|elif|else|with|def|class|try|except|finally|async|match|case)\b)(?P<stmt>\S.*)$"
)


@dataclass(frozen=True)
class Masked:
    """One line that was not Python: its index in the body, and what stands in for what."""

    index: int
    python: str  # the stand-in in the Python text (a marker name, or ``if 1: `` for %time)
    user: str  # what the user wrote in its place
    keeps_columns: bool  # True when the stand-in has the same width (``%time`` lines)


@dataclass(frozen=True)
class PythonSource:
    """The cell's body as Python, and how to get from it back to what the user wrote."""

    text: str  # plain Python with the same number of lines as the body
    header: str = ""  # text before the body: blank lines and a cell-magic line (``%%time``)
    offset: int = 0  # number of lines in ``header``
    indent: str = ""  # indentation removed from every line (a cell whose first line is indented)
    masked: tuple[Masked, ...] = field(default_factory=tuple)
    magic: str | None = None  # the leading cell magic's name, if any

    @property
    def is_python(self) -> bool:
        """False for cells in another language (``%%bash``, ``%%html``...)."""
        return self.magic is None or self.magic in PYTHON_CELL_MAGICS

    def position(self, line: int, col: int) -> tuple[int, int]:
        """1-based line and 0-based column of the Python text -> the user's 1-based pair."""
        index = line - 1
        exact = not any(m.index == index and not m.keeps_columns for m in self.masked)
        return line + self.offset, (col + 1 + len(self.indent) if exact else 1)

    def restore(self, text: str) -> str | None:
        """Rewritten Python back in the user's syntax; None when a rewrite changed a non-Python line."""
        if not self.masked and not self.indent:  # plain Python: nothing to put back
            return self.header + text
        lines = text.split("\n")
        used: set[int] = set()
        for m in self.masked:
            if m.keeps_columns:  # ``if 1: stmt`` must still be there, word for word
                at = next((i for i, line in enumerate(lines) if i not in used and line.lstrip() == m.python), None)
            else:
                at = next((i for i, line in enumerate(lines) if m.python in line), None)
            if at is None:
                return None
            used.add(at)
            line = lines[at]
            if m.keeps_columns:
                lines[at] = line[: len(line) - len(line.lstrip())] + m.user
            else:
                lines[at] = line.replace(m.python, m.user, 1)
        if self.indent:
            lines = [self.indent + line if line.strip() else line for line in lines]
        return self.header + "\n".join(lines)


def cell_magic(source: str) -> tuple[str, str] | None:
    """``("time", body)`` for a cell that starts with ``%%time``; None for an ordinary cell."""
    stripped = source.lstrip("\n")
    if not stripped.startswith("%%"):
        return None
    first, _, body = stripped.partition("\n")
    return (first[2:].split(None, 1)[0] if first[2:].strip() else ""), body


def split_magic_cell(raw: str, magic: str = "%%aiperf") -> tuple[str, str] | None:
    """(option line, body) when ``raw`` is a ``%%aiperf`` cell, else None (``%%aiperf?`` asks for help)."""
    text = raw.lstrip("\n")
    first, _, body = text.partition("\n")
    if not first.startswith(magic) or first[len(magic) : len(magic) + 1] not in ("", " ", "\t"):
        return None
    options = first[len(magic) :].strip()
    if options.endswith("?"):
        return None
    return options, body


def to_python(source: str) -> PythonSource:
    """The cell as parseable Python, line for line; a plain-Python cell comes back unchanged."""
    header, magic = "", None
    found = cell_magic(source)
    if found is not None:
        magic, body = found
        header = source[: len(source) - len(body)]
        source = body
    offset = header.count("\n")
    if magic is not None and magic not in PYTHON_CELL_MAGICS:
        return PythonSource("", header, offset, magic=magic)
    lines = source.split("\n")
    indent = _leading_indent(lines)
    if indent:
        lines = [line[len(indent) :] if line.startswith(indent) else line for line in lines]
    if not any(_maybe_ipython(line) for line in lines):
        return PythonSource("\n".join(lines), header, offset, indent, magic=magic)
    masked: list[Masked] = []
    out = list(lines)
    starts = _statement_starts(lines)
    continued, indent_of_magic = False, ""
    for i, line in enumerate(lines):
        if continued:  # the rest of a ``%magic \`` line, kept as written, at the magic's indentation
            user = line[len(indent_of_magic) :] if line.startswith(indent_of_magic) else line.lstrip()
            out[i] = _marker_line(i, user, indent_of_magic, masked)
        elif i not in starts:
            continue
        elif (m := _TIMED.match(line)) is not None:
            python = "if 1:".ljust(len(m["head"])) + m["stmt"]
            out[i] = m["indent"] + python
            masked.append(Masked(i, python, line.lstrip(), keeps_columns=True))
        elif (m := _COMMAND.match(line)) is not None:
            out[i] = _marker_line(i, m["cmd"], m["indent"] + (m["lhs"] or ""), masked)
        elif _HELP.match(line):
            out[i] = _marker_line(i, line.strip(), line[: len(line) - len(line.lstrip())], masked)
        else:
            continue
        if not continued:
            indent_of_magic = line[: len(line) - len(line.lstrip())]
        continued = line.rstrip().endswith("\\")
    return PythonSource("\n".join(out), header, offset, indent, tuple(masked), magic)


def _maybe_ipython(line: str) -> bool:
    s = line.lstrip()
    return s[:1] in ("!", "%", "?") or "?" in s or ("=" in s and ("!" in s or "%" in s))


def _marker_line(i: int, user: str, keep: str, masked: list[Masked]) -> str:
    name = MARKER.format(i)
    masked.append(Masked(i, name, user, keeps_columns=False))
    return keep + name


def _leading_indent(lines: list[str]) -> str:
    """IPython removes the first line's indentation from a cell (``" x = 1"`` runs); taken here when
    every line carries it, so that a rewrite can put it back on every line."""
    first = next((line for line in lines if line.strip()), "")
    indent = first[: len(first) - len(first.lstrip(" \t"))]
    return indent if all(line.startswith(indent) for line in lines if line.strip()) else ""


def _statement_starts(lines: list[str]) -> set[int]:
    """Indexes of the lines that begin a new statement: not inside brackets, a string or a ``\\``
    continuation (``% (a, b)`` continuing a format string on the next line is Python)."""
    starts: set[int] = set()
    depth, quote, continued = 0, "", False
    for i, line in enumerate(lines):
        if depth == 0 and not quote and not continued:
            starts.add(i)
            if _COMMAND.match(line) or _HELP.match(line) or _TIMED.match(line):
                continued = line.rstrip().endswith("\\")
                continue  # IPython's own line: its brackets and quotes are not Python's
        depth, quote = _scan(line, depth, quote)
        continued = not quote and line.rstrip().endswith("\\") and not line.lstrip().startswith("#")
    return starts


def _scan(line: str, depth: int, quote: str) -> tuple[int, str]:
    """Bracket depth and open triple quote after ``line``, given them before it."""
    i, n = 0, len(line)
    while i < n:
        c = line[i]
        if quote:
            if c == "\\":
                i += 2
                continue
            if line.startswith(quote, i):
                i += len(quote)
                quote = ""
                continue
            if len(quote) == 1 and c == "\n":
                quote = ""
            i += 1
            continue
        if c == "#":
            break
        if c in "'\"":
            triple = line[i : i + 3]
            quote = triple if triple in ("'''", '"""') else c
            i += len(quote)
            continue
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth = max(0, depth - 1)
        i += 1
    if len(quote) == 1:
        quote = ""  # a one-quote string cannot span lines (only with a backslash, which is rare)
    return depth, quote


def runnable(source: str) -> str:
    """The cell as Python to execute, by IPython's own rules; unchanged when it has no IPython syntax."""
    if not any(_maybe_ipython(line) for line in source.split("\n")):
        return source
    try:
        return _transformer().transform_cell(source)  # type: ignore[no-any-return]
    except Exception:  # IPython gave up on broken code: compiling it will say why
        return source


@lru_cache(maxsize=1)
def _transformer() -> Any:
    from IPython.core.inputtransformer2 import TransformerManager

    return TransformerManager()
