"""``# noqa`` comments: ``# noqa`` silences every rule on its line, ``# noqa: AIP301, AIP2`` some.

Codes in a ``noqa`` list are prefixes, like ``select``/``ignore``: ``# noqa: AIP3`` silences the
pandas family. A finding that spans several lines is silenced from its first or its last line.
"""

from __future__ import annotations

import re

_NOQA = re.compile(r"#\s*noqa(?::\s*(?P<codes>[A-Za-z]+\d*(?:[\s,]+[A-Za-z]+\d*)*))?", re.I)


def noqa_codes(line: str) -> tuple[str, ...] | None:
    """None: no noqa; (): bare noqa (everything); else the listed code prefixes."""
    if "noqa" not in line.lower():
        return None
    match = _NOQA.search(line)
    if match is None:
        return None
    codes = match.group("codes")
    return tuple(c.upper() for c in re.split(r"[\s,]+", codes) if c) if codes else ()


def is_suppressed(lines: list[str], line: int, end_line: int, code: str) -> bool:
    """Whether a finding of ``code`` on 1-based lines ``line``..``end_line`` carries a noqa."""
    for number in {line, end_line}:
        if not 1 <= number <= len(lines):
            continue
        codes = noqa_codes(lines[number - 1])
        if codes is not None and (not codes or code.startswith(codes)):
            return True
    return False
