"""Edits proposed by fixers, and the one pass that applies any number of them to a cell.

An :class:`Edits` is keyed by the original nodes of a :class:`~aiperf_magic.cell.parsed.ParsedCell`:
replace a node, set a keyword on a call, insert statements before/after one, remove one, wrap one
in ``with``, and the imports the new code needs. :func:`apply_edits` rewrites only the top-level
statements that hold an edited node and keeps the rest of the cell's text as it was, so building
one fix costs the size of the statements it touches, not the size of the cell.
"""

from __future__ import annotations

import dataclasses
import difflib
import re
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any

import libcst as cst
from libcst.metadata import CodeRange

from ..cell.parsed import ParsedCell
from ..cell.source import to_python
from ..cell.tree import expr, stmt
from .comments import with_comments
from .tidy import tidy

# module -> the alias a rewrite uses when the cell has not imported it itself
DEFAULT_ALIAS = {"numpy": "np", "pandas": "pd"}

# While a fixer runs: qualified name -> the name an earlier cell or the live namespace already binds
# to it (None when nothing does), so that a rewrite never imports what the kernel already has.
_BOUND: ContextVar[Callable[[str], str | None] | None] = ContextVar("aiperf_bound_names", default=None)


# While a fixer runs: whether a name already holds something (then an import must not rebind it).
_TAKEN: ContextVar[Callable[[str], bool] | None] = ContextVar("aiperf_taken_names", default=None)


@contextmanager
def bound_names(find: Callable[[str], str | None], taken: Callable[[str], bool] | None = None) -> Iterator[None]:
    """Within this block, ``Edits.need``/``need_from`` reuse the names ``find`` knows, and never
    import under a name ``taken`` says holds something else (``np`` bound to ``jax.numpy``)."""
    token, token_taken = _BOUND.set(find), _TAKEN.set(taken)
    try:
        yield
    finally:
        _BOUND.reset(token)
        _TAKEN.reset(token_taken)


def _taken(name: str) -> bool:
    taken = _TAKEN.get()
    return taken is not None and taken(name)


def _already_bound(qname: str) -> str | None:
    find = _BOUND.get()
    return find(qname) if find is not None else None


@dataclass
class Edits:
    """What one fix changes, keyed by the original nodes of a :class:`ParsedCell`."""

    title: str
    safety: str = "safe"
    replace: dict[cst.CSTNode, cst.CSTNode] = field(default_factory=dict)
    kwargs: dict[cst.Call, dict[str, str]] = field(default_factory=dict)
    before: dict[cst.CSTNode, list[str]] = field(default_factory=dict)
    after: dict[cst.CSTNode, list[str]] = field(default_factory=dict)
    remove: set[cst.CSTNode] = field(default_factory=set)
    wrap: dict[cst.CSTNode, str] = field(default_factory=dict)  # statement -> ``with`` item code around it
    imports: set[str] = field(default_factory=set)  # whole import statements, e.g. "import numpy as np"
    # Why the gain depends on the data's size (see ``Fix.measure_first``); such edits count as unsafe.
    measure_first: str | None = None

    @property
    def needs_consent(self) -> bool:
        """Applied only when the user accepts unsafe fixes: results may differ, or speed may not come."""
        return self.safety != "safe" or self.measure_first is not None

    def set_kwarg(self, call: cst.Call, name: str, value: str) -> None:
        self.kwargs.setdefault(call, {})[name] = value

    def need(self, cell: ParsedCell, module: str) -> str:
        """The name to write for ``module`` in new code, importing it when the cell has not."""
        alias = cell.alias_of(module) or _already_bound(module)
        if alias is not None:
            return alias
        local = DEFAULT_ALIAS.get(module)
        if local is not None and _taken(local):
            local = None  # np holds something else in the kernel: import the module by its own name
        if local is None and _taken(module):
            local = cell.fresh(f"{module.replace('.', '_')}_module")
        self.imports.add(f"import {module} as {local}" if local else f"import {module}")
        return local or module

    def need_from(self, cell: ParsedCell, module: str, name: str) -> str:
        local = cell.imported_name(module, name) or _already_bound(f"{module}.{name}")
        if local is None:
            local = name if not _taken(name) else cell.fresh(f"{name}_")
            self.imports.add(f"from {module} import {name}" + (f" as {local}" if local != name else ""))
        return local

    def touched(self) -> list[cst.CSTNode]:
        return [*self.replace, *self.kwargs, *self.remove]

    def anchors(self) -> list[cst.CSTNode]:
        """Every node this fix edits or inserts beside."""
        return [*self.replace, *self.kwargs, *self.remove, *self.before, *self.after, *self.wrap]


