"""The machinery every fixer shares: a parsed cell with positions and parents, and a set of edits.

A fixer never edits the tree. It reads a :class:`Cell` and returns :class:`Edits` (replace a node,
set a keyword on a call, insert or remove statements, need an import) or a string saying why no
rewrite is offered. :func:`apply_edits` then applies the edits of any number of fixes in one pass.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

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


def kwarg(call: cst.Call, name: str) -> cst.Arg | None:
    return next((a for a in call.args if a.keyword is not None and a.keyword.value == name), None)


def expr(code: str) -> cst.BaseExpression:
    return cst.parse_expression(code)


def stmt(code: str) -> cst.BaseStatement:
    return cst.parse_statement(code)


@dataclass
class Edits:
    """What one fix changes, keyed by the original nodes of a :class:`Cell`."""

    title: str
    safety: str = "safe"
    replace: dict[cst.CSTNode, cst.CSTNode] = field(default_factory=dict)
    kwargs: dict[cst.Call, dict[str, str]] = field(default_factory=dict)
    before: dict[cst.CSTNode, list[str]] = field(default_factory=dict)
    after: dict[cst.CSTNode, list[str]] = field(default_factory=dict)
    remove: set[cst.CSTNode] = field(default_factory=set)
    wrap: dict[cst.CSTNode, str] = field(default_factory=dict)  # statement -> ``with`` item code around it
    imports: set[str] = field(default_factory=set)  # whole import statements, e.g. "import numpy as np"

    def set_kwarg(self, call: cst.Call, name: str, value: str) -> None:
        self.kwargs.setdefault(call, {})[name] = value

    def need(self, cell: Cell, module: str) -> str:
        """The name to write for ``module`` in new code, importing it when the cell has not."""
        alias = cell.alias_of(module)
        if alias is not None:
            return alias
        local = DEFAULT_ALIAS.get(module)
        self.imports.add(f"import {module} as {local}" if local else f"import {module}")
        return local or module

    def need_from(self, cell: Cell, module: str, name: str) -> str:
        local = cell.imported_name(module, name)
        if local is None:
            self.imports.add(f"from {module} import {name}")
            local = name
        return local

    def touched(self) -> list[cst.CSTNode]:
        return [*self.replace, *self.kwargs, *self.remove]


def _overlaps(a: CodeRange, b: CodeRange) -> bool:
    a0, a1 = (a.start.line, a.start.column), (a.end.line, a.end.column)
    b0, b1 = (b.start.line, b.start.column), (b.end.line, b.end.column)
    return a0 < b1 and b0 < a1


def compatible(cell: Cell, accepted: Iterable[Edits], candidate: Edits) -> bool:
    """False when ``candidate`` would replace a node another accepted fix also rewrites."""
    mine = [cell.positions[n] for n in candidate.replace] + [cell.positions[n] for n in candidate.remove]
    kw_mine = [cell.positions[n] for n in candidate.kwargs]
    for other in accepted:
        theirs = [cell.positions[n] for n in (*other.replace, *other.remove)]
        kw_theirs = [cell.positions[n] for n in other.kwargs]
        if any(_overlaps(a, b) for a in mine for b in theirs + kw_theirs):
            return False
        if any(_overlaps(a, b) for a in kw_mine for b in theirs):
            return False
        if set(candidate.wrap) & set(other.wrap):
            return False
        for call, values in candidate.kwargs.items():
            clash = other.kwargs.get(call, {})
            if any(k in clash and clash[k] != v for k, v in values.items()):
                return False
    return True


class _Apply(cst.CSTTransformer):
    def __init__(self, edits: list[Edits]) -> None:
        super().__init__()
        self.replace: dict[cst.CSTNode, cst.CSTNode] = {}
        self.kwargs: dict[cst.CSTNode, dict[str, str]] = {}
        self.before: dict[cst.CSTNode, list[str]] = {}
        self.after: dict[cst.CSTNode, list[str]] = {}
        self.remove: set[cst.CSTNode] = set()
        self.wrap: dict[cst.CSTNode, str] = {}
        for e in edits:
            self.wrap.update(e.wrap)
            self.replace.update(e.replace)
            for call, values in e.kwargs.items():
                self.kwargs.setdefault(call, {}).update(values)
            for src, dst in ((e.before, self.before), (e.after, self.after)):
                for node, lines in src.items():
                    dst.setdefault(node, []).extend(x for x in lines if x not in dst.get(node, []))
            self.remove |= e.remove

    def on_leave(self, original_node: cst.CSTNode, updated_node: cst.CSTNode):  # type: ignore[no-untyped-def, override]
        node = updated_node
        if original_node in self.kwargs and isinstance(node, cst.Call):
            node = _with_kwargs(node, self.kwargs[original_node])
        node = self.replace.get(original_node, node)
        if original_node in self.wrap and isinstance(node, cst.BaseStatement):
            node = _wrapped(node, self.wrap[original_node])
        removed = original_node in self.remove
        if original_node in self.before or original_node in self.after:
            items = [stmt(s) for s in self.before.get(original_node, [])]
            if not removed:
                items.append(node)  # type: ignore[arg-type]
            items += [stmt(s) for s in self.after.get(original_node, [])]
            return cst.FlattenSentinel(items)
        if removed:
            return cst.RemovalSentinel.REMOVE
        return node


def _wrapped(node: cst.BaseStatement, item: str) -> cst.With:
    """``with <item>:`` around ``node``; the statement's leading comments stay above the ``with``."""
    lead = getattr(node, "leading_lines", ())
    inner = node.with_changes(leading_lines=[]) if lead else node
    return cst.With(items=[cst.WithItem(expr(item))], body=cst.IndentedBlock(body=[inner]), leading_lines=lead)


