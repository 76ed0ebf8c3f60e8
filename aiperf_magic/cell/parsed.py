"""One parse of a cell, shared by the rules that read it and the fixers that rewrite it.

:func:`parse` returns a :class:`ParsedCell` (the libcst module of the cell's Python text, with
positions and parents computed on first use) or a :class:`ParseFailure` saying why and where, in
the user's own lines. Detectors and fixers see the very same node objects, so a fixer works on
exactly the node its detector flagged.
"""

from __future__ import annotations

import re
import sys
import warnings
from collections import OrderedDict
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import Any, cast

import libcst as cst
from libcst.metadata import CodeRange, MetadataWrapper, PositionProvider
from libcst.metadata.position_provider import PositionProvidingCodegenState

from .depth import too_deep
from .source import PythonSource, to_python
from .tree import children

# libcst's parser takes time quadratic in the length of one operator chain (an 8,000-character
# ``a + a + ...`` line takes most of a second), so such machine-made lines are not parsed; long data
# literals (``[0.1, 0.2, ...]``) parse in linear time and are kept up to MAX_LINE.
MAX_LINE = 50_000
MAX_CHAIN = 300  # binary operators in one chain
_RECURSION_HEADROOM = 20_000  # libcst's parser and visitors recurse once per nesting level
_DEPTH_ERRORS = re.compile(r"too many nested|too many levels|too complex|too deep|recursion", re.IGNORECASE)
_AST_ONLY, _TOP_LEVEL_AWAIT = 0x400, 0x2000  # ast.PyCF_ONLY_AST, ast.PyCF_ALLOW_TOP_LEVEL_AWAIT
_SEPARATORS = re.compile(r"[,;()\[\]{}]")
_BINARY_OP = re.compile(r"(?<=[\w)\]])\s*[-+*/%@&|^]\s*(?=[\w(\[])")

COMPOUND = (cst.For, cst.While, cst.If, cst.With, cst.Try, cst.FunctionDef, cst.ClassDef)
LOOPS = (cst.For, cst.While)
COMPREHENSIONS = (cst.ListComp, cst.SetComp, cst.DictComp, cst.GeneratorExp)


@dataclass(frozen=True)
class ParseFailure:
    """Why a cell could not be read: ``kind`` is "syntax-error" or "not-analysed"."""

    kind: str
    message: str
    line: int  # the user's line (1-based)
    col: int  # the user's column (1-based)


@dataclass(frozen=True)
class StatementTexts:
    """``header + "".join(body) + footer`` is the module's text, one body item per top-level statement."""

    header: str
    body: list[str]
    footer: str


class ParsedCell:
    """A cell's source, its Python text and its one libcst module, with position helpers."""

    def __init__(self, source: str, python: PythonSource, module: cst.Module) -> None:
        self.source = source
        self.python = python
        self.module = module

    # -- positions and parents (computed on first use) --------------------------------------------
    @cached_property
    def positions(self) -> Mapping[cst.CSTNode, CodeRange]:
        positions, self.__dict__["statement_texts"] = _codegen_pass(self.module)
        return positions

    @cached_property
    def parents(self) -> Mapping[cst.CSTNode, cst.CSTNode]:
        """Each code-carrying node's parent, from one walk (libcst's provider rebuilds the tree)."""
        out: dict[cst.CSTNode, cst.CSTNode] = {}
        stack: list[cst.CSTNode] = [self.module]
        while stack:
            node = stack.pop()
            for child in children(node, operators=True):
                out[child] = node
                stack.append(child)
        return out

    def user_range(self, node: cst.CSTNode) -> tuple[int, int, int, int] | None:
        """(line, col, end_line, end_col) of ``node`` in the user's cell, 1-based."""
        rng = self.positions.get(node)
        if rng is None:
            return None
        line, col = self.python.position(rng.start.line, rng.start.column)
        end_line, end_col = self.python.position(rng.end.line, rng.end.column)
        if end_line == line and end_col < col:
            end_col = col
        return line, col, end_line, end_col

    @cached_property
    def statement_texts(self) -> StatementTexts:
        """The module's text cut at its top-level statements, so a rewrite can swap a few of them
        (computed by the same code-generation pass as the positions)."""
        self.__dict__["positions"], texts = _codegen_pass(self.module)
        return texts

    @cached_property
    def statement_index(self) -> Mapping[cst.CSTNode, int]:
        """Each top-level statement's position in the module's body."""
        return {statement: i for i, statement in enumerate(self.module.body)}

    def release(self) -> None:
        """Drop what was computed from the module (positions, parents, statement texts): a notebook
        keeps every cell's parse, but needs these for one cell at a time. Asked again, they are
        computed again."""
        for cached in ("positions", "parents", "statement_texts", "statement_index"):
            self.__dict__.pop(cached, None)

    # -- reading ---------------------------------------------------------------------------------
    def code(self, node: cst.CSTNode) -> str:
        return self.module.code_for_node(node).strip()

    def line(self, node: cst.CSTNode) -> int:
        return self.positions[node].start.line

    def nodes(self, kind: type | tuple[type, ...]) -> Iterator[cst.CSTNode]:
        return (n for n in self.positions if isinstance(n, kind))

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

    def top_level(self, node: cst.CSTNode) -> cst.CSTNode:
        """The module-level statement that holds ``node``."""
        cur = node
        for anc in self.ancestors(node):
            if isinstance(anc, cst.Module):
                return cur
            cur = anc
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

    @cached_property
    def bound_names(self) -> frozenset[str]:
        return frozenset(n.value for n in self.nodes(cst.Name))  # type: ignore[attr-defined]

    def fresh(self, base: str) -> str:
        """A name not used anywhere in the cell, derived from ``base``."""
        name, i = base, 2
        while name in self.bound_names:
            name, i = f"{base}{i}", i + 1
        return name