def _overlaps(a: CodeRange, b: CodeRange) -> bool:
    a0, a1 = (a.start.line, a.start.column), (a.end.line, a.end.column)
    b0, b1 = (b.start.line, b.start.column), (b.end.line, b.end.column)
    return a0 < b1 and b0 < a1


def compatible(cell: ParsedCell, accepted: Iterable[Edits], candidate: Edits) -> bool:
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


class _Plan:
    """Every accepted fix's edits, merged, and applied by copying only the path from each edited node
    up to its top-level statement (libcst's transformers rebuild every node they pass)."""

    def __init__(self, cell: ParsedCell, edits: list[Edits]) -> None:
        self.cell = cell
        self.replace: dict[cst.CSTNode, Any] = {}
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

    def points(self) -> set[cst.CSTNode]:
        return {*self.replace, *self.kwargs, *self.before, *self.after, *self.remove, *self.wrap}

    def apply(self) -> dict[cst.CSTNode, list[cst.CSTNode]]:
        """Each edited top-level statement -> what stands in its place (none, one or several nodes)."""
        parents = self.cell.parents
        depth = {n: sum(1 for _ in self.cell.ancestors(n)) for n in self.points()}
        current: dict[cst.CSTNode, cst.CSTNode] = {}  # original node -> its latest copy
        out: dict[cst.CSTNode, list[cst.CSTNode]] = {}
        for point in sorted(depth, key=lambda n: -depth[n]):  # the deepest first
            old = current.get(point, point)
            new = self._edited(point, old)
            child, child_old = point, old
            while True:
                parent = parents.get(child)
                if parent is None or isinstance(parent, cst.Module):
                    out[child] = new
                    break
                parent_old = current.get(parent, parent)
                parent_new = _replace_child(parent_old, child_old, new)
                current[parent] = parent_new
                child, child_old, new = parent, parent_old, [parent_new]
        return out

    def _edited(self, original: cst.CSTNode, node: cst.CSTNode) -> list[cst.CSTNode]:
        if original in self.kwargs and isinstance(node, cst.Call):
            node = with_kwargs(node, self.kwargs[original])
        replacement = self.replace.get(original, node)
        nodes = list(replacement.nodes) if isinstance(replacement, cst.FlattenSentinel) else [replacement]
        if original in self.replace:
            nodes = with_comments(original, nodes)  # the user's comments stay
        if original in self.wrap and len(nodes) == 1 and isinstance(nodes[0], cst.BaseStatement):
            nodes = [_wrapped(nodes[0], self.wrap[original])]
        if original in self.remove:
            nodes = []
        return (
            [stmt(x) for x in self.before.get(original, [])] + nodes + [stmt(x) for x in self.after.get(original, [])]
        )


def _replace_child(parent: cst.CSTNode, old: cst.CSTNode, new: list[cst.CSTNode]) -> cst.CSTNode:
    """``parent`` with its child ``old`` (found by identity) replaced by the nodes in ``new``."""
    for f in dataclasses.fields(parent):
        value = getattr(parent, f.name)
        if value is old:
            if len(new) != 1:
                raise ValueError(f"{type(parent).__name__}.{f.name} holds one node, not {len(new)}")
            return parent.with_changes(**{f.name: new[0]})
        if isinstance(value, (list, tuple)) and any(v is old for v in value):
            items = [n for v in value for n in (new if v is old else [v])]
            return parent.with_changes(**{f.name: type(value)(items)})
    raise ValueError(f"{type(old).__name__} is not a child of {type(parent).__name__}")


def _wrapped(node: cst.BaseStatement, item: str) -> cst.With:
    """``with <item>:`` around ``node``; the statement's leading comments stay above the ``with``."""
    lead = getattr(node, "leading_lines", ())
    inner = node.with_changes(leading_lines=[]) if lead else node
    return cst.With(items=[cst.WithItem(expr(item))], body=cst.IndentedBlock(body=[inner]), leading_lines=lead)