def _with_kwargs(call: cst.Call, values: dict[str, str]) -> cst.Call:
    # f(x for x in xs) needs its own parentheses once the generator is not the only argument
    args = [
        a.with_changes(value=a.value.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()]))
        if isinstance(a.value, cst.GeneratorExp) and not a.value.lpar
        else a
        for a in call.args
    ]
    for name, value in values.items():
        new = cst.Arg(
            keyword=cst.Name(name),
            value=expr(value),
            equal=cst.AssignEqual(cst.SimpleWhitespace(""), cst.SimpleWhitespace("")),
        )
        idx = next((i for i, a in enumerate(args) if a.keyword is not None and a.keyword.value == name), None)
        if idx is not None:
            args[idx] = args[idx].with_changes(value=new.value)
            continue
        if args and args[-1].comma is cst.MaybeSentinel.DEFAULT:
            args[-1] = args[-1].with_changes(comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" ")))
        elif args and isinstance(args[-1].comma, cst.Comma):
            # a trailing comma (often a multi-line call): the new argument takes the last one's place in
            # the layout (its comma leads to the closing paren), the old last one gets a between-comma
            closing = args[-1].comma
            if len(args) > 1 and isinstance(args[-2].comma, cst.Comma):
                args[-1] = args[-1].with_changes(comma=args[-2].comma)
            new = new.with_changes(comma=closing)
        args.append(new)
    return call.with_changes(args=args)


def apply_edits(cell: Cell, edits: list[Edits]) -> str:
    """The cell's source with every edit applied in one traversal, plus the imports they need."""
    module = cell.module.visit(_Apply(edits))
    assert isinstance(module, cst.Module)
    imports = sorted({i for e in edits for i in e.imports})
    if imports:
        body = list(module.body)
        at = 0
        while at < len(body) and _is_docstring_or_future(body[at]):
            at += 1
        module = module.with_changes(body=[*body[:at], *[stmt(i) for i in imports], *body[at:]])
    return unmask_ipython(module.code, cell.ipython_lines)


def _is_docstring_or_future(node: cst.CSTNode) -> bool:
    if not isinstance(node, cst.SimpleStatementLine) or len(node.body) != 1:
        return False
    small = node.body[0]
    if isinstance(small, cst.Expr) and isinstance(small.value, (cst.SimpleString, cst.ConcatenatedString)):
        return True
    return (
        isinstance(small, cst.ImportFrom) and isinstance(small.module, cst.Name) and small.module.value == "__future__"
    )


def unified_diff(before: str, after: str, name: str = "cell") -> str:
    lines = difflib.unified_diff(
        before.splitlines(keepends=True),
        after.splitlines(keepends=True),
        fromfile=f"{name} (before)",
        tofile=f"{name} (after)",
    )
    return "".join(x if x.endswith("\n") else x + "\n" for x in lines)


def compiles(source: str) -> bool:
    try:
        masked, _ = mask_ipython(source)
        compile(masked, "<cell>", "exec", dont_inherit=True, flags=0x2000)  # PyCF_ALLOW_TOP_LEVEL_AWAIT
    except (SyntaxError, ValueError):
        return False
    return True
