"""``analyze``: a cell's source in, :class:`~aiperf_magic.report.Finding` objects out.

One parse, one traversal (:mod:`.facts`), then every selected rule queries the facts. Positions
are computed only when something was found, and mapped back to the user's own lines.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

import libcst as cst
from libcst.metadata import MetadataWrapper, PositionProvider
from libcst.metadata.position_provider import PositionProvidingCodegenState

from ..cell.source import PYTHON_CELL_MAGICS, PythonSource, cell_magic, to_python
from ..report import Finding
from .facts import Collector, Facts
from .names import Names
from .registry import Rule, code_selected, selected
from .suppress import is_suppressed
from .symbols import Symbol

PARSE_ERROR = "AIP000"
_RECURSION_HEADROOM = 20_000  # libcst's visitors recurse once per nesting level
# libcst's parser takes time quadratic in the length of one operator chain (an 8,000-character
# ``a + a + ...`` line takes most of a second), so such machine-made lines are not analysed; long
# data literals (``[0.1, 0.2, ...]``) parse in linear time and are kept up to MAX_LINE.
MAX_LINE = 50_000
MAX_CHAIN = 300  # binary operators in one chain
_SEPARATORS = re.compile(r"[,;()\[\]{}]")
_BINARY_OP = re.compile(r"(?<=[\w)\]])\s*[-+*/%@&|^]\s*(?=[\w(\[])")


@dataclass
class Context:
    """What earlier cells of a notebook taught about names, for the cells after them."""

    imports: dict[str, str] = field(default_factory=dict)
    symbols: dict[str, Symbol] = field(default_factory=dict)
    functions: dict[str, str] = field(default_factory=dict)  # name -> "cpu" | "io" | "other"
    flags: set[str] = field(default_factory=set)  # "cuda", "compile", "autocast", "train"
    definitions: dict[str, cst.FunctionDef] = field(default_factory=dict)  # for AIP302's apply(f)


def analyze(
    source: str,
    *,
    select: Iterable[str] | str | None = None,
    ignore: Iterable[str] | str | None = None,
    namespace: Mapping[str, Any] | None = None,
    context: Context | None = None,
    fixes: bool = True,
) -> list[Finding]:
    """Static findings for one cell (or file), sorted by position.

    ``select``/``ignore`` take code prefixes (``"AIP3"``, ``["AIP101", "AIP2"]``). ``namespace`` is
    the live namespace of ``%%aiperf`` (objects there tell what a name holds). ``context`` carries
    names imported and defined by earlier cells of a notebook; it is updated with this cell's.
    A cell that starts with ``%%time``/``%%timeit``/``%%aiperf`` is analysed on its body (lines
    still count from the magic line); other cell magics (``%%bash``...) are not Python: no findings.
    With ``fixes`` (the default) each finding whose rule has a rewrite carries it in ``finding.fix``.
    """
    original = source
    offset = 0
    magic = cell_magic(source)
    if magic is not None:
        if magic[0] not in PYTHON_CELL_MAGICS:
            return []
        offset = len(source) - len(source.lstrip("\n")) + 1  # blank lines, then the magic line
        source = magic[1]
    rules = [r for r in selected(select, ignore) if not r.runtime]
    py = to_python(source)
    if offset:
        py = PythonSource(py.text, py.lines, py.exact, offset)
    long_line = _first_long_line(py.text)
    if long_line:
        line, _ = py.position(long_line, 0)
        return [
            _not_analysed(
                line, f"Line {line} is too long or too long a chain of operators (generated code?): not analysed."
            )
        ]
    try:
        module = cst.parse_module(py.text)
    except cst.ParserSyntaxError as exc:
        if not code_selected(PARSE_ERROR, select, ignore):
            return []
        message, where = _syntax_error(py.text, exc)
        line, col = py.position(*where)
        return [
            Finding(
                code=PARSE_ERROR,
                name="syntax-error",
                message=message,
                line=line,
                col=col,
                end_line=line,
                end_col=col,
            )
        ]
    with _recursion_headroom():
        try:
            facts = _collect(module, namespace, context)
            hits = [(r, hit) for r in rules if r.check is not None for hit in r.check(facts)]
        except RecursionError:
            return [_not_analysed(1, "The code nests too deeply to be analysed.")]
        findings = _findings(module, py, hits, source) if hits else []
    if context is not None:
        _remember(context, facts)
    if fixes and findings:
        from ..fixes import attach_fixes  # the rewrites are proposed beside the rules that find them

        attach_fixes(original, findings)
    return findings


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


def _not_analysed(line: int, message: str) -> Finding:
    return Finding(code=PARSE_ERROR, name="not-analysed", message=message, line=line, col=1, end_line=line, end_col=1)


def _collect(module: cst.Module, namespace: Mapping[str, Any] | None, context: Context | None) -> Facts:
    names = Names(
        earlier=dict(context.imports) if context else {},
        namespace=namespace,  # read, never copied: a kernel's namespace can be large
    )
    collector = Collector(module, names, dict(context.symbols) if context else {})
    if context is not None:
        collector.facts.earlier_functions = dict(context.functions)
        collector.facts.earlier_flags = set(context.flags)
        collector.facts.earlier_defs = dict(context.definitions)
    collector.walk(module)
    return collector.facts


def _findings(module: cst.Module, py: PythonSource, hits: list[tuple[Rule, Any]], source: str) -> list[Finding]:
    positions = node_positions(module)
    user_lines = source.splitlines()
    out: dict[tuple[str, int, int], Finding] = {}
    for rule, hit in hits:
        node, message = hit if isinstance(hit, tuple) else (hit, rule.message)
        rng = positions.get(node)
        if rng is None:
            continue
        line, col = py.position(rng.start.line, rng.start.column)
        end_line, end_col = py.position(rng.end.line, rng.end.column)
        if end_line == line and end_col < col:
            end_col = col
        if is_suppressed(user_lines, line - py.offset, end_line - py.offset, rule.code):
            continue
        out.setdefault(
            (rule.code, line, col),
            Finding(
                code=rule.code,
                name=rule.name,
                message=message,
                line=line,
                col=col,
                end_line=end_line,
                end_col=end_col,
                fixable=rule.fixable,
            ),
        )
    return sorted(out.values(), key=lambda f: (f.line or 0, f.col or 0, f.code))


def node_positions(module: cst.Module) -> Mapping[cst.CSTNode, Any]:
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
        return provider._computed
    except (AttributeError, TypeError):  # libcst internals moved: take the public, slower road
        return MetadataWrapper(module, unsafe_skip_copy=True).resolve(PositionProvider)


def _remember(context: Context, facts: Facts) -> None:
    from .work import cell_flags, function_work  # what each function does, for later cells

    context.imports.update(facts.names.local)
    context.symbols.update(facts.symbols)
    for name, scope in facts.functions.items():
        context.functions[name] = function_work(facts, scope)
        if isinstance(scope.node, cst.FunctionDef):
            context.definitions[name] = scope.node
    context.flags |= cell_flags(facts)


def _syntax_error(text: str, exc: cst.ParserSyntaxError) -> tuple[str, tuple[int, int]]:
    """Python's own wording and place when it has one (clearer than the grammar's), else libcst's."""
    try:
        compile(text, "<cell>", "exec", flags=0x2000, dont_inherit=True)  # PyCF_ALLOW_TOP_LEVEL_AWAIT
    except SyntaxError as err:
        if err.lineno:
            return f"Syntax error: {err.msg}", (err.lineno, max((err.offset or 1) - 1, 0))
    except (ValueError, RecursionError, MemoryError):
        pass
    return f"Syntax error: {exc.message}", (exc.raw_line, exc.raw_column)


class _recursion_headroom:
    def __enter__(self) -> None:
        self.old = sys.getrecursionlimit()
        if self.old < _RECURSION_HEADROOM:
            sys.setrecursionlimit(_RECURSION_HEADROOM)

    def __exit__(self, *exc: object) -> None:
        sys.setrecursionlimit(self.old)