def with_kwargs(call: cst.Call, values: dict[str, str]) -> cst.Call:
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


def apply_edits(cell: ParsedCell, edits: list[Edits]) -> str | None:
    """The cell's source with every edit applied, plus the imports they need.

    None when the result would not be valid Python, or when it changed a line of IPython syntax
    (``!cmd``, ``%magic``), which no rewrite may touch.
    """
    python = rewrite_python(cell, edits)
    if python is None:
        return None
    return cell.python.restore(python)


def rewrite_python(cell: ParsedCell, edits: list[Edits]) -> str | None:
    """The cell's Python text with the edits applied (None when it would not compile)."""
    body = list(cell.module.body)
    try:
        rebuilt = _Plan(cell, edits).apply()
    except (ValueError, TypeError, cst.CSTValidationError):
        return None  # the edits do not fit the tree (a fixer's mistake): no rewrite
    pieces = cell.statement_texts
    changed: list[str] = []
    out = list(pieces.body)
    # only the rebuilt statements are visited: a fix costs the size of what it touches
    for i, statement in sorted((cell.statement_index[s], s) for s in rebuilt if s in cell.statement_index):
        out[i] = "".join(cell.module.code_for_node(n) for n in rebuilt[statement])
        # what the new code leaves behind of the old shape, with the statement just before it
        window = (out[i - 1] if i else "") + out[i]
        tidied = tidy(window, "".join(pieces.body[max(0, i - 1) : i + 1]))
        if tidied != window:
            if i:
                out[i - 1] = ""
            out[i] = tidied
        changed.append(out[i])
    imports = sorted({i for e in edits for i in e.imports})
    if imports:
        at = 0
        while at < len(body) and _is_docstring_or_future(body[at]):
            at += 1
        block = "".join(i + cell.module.default_newline for i in imports)
        out[at:at] = [block]
        changed.append(block)
    if not compiles("".join(changed)):
        return None
    return pieces.header + "".join(out) + pieces.footer


def _is_docstring_or_future(node: cst.CSTNode) -> bool:
    if not isinstance(node, cst.SimpleStatementLine) or len(node.body) != 1:
        return False
    small = node.body[0]
    if isinstance(small, cst.Expr) and isinstance(small.value, (cst.SimpleString, cst.ConcatenatedString)):
        return True
    return (
        isinstance(small, cst.ImportFrom) and isinstance(small.module, cst.Name) and small.module.value == "__future__"
    )


def unified_diff(before: str, after: str, name: str = "cell", context: int = 3) -> str:
    """A unified diff of two versions of a cell; only the region between their common first and
    last lines is compared, so a one-line fix in a long file costs the size of the fix."""
    a, b = before.splitlines(keepends=True), after.splitlines(keepends=True)
    lo = 0
    while lo < len(a) and lo < len(b) and a[lo] == b[lo]:
        lo += 1
    hi = 0
    while hi < len(a) - lo and hi < len(b) - lo and a[-1 - hi] == b[-1 - hi]:
        hi += 1
    lo, hi = max(0, lo - context), max(0, hi - context)
    lines = difflib.unified_diff(
        a[lo : len(a) - hi], b[lo : len(b) - hi], fromfile=f"{name} (before)", tofile=f"{name} (after)", n=context
    )
    out = []
    for line in lines:
        if line.startswith("@@") and lo:
            line = _HUNK.sub(lambda m: f"@@ -{_shift(m[1], lo)}{m[2] or ''} +{_shift(m[3], lo)}{m[4] or ''} @@", line)
        out.append(line if line.endswith("\n") else line + "\n")
    return "".join(out)


_HUNK = re.compile(r"^@@ -(\d+)(,\d+)? \+(\d+)(,\d+)? @@")


def _shift(start: str, by: int) -> int:
    return int(start) + by


def compiles(source: str) -> bool:
    """True when ``source`` (plain Python, or a cell in IPython syntax) compiles."""
    try:
        compile(to_python(source).text, "<cell>", "exec", dont_inherit=True, flags=0x2000)  # top-level await
    except (SyntaxError, ValueError):
        return False
    return True
