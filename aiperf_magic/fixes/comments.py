"""The user's comments survive a rewrite: when a fix replaces a statement (a loop by one line, a
line by another), the comments of the old one are carried to what stands in its place.

- the comment lines above the old statement stay above the new one;
- its trailing comment (``x = f(y)  # note``, or the loop's ``for ...:  # note``) stays at the end
  of the new first line, or above it when the fixer wrote a comment there;
- comments inside a replaced block (on the loop body's lines) become comment lines above the new
  statement, in their order.

A comment the new code already holds (a fixer that moved the lines itself) is not added twice.
"""

from __future__ import annotations

import libcst as cst


def with_comments(original: cst.CSTNode, nodes: list[cst.CSTNode]) -> list[cst.CSTNode]:
    """``nodes``, which replace the statement ``original``, with its comments on the first of them."""
    if not nodes or not isinstance(original, cst.BaseStatement) or not isinstance(nodes[0], cst.BaseStatement):
        return nodes
    present = {c for n in nodes for c in _comments(n)}
    lead = [line for line in getattr(original, "leading_lines", ()) if line.comment is None
            or line.comment.value not in present]
    trailing = _trailing(original)
    inner = [c for c in _inner(original) if c not in present]
    first = nodes[0]
    if trailing is not None and trailing in present:
        trailing = None
    if trailing is not None and (not isinstance(first, cst.SimpleStatementLine)
                                 or first.trailing_whitespace.comment is not None):
        inner.insert(0, trailing)
        trailing = None
    own = list(getattr(first, "leading_lines", ()))
    extra = [cst.EmptyLine(comment=cst.Comment(c)) for c in inner]
    if not lead and not extra and trailing is None:
        return nodes
    changes: dict[str, object] = {}
    if hasattr(first, "leading_lines"):
        changes["leading_lines"] = [*lead, *own, *extra] if lead != own else [*own, *extra]
    if trailing is not None and isinstance(first, cst.SimpleStatementLine):
        changes["trailing_whitespace"] = first.trailing_whitespace.with_changes(
            whitespace=cst.SimpleWhitespace("  "), comment=cst.Comment(trailing))
    return [first.with_changes(**changes), *nodes[1:]]


def _trailing(node: cst.BaseStatement) -> str | None:
    if isinstance(node, cst.SimpleStatementLine):
        comment = node.trailing_whitespace.comment
    else:
        header = getattr(getattr(node, "body", None), "header", None)
        comment = header.comment if isinstance(header, cst.TrailingWhitespace) else None
    return comment.value if comment is not None else None


def _inner(node: cst.BaseStatement) -> list[str]:
    """Comments on the lines of a compound statement's body (and its else/except blocks)."""
    if isinstance(node, cst.SimpleStatementLine):
        return []
    header = getattr(getattr(node, "body", None), "header", None)
    skip = {id(header)}
    out: list[str] = []
    for n in _walk(node):
        if n is node:
            continue
        for line in getattr(n, "leading_lines", ()):
            if line.comment is not None:
                out.append(line.comment.value)
        if isinstance(n, cst.TrailingWhitespace) and id(n) not in skip and n.comment is not None:
            out.append(n.comment.value)
        if isinstance(n, cst.IndentedBlock):
            out.extend(line.comment.value for line in n.footer if line.comment is not None)
    return out


def _comments(node: cst.CSTNode) -> list[str]:
    return [n.value for n in _walk(node) if isinstance(n, cst.Comment)]


def _walk(node: cst.CSTNode) -> list[cst.CSTNode]:
    """Every node under ``node``, whitespace and comments included (libcst's own children)."""
    out, stack = [], [node]
    while stack:
        current = stack.pop()
        out.append(current)
        stack.extend(reversed(current.children))
    return out
