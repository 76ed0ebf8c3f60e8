"""A fast walk over libcst trees.

libcst's own visitors rebuild every node they pass (``_visit_and_replace_children``), which costs
more than parsing. The analysis only reads, so it walks the nodes' dataclass fields directly,
skipping whitespace, parentheses and punctuation, which no rule looks at.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from functools import cache

import libcst as cst

_SKIP_FIELDS = frozenset(
    {
        "lpar",
        "rpar",
        "leading_lines",
        "lines_after_decorators",
        "header",
        "footer",
        "semicolon",
        "comma",
        "equal",
        "colon",
        "dot",
        "lbracket",
        "rbracket",
        "lbrace",
        "rbrace",
        "operator",
        "asynchronous",
        "await_",
        "star_tok",
        "whitespace",
    }
)


@cache
def _fields(cls: type) -> tuple[str, ...]:
    return tuple(
        f.name for f in dataclasses.fields(cls) if f.name not in _SKIP_FIELDS and not f.name.startswith("whitespace")
    )


def children(node: cst.CSTNode) -> Iterator[cst.CSTNode]:
    """The node's child nodes that carry code, in field order."""
    for name in _fields(type(node)):
        value = getattr(node, name)
        if isinstance(value, cst.CSTNode):
            yield value
        elif isinstance(value, (list, tuple)):
            for item in value:
                if isinstance(item, cst.CSTNode):
                    yield item


def walk(node: cst.CSTNode) -> Iterator[cst.CSTNode]:
    """Pre-order walk that does not enter nested functions, lambdas or classes (they run elsewhere)."""
    stack = [node]
    while stack:
        current = stack.pop()
        yield current
        if current is not node and isinstance(current, (cst.FunctionDef, cst.Lambda, cst.ClassDef)):
            continue
        stack.extend(reversed(list(children(current))))


class FastVisitor:
    """Dispatches ``visit_<Node>``/``leave_<Node>`` like a libcst visitor, without rebuilding nodes.

    A ``visit_`` method returning False stops the walk below that node (it may walk parts itself
    with :meth:`walk`).
    """

    def walk(self, node: cst.CSTNode) -> None:
        name = type(node).__name__
        visit = getattr(self, "visit_" + name, None)
        if visit is not None and visit(node) is False:
            return
        for child in children(node):
            self.walk(child)
        leave = getattr(self, "leave_" + name, None)
        if leave is not None:
            leave(node)
