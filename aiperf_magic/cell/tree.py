"""Reading libcst trees: fast walks and the small questions rules and fixers ask about nodes.

libcst's own visitors rebuild every node they pass (``_visit_and_replace_children``), which costs
more than parsing. Rules and fixers only read, so the walks here follow the nodes' dataclass fields
directly, skipping whitespace, parentheses and punctuation. Two walks, named for what they do:
:func:`walk` stays in the current function (nested ``def``/``lambda``/``class`` bodies run
elsewhere), :func:`walk_all` goes everywhere.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from functools import cache
from typing import Any

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
def _fields(cls: type, operators: bool = False) -> tuple[str, ...]:
    skip = _SKIP_FIELDS - {"operator"} if operators else _SKIP_FIELDS
    return tuple(f.name for f in dataclasses.fields(cls) if f.name not in skip and not f.name.startswith("whitespace"))


def children(node: cst.CSTNode, operators: bool = False) -> Iterator[cst.CSTNode]:
    """The node's child nodes that carry code, in field order (operator tokens when asked)."""
    for name in _fields(type(node), operators):
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


def walk_all(node: cst.CSTNode) -> Iterator[cst.CSTNode]:
    """Pre-order walk of every code-carrying node under ``node``, nested definitions and operators too."""
    stack = [node]
    while stack:
        current = stack.pop()
        yield current
        stack.extend(reversed(list(children(current, operators=True))))


def names_in(node: cst.CSTNode) -> set[str]:
    """Every bare name read or written under ``node`` (an attribute's own name is not a variable)."""
    found: set[str] = set()
    stack = [node]
    while stack:
        current = stack.pop()
        if isinstance(current, cst.Name):
            found.add(current.value)
        elif isinstance(current, cst.Attribute):
            stack.append(current.value)
        else:
            stack.extend(children(current))
    return found


def contains(node: cst.CSTNode, kind: type | tuple[type, ...]) -> bool:
    return any(isinstance(n, kind) for n in walk_all(node))


_MUTATORS = frozenset(
    {
        "append",
        "extend",
        "insert",
        "remove",
        "pop",
        "clear",
        "sort",
        "reverse",
        "update",
        "add",
        "discard",
        "setdefault",
        "popitem",
        "__setitem__",
    }
)


def assigned_names(node: cst.CSTNode) -> set[str]:
    """Names bound or mutated in place under ``node`` (targets, aug-assign, ``x.append``-style calls)."""
    out: set[str] = set()
    for n in walk_all(node):
        targets: list[cst.CSTNode] = []
        if isinstance(n, (cst.AssignTarget, cst.AugAssign, cst.AnnAssign, cst.For, cst.CompFor, cst.Del)):
            targets = [n.target]
        elif isinstance(n, cst.Call) and isinstance(n.func, cst.Attribute) and n.func.attr.value in _MUTATORS:
            targets = [n.func.value]
        for t in targets:
            while isinstance(t, (cst.Subscript, cst.Attribute)):
                t = t.value
            out |= names_in(t) if not isinstance(t, cst.Name) else {t.value}
    return out


def call_name(call: cst.CSTNode) -> str:
    """The dotted text of a call's callee (``np.append``), or '' when it is not a plain name chain."""
    if not isinstance(call, cst.Call):
        return ""
    parts: list[str] = []
    f: cst.CSTNode = call.func
    while isinstance(f, cst.Attribute):
        parts.append(f.attr.value)
        f = f.value
    if not isinstance(f, cst.Name):
        return ""
    parts.append(f.value)
    return ".".join(reversed(parts))


def append_parts(statement: cst.CSTNode) -> tuple[cst.BaseExpression, cst.BaseExpression] | None:
    """``(owner, value)`` when ``statement`` is exactly ``owner.append(value)``, else None."""
    if (
        isinstance(statement, cst.Expr)
        and isinstance(statement.value, cst.Call)
        and isinstance(statement.value.func, cst.Attribute)
        and statement.value.func.attr.value == "append"
        and len(statement.value.args) == 1
    ):
        return statement.value.func.value, statement.value.args[0].value
    return None


def kwarg(call: cst.Call, name: str) -> cst.Arg | None:
    return next((a for a in call.args if a.keyword is not None and a.keyword.value == name), None)


def expr(code: str) -> cst.BaseExpression:
    return cst.parse_expression(code)


def stmt(code: str) -> cst.BaseStatement:
    return cst.parse_statement(code)


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


def expect(node: cst.CSTNode, kind: type | tuple[type, ...], where: Any = None) -> Any:
    """``node`` when it is a ``kind`` (and ``where(node)`` holds), else None: fixers check the node
    their detector flagged before they rewrite it."""
    if isinstance(node, kind) and (where is None or where(node)):
        return node
    return None
