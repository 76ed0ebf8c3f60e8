"""How deep libcst's native parser would have to recurse to read a text, estimated before it tries.

libcst parses in compiled code that recurses once per nesting level and once per operator of a
chain, on the C stack of the calling thread: a file nested 1,300 brackets deep, or one expression
of 7,000 ``and`` terms or 6,000 ``.b`` attributes, overflows an 8 MiB stack and kills the whole
process (a segmentation fault that no ``except`` can catch). :func:`too_deep` bounds that recursion
with a linear scan of the text's tokens, so :mod:`aiperf_magic.cell.parsed` can refuse such a text
before handing it over.

The cost of a point in the text is, summed over the brackets open there, what one bracket level
costs plus the tokens written before it in the same element (an element ends at a comma, a
semicolon, or, outside brackets, at the end of a line). Strings and comments are one token; a
bracket pair counts as ``BRACKET`` tokens of the element it closes in. A flat list of 100,000
numbers costs 1; ``x = a.b.b…`` costs two per attribute; 250 nested parentheses cost 1,000.
"""

from __future__ import annotations

import re

# What one bracket level costs, in tokens of a chain. Measured in one 8 MiB stack: the parser
# died at 1,232 nested lists (cost 4,930), 1,280 nested parentheses (5,123), 5,952 chained
# attributes (11,907), 7,168 ``and`` terms (14,337); a chain of subscripts ``a[0][0]…`` takes
# time cubic in its length (1,000 of them: 0.8 s), hence a closed bracket's weight in its chain.
BRACKET = 4
# Past this estimated cost a text is not parsed: a fifth of the smallest cost that overflowed,
# and a parse at this cost takes at most a quarter of a second. 16,235 files of one virtual
# environment (234 MB of Python) cost 23 at the median, 225 at the 99.9th percentile; two
# generated SymPy tables cost more (3,862 and 10,761).
LIMIT = 1_000

_TOKENS = re.compile(
    r"""
    [rRbBuUfF]{0,2}(?:'''(?:[^\\]|\\.)*?'''|\"\"\"(?:[^\\]|\\.)*?\"\"\"|'(?:[^\\'\n]|\\.)*'|"(?:[^\\"\n]|\\.)*")
    | (?P<skip>\#[^\n]*|\\\r?\n)
    | (?P<newline>\n)
    | (?P<open>[(\[{])
    | (?P<close>[)\]}])
    | (?P<sep>[,;])
    | \w+ | [^\s\w]
    """,
    re.VERBOSE | re.DOTALL,
)


def too_deep(text: str, limit: int = LIMIT) -> int | None:
    """The offset in ``text`` where its estimated parse cost first passes ``limit``, or None."""
    cost, offset = parse_cost(text, limit)
    return offset if cost > limit else None


def parse_cost(text: str, limit: int | None = None) -> tuple[int, int]:
    """The text's estimated parse cost and the offset where it is reached (the scan stops at the
    first point past ``limit``)."""
    worst = where = 0
    base = count = 0  # the cost of the brackets open here, and the tokens of the current element
    stack: list[tuple[int, int]] = []
    for match in _TOKENS.finditer(text):
        kind = match.lastgroup
        if kind == "skip":
            continue
        if kind == "open":
            stack.append((base, count))
            base, count = base + count + BRACKET, 0
        elif kind == "close":
            if stack:
                base, count = stack.pop()
            count += BRACKET
        elif kind == "sep" or (kind == "newline" and not stack):
            count = 0
        elif kind != "newline":
            count += 1
        if base + count > worst:
            worst, where = base + count, match.start()
            if limit is not None and worst > limit:
                break
    return worst, where