# A cell is often run again unchanged (tuning a parameter elsewhere, timing it twice): its parse is
# kept for the last few sources, so a re-run does not pay libcst's parser and code generation again
# after the cell (libcst's nodes are immutable, so sharing them between analyses is safe).
_RECENT = 8
_recent: OrderedDict[str, ParsedCell | ParseFailure | None] = OrderedDict()


def parse(source: str) -> ParsedCell | ParseFailure | None:
    """The cell parsed once; a ParseFailure for code that is not Python; None for another language.
    The same source asked again gets the same result (the last few sources are kept)."""
    try:
        _recent.move_to_end(source)
        return _recent[source]
    except KeyError:
        pass
    result = _parse(source)
    if not isinstance(result, ParseFailure):  # a failure may be the moment's (memory, stack depth)
        _recent[source] = result
        while len(_recent) > _RECENT:
            _recent.popitem(last=False)
    return result


def _parse(source: str) -> ParsedCell | ParseFailure | None:
    python = to_python(source)
    if not python.is_python:
        return None
    long_line = _first_long_line(python.text)
    if long_line:
        line, _ = python.position(long_line, 0)
        return ParseFailure(
            "not-analysed",
            # the finding carries the line; the message names none, so it reads right wherever the
            # line is shown (a %%aiperf report counts the magic line, the cell body does not)
            "This line is too long, or holds too long a chain of operators (generated code?): not analysed.",
            line,
            1,
        )
    deep = too_deep(python.text)
    if deep is not None:
        return _too_deep(python, deep)
    with recursion_headroom():
        try:
            module = cst.parse_module(python.text)
        except cst.ParserSyntaxError as exc:
            message, (line, col) = _syntax_error(python.text, exc)
            user_line, user_col = python.position(line, col)
            return ParseFailure("syntax-error", message, user_line, user_col)
        except (cst.CSTValidationError, RecursionError, MemoryError) as exc:
            return ParseFailure("not-analysed", f"The code could not be read: {exc}", 1 + python.offset, 1)
    return ParsedCell(source, python, module)


def parse_module(text: str) -> cst.Module:
    """libcst's ``parse_module`` for text that is not a cell (a live function's source), refusing
    with ValueError a text nested so deeply that the parser would overflow its stack."""
    if too_deep(text) is not None:
        raise ValueError("nested too deeply to be parsed")
    with recursion_headroom():
        return cst.parse_module(text)


def _too_deep(python: PythonSource, offset: int) -> ParseFailure:
    """A text the parser cannot read without overflowing its stack, at the line where the nesting
    passed the limit, with Python's own word for it when it has one (``too many nested
    parentheses``). A plain syntax error that merely looks deep (a bracket never closed, with the
    rest of the file inside it) is reported as the syntax error it is."""
    line = python.text.count("\n", 0, offset) + 1
    reason = "nested too deeply, or one expression too long, to be read safely"
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # SyntaxWarnings of the user's code are Python's to show
            compile(python.text, "<cell>", "exec", flags=_AST_ONLY | _TOP_LEVEL_AWAIT, dont_inherit=True)
    except SyntaxError as err:
        if err.lineno and not _DEPTH_ERRORS.search(err.msg or ""):
            user_line, user_col = python.position(err.lineno, max((err.offset or 1) - 1, 0))
            return ParseFailure("syntax-error", f"Syntax error: {err.msg}", user_line, user_col)
        reason = f"{reason} (Python: {err.msg})"
    except (RecursionError, MemoryError, ValueError):
        reason = f"{reason} (Python: too deep to compile)"
    user_line, _ = python.position(line, 0)
    return ParseFailure("not-analysed", f"This code is {reason}: not analysed.", user_line, 1)


