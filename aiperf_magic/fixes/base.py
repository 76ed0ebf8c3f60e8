"""What every fixer reads: a parsed cell with positions and parents, and small tree helpers.

A fixer never edits the tree. It reads a :class:`Cell` and returns :class:`~.edits.Edits` or a
string saying why no rewrite is offered (see ``edits.py``). IPython-only lines are masked so that
libcst can parse the cell, and put back after the rewrite.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import libcst as cst
from libcst.metadata import CodeRange, MetadataWrapper, ParentNodeProvider, PositionProvider

# IPython syntax libcst cannot parse: ``%magic``, ``!cmd`` and ``x = !cmd`` lines. They are masked
# with a marker statement of the same line count and restored after the rewrite.
_IPY_LINE = re.compile(r"^(?P<indent>[ \t]*)(?P<lhs>[A-Za-z_][\w, ]*=\s*)?(?P<cmd>[%!].*)$")
_MARK = "__aiperf_ipython_line_{}__"
_MARK_RE = re.compile(r"^(?P<indent>[ \t]*)(?P<lhs>[A-Za-z_][\w, ]*=\s*)?__aiperf_ipython_line_(\d+)__$", re.M)

# module -> the alias a rewrite uses when the cell has not imported it itself
DEFAULT_ALIAS = {"numpy": "np", "pandas": "pd"}

COMPOUND = (cst.For, cst.While, cst.If, cst.With, cst.Try, cst.FunctionDef, cst.ClassDef)
LOOPS = (cst.For, cst.While)
COMPREHENSIONS = (cst.ListComp, cst.SetComp, cst.DictComp, cst.GeneratorExp)


def mask_ipython(source: str) -> tuple[str, dict[int, str]]:
    """Replace IPython-only lines by marker expressions; returns the masked text and the originals."""
    out, saved = [], {}
    for i, line in enumerate(source.split("\n")):
        m = _IPY_LINE.match(line)
        if m and not line.lstrip().startswith("%%"):
            saved[i] = m.group("cmd")
            out.append(f"{m.group('indent')}{m.group('lhs') or ''}{_MARK.format(i)}")
        else:
            out.append(line)
    return "\n".join(out), saved


def unmask_ipython(text: str, saved: dict[int, str]) -> str:
    if not saved:
        return text

    def put_back(m: re.Match[str]) -> str:
        return f"{m.group('indent')}{m.group('lhs') or ''}{saved[int(m.group(3))]}"

    return _MARK_RE.sub(put_back, text)


class Cell:
    """One parsed cell (or file) with the metadata fixers need to find and judge nodes."""

    def __init__(self, source: str) -> None:
        self.source = source
        masked, self.ipython_lines = mask_ipython(source)
        self.wrapper = MetadataWrapper(cst.parse_module(masked))
        self.module = self.wrapper.module
        self.positions: dict[cst.CSTNode, CodeRange] = dict(self.wrapper.resolve(PositionProvider))
        self.parents: dict[cst.CSTNode, cst.CSTNode] = dict(self.wrapper.resolve(ParentNodeProvider))

    # -- reading -------------------------------------------------------------------------------
    def code(self, node: cst.CSTNode) -> str:
        return self.module.code_for_node(node).strip()

    def line(self, node: cst.CSTNode) -> int:
        return self.positions[node].start.line

    def nodes(self, kind: type | tuple[type, ...]) -> Iterator[cst.CSTNode]:
        return (n for n in self.positions if isinstance(n, kind))

    def at_line(
        self, line: int | None, kind: type | tuple[type, ...], col: int | None = None, where: object = None
    ) -> cst.CSTNode | None:
        """The node of ``kind`` starting on ``line`` (1-based); ``col`` (0- or 1-based) breaks ties."""
        if line is None:
            return None
        found = [
            n
            for n, r in self.positions.items()
            if isinstance(n, kind) and r.start.line == line and (where is None or where(n))  # type: ignore[operator]
        ]
        if col is not None and len(found) > 1:
            exact = [n for n in found if self.positions[n].start.column in (col, col - 1)]
            found = exact or found
        # the outermost match first: ``a.to(d).to(e)`` anchors at the whole chain's start
        found.sort(key=lambda n: (self.positions[n].start.column, -self._size(n)))
        return found[0] if found else None

    def _size(self, node: cst.CSTNode) -> int:
        r = self.positions[node]
        return (r.end.line - r.start.line) * 10_000 + r.end.column - r.start.column

    def parent(self, node: cst.CSTNode) -> cst.CSTNode | None:
        return self.parents.get(node)

    def ancestors(self, node: cst.CSTNode) -> Iterator[cst.CSTNode]:
        p = self.parents.get(node)
        while p is not None:
            yield p
            p = self.parents.get(p)

    def statement(self, node: cst.CSTNode) -> cst.CSTNode:
        """The statement (simple line or compound) that holds ``node``, as it sits in a body."""
        cur = node
        while not isinstance(cur, (cst.SimpleStatementLine, *COMPOUND)):
            parent = self.parents.get(cur)
            if parent is None:
                return cur
            cur = parent
        return cur

    def enclosing_loop(self, node: cst.CSTNode) -> cst.CSTNode | None:
        """The innermost ``for``/``while`` around ``node`` inside the same function."""
        for anc in self.ancestors(node):
            if isinstance(anc, LOOPS):
                return anc
            if isinstance(anc, (cst.FunctionDef, cst.Lambda, cst.ClassDef)):
                return None
        return None

    def body_of(self, stmt: cst.CSTNode) -> list[cst.CSTNode]:
        """The statement list that ``stmt`` belongs to."""
        parent = self.parents.get(stmt)
        body = getattr(parent, "body", ())
        return list(body) if isinstance(body, (list, tuple)) else []

    def following(self, stmt: cst.CSTNode) -> list[cst.CSTNode]:
        body = self.body_of(stmt)
        return body[body.index(stmt) + 1 :] if stmt in body else []

    def preceding(self, stmt: cst.CSTNode) -> list[cst.CSTNode]:
        body = self.body_of(stmt)
        return body[: body.index(stmt)] if stmt in body else []

    def alias_of(self, module: str) -> str | None:
        """The name this cell binds ``module`` to (``import numpy as np`` -> ``np``), if any."""
        for node in self.nodes(cst.Import):
            for alias in node.names:  # type: ignore[attr-defined]
                if self.code(alias.name) == module:
                    return alias.asname.name.value if alias.asname else module
        return None

    def imported_name(self, module: str, name: str) -> str | None:
        """The local name for ``from module import name`` in this cell, if imported."""
        for node in self.nodes(cst.ImportFrom):
            if node.module is None or self.code(node.module) != module or isinstance(node.names, cst.ImportStar):  # type: ignore[attr-defined]
                continue
            for alias in node.names:  # type: ignore[attr-defined]
                if self.code(alias.name) == name:
                    return alias.asname.name.value if alias.asname else name
        return None

    def bound_names(self) -> set[str]:
        return {n.value for n in self.nodes(cst.Name)}  # type: ignore[attr-defined]

    def fresh(self, base: str) -> str:
        """A name not used anywhere in the cell, derived from ``base``."""
        taken = self.bound_names()
        name, i = base, 2
        while name in taken:
            name, i = f"{base}{i}", i + 1
        return name


def names_in(node: cst.CSTNode) -> set[str]:
    """Every bare name read or written under ``node``."""
    found: set[str] = set()

    class _V(cst.CSTVisitor):
        def visit_Name(self, n: cst.Name) -> None:
            found.add(n.value)

        def visit_Attribute(self, n: cst.Attribute) -> bool:
            n.value.visit(self)  # the attribute's own name is not a variable
            return False

    node.visit(_V())
    return found


def contains(node: cst.CSTNode, kind: type | tuple[type, ...]) -> bool:
    hit = False

    class _V(cst.CSTVisitor):
        def on_visit(self, n: cst.CSTNode) -> bool:
            nonlocal hit
            if isinstance(n, kind):
                hit = True
            return not hit

    node.visit(_V())
    return hit


def walk(node: cst.CSTNode) -> Iterator[cst.CSTNode]:
    out: list[cst.CSTNode] = []

    class _V(cst.CSTVisitor):
        def on_visit(self, n: cst.CSTNode) -> bool:
            out.append(n)
            return True

    node.visit(_V())
    return iter(out)


def assigned_names(node: cst.CSTNode) -> set[str]:
    """Names bound or mutated in place under ``node`` (targets, aug-assign, ``x.append``-style calls)."""
    out: set[str] = set()
    mutators = {
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
    for n in walk(node):
        targets: list[cst.CSTNode] = []
        if isinstance(n, (cst.AssignTarget, cst.AugAssign, cst.AnnAssign, cst.For, cst.CompFor, cst.Del)):
            targets = [n.target]
        elif isinstance(n, cst.Call) and isinstance(n.func, cst.Attribute) and n.func.attr.value in mutators:
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
