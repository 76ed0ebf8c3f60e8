"""Turn a cell written in IPython syntax (``!cmd``, ``%magic``, ``x?``) into plain Python.

IPython's own pure-text transformer does the work (the shell is never created); it is imported
only when a cell actually contains IPython syntax, so linting plain ``.py`` files never loads
IPython. Line numbers are kept: the result maps each Python line back to the user's line.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

# Cell magics whose body is Python that runs as-is (the body is what gets linted).
PYTHON_CELL_MAGICS = frozenset({"aiperf", "time", "timeit", "capture", "prun"})

# A line that IPython would rewrite: starts with ! % or ends with ? (help), or ``x = !cmd``/``= %magic``.
_IPY_LINE = re.compile(r"^\s*[!%]|\?\s*$|=\s*[!%]", re.M)


@dataclass(frozen=True)
class PythonSource:
    text: str  # plain Python
    lines: tuple[int, ...]  # python line index (0-based) -> user's line number (1-based)
    exact: frozenset[int]  # python line indexes whose text is the user's text, byte for byte
    offset: int = 0  # lines dropped before the text (a ``%%aiperf`` header)

    def position(self, line: int, col: int) -> tuple[int, int]:
        """Map a 1-based line and 0-based column of the Python text to the user's 1-based pair."""
        idx = min(max(line - 1, 0), len(self.lines) - 1) if self.lines else 0
        user_line = (self.lines[idx] if self.lines else line) + self.offset
        return user_line, (col + 1 if idx in self.exact else 1)


def cell_magic(source: str) -> tuple[str, str] | None:
    """``("time", body)`` for a cell that starts with ``%%time``; None for an ordinary cell."""
    stripped = source.lstrip("\n")
    if not stripped.startswith("%%"):
        return None
    first, _, body = stripped.partition("\n")
    return first[2:].split(None, 1)[0] if first[2:].strip() else "", body


# ``%time stmt`` / ``%timeit stmt``: the statement is the user's code, worth checking. Rewritten to
# ``if 1: stmt`` padded to the magic's width, so every column stays where the user typed it.
_TIMED_LINE = re.compile(
    r"^(?P<indent>[ \t]*)%(?P<name>time|timeit)(?P<gap> +)"
    r"(?!-)(?!(?:for|while|if|elif|else|with|def|class|try|except|finally|async|match|case)\b)(?P<stmt>\S.*)$",
    re.M,
)


def _timed_as_python(match: re.Match[str]) -> str:
    head = "if 1:".ljust(len(match["name"]) + 1)
    return f"{match['indent']}{head}{match['gap']}{match['stmt']}"


def to_python(source: str) -> PythonSource:
    """The cell as plain Python; a cell with no IPython syntax comes back unchanged."""
    n = source.count("\n") + 1
    if "%time" in source:
        source = _TIMED_LINE.sub(_timed_as_python, source)
    if not _IPY_LINE.search(source):
        return PythonSource(source, tuple(range(1, n + 1)), frozenset(range(n)))
    try:
        text = _transformer().transform_cell(source)
    except Exception:  # IPython's tokenizer gave up on broken code: the parser will say why
        return PythonSource(source, tuple(range(1, n + 1)), frozenset(range(n)))
    return PythonSource(text, *_line_map(source.splitlines(), text.splitlines()))


@lru_cache(maxsize=1)
def _transformer() -> Any:
    from IPython.core.inputtransformer2 import TransformerManager

    return TransformerManager()


def _line_map(before: list[str], after: list[str]) -> tuple[tuple[int, ...], frozenset[int]]:
    """Each line of ``after`` -> the line of ``before`` it came from (rewritten lines keep their place)."""
    if len(before) == len(after):
        same = frozenset(i for i, (a, b) in enumerate(zip(before, after, strict=True)) if a == b)
        return tuple(range(1, len(after) + 1)), same
    mapping = [1] * len(after)
    exact: set[int] = set()
    matcher = difflib.SequenceMatcher(a=before, b=after, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        for k, j in enumerate(range(j1, j2)):
            mapping[j] = min(i1 + k, max(i2 - 1, i1)) + 1
            if tag == "equal":
                exact.add(j)
    return tuple(mapping), frozenset(exact)