def _codegen_pass(module: cst.Module) -> tuple[Mapping[cst.CSTNode, CodeRange], StatementTexts]:
    """Positions of every node and the text of each top-level statement, from one code generation
    (what ``Module._codegen_impl`` does, with a mark between statements)."""
    try:
        provider = PositionProvider()
        state = PositionProvidingCodegenState(
            default_indent=module.default_indent, default_newline=module.default_newline, provider=provider
        )
        marks = [0]
        for line in module.header:
            line._codegen(state)
        marks.append(len(state.tokens))
        for statement in module.body:
            statement._codegen(state)
            marks.append(len(state.tokens))
        for line in module.footer:
            line._codegen(state)
        pieces = ["".join(state.tokens[a:b]) for a, b in zip(marks, [*marks[1:], len(state.tokens)], strict=True)]
        if not module.has_trailing_newline and pieces and any(pieces):
            last = max(i for i, piece in enumerate(pieces) if piece)
            pieces[last] = pieces[last].removesuffix(module.default_newline)
        return cast(Mapping[cst.CSTNode, CodeRange], provider._computed), StatementTexts(
            pieces[0], pieces[1:-1], pieces[-1]
        )
    except (AttributeError, TypeError):  # libcst internals moved: take the public, slower road
        pass
    m = module
    texts = StatementTexts(
        "".join(m.code_for_node(line) for line in m.header),
        [m.code_for_node(s) for s in m.body],
        "".join(m.code_for_node(line) for line in m.footer),
    )
    return node_positions(m), texts


def node_positions(module: cst.Module) -> Mapping[cst.CSTNode, CodeRange]:
    """Syntactic positions of every node, from one code-generation pass.

    ``MetadataWrapper.resolve(PositionProvider)`` gives the same result but first runs a full
    batched visit even when no batchable provider is asked for, doubling the cost.
    """
    try:
        provider = PositionProvider()
        state = PositionProvidingCodegenState(
            default_indent=module.default_indent, default_newline=module.default_newline, provider=provider
        )
        module._codegen(state)
        return cast(Mapping[cst.CSTNode, CodeRange], provider._computed)
    except (AttributeError, TypeError):  # libcst internals moved: take the public, slower road
        return MetadataWrapper(module, unsafe_skip_copy=True).resolve(PositionProvider)


def _first_long_line(text: str) -> int:
    """1-based number of the first line too costly to parse (see MAX_LINE), or 0."""
    if len(text) <= 2_000:
        return 0
    for number, line in enumerate(text.splitlines(), 1):
        if len(line) > MAX_LINE or (len(line) > 2_000 and _longest_chain(line) > MAX_CHAIN):
            return number
    return 0


def _longest_chain(line: str) -> int:
    """Most binary operators between two commas or brackets (``a + b + c ...``)."""
    return max(len(_BINARY_OP.findall(part)) for part in _SEPARATORS.split(line))


def _syntax_error(text: str, exc: cst.ParserSyntaxError) -> tuple[str, tuple[int, int]]:
    """Python's own wording and place when it has one (clearer than the grammar's), else libcst's."""
    try:
        compile(text, "<cell>", "exec", flags=_TOP_LEVEL_AWAIT, dont_inherit=True)
    except SyntaxError as err:
        if err.lineno:
            return f"Syntax error: {err.msg}", (err.lineno, max((err.offset or 1) - 1, 0))
    except (ValueError, RecursionError, MemoryError):
        pass
    return f"Syntax error: {exc.message}", (exc.raw_line, exc.raw_column)


class recursion_headroom:
    """Raise the recursion limit while libcst parses or walks deeply nested code."""

    def __enter__(self) -> None:
        self.old = sys.getrecursionlimit()
        if self.old < _RECURSION_HEADROOM:
            sys.setrecursionlimit(_RECURSION_HEADROOM)

    def __exit__(self, *exc: Any) -> None:
        sys.setrecursionlimit(self.old)
