"""What one line of compiled code does, read from its bytecode once per code object: the names it
loads (``values``, ``self.arrays``), its operations (subscripts, arithmetic, ``in``, calls, the
attributes it reaches for: ``.iloc``, ``.append``) and the ``for`` loop it sits in, with what that
loop walks (``range(len(values))``, ``df.iterrows()``, a comprehension's iterator).

The sampler asks this about hot lines only; nothing here reads a live value (see :mod:`.linelook`).
Unknown bytecode (another Python version's) gives fewer facts, never an error.
"""

from __future__ import annotations

import dis
from dataclasses import dataclass, field
from types import CodeType

_LOADS = {"LOAD_FAST": "fast", "LOAD_FAST_CHECK": "fast", "LOAD_DEREF": "fast", "LOAD_CLOSURE": "fast",
          "LOAD_GLOBAL": "global", "LOAD_NAME": "name"}
_ATTRS = ("LOAD_ATTR", "LOAD_METHOD")
_SKIP = {"PRECALL", "PUSH_NULL", "CACHE", "KW_NAMES", "NOP", "EXTENDED_ARG", "COPY_FREE_VARS", "RESUME"}
_OPS = {"BINARY_SUBSCR": "subscript", "STORE_SUBSCR": "store subscript", "CONTAINS_OP": "in",
        "LIST_APPEND": "append", "CALL": "call", "CALL_FUNCTION_EX": "call", "FOR_ITER": "for",
        "YIELD_VALUE": "yield", "IMPORT_NAME": "import"}
_COMPREHENSIONS = ("<listcomp>", "<genexpr>", "<setcomp>", "<dictcomp>")


@dataclass(frozen=True)
class Ref:
    """A name the code loads, with the attributes it reads from it (``self.arrays``: ("arrays",))."""

    scope: str  # "fast" (a function's local), "global", "name" (module-level code)
    name: str
    attrs: tuple[str, ...] = ()

    @property
    def label(self) -> str:
        return ".".join((self.name, *self.attrs))


@dataclass(frozen=True)
class Walk:
    """What a ``for`` loop walks, as a shape the sampler can size from live values.

    ``how`` is "len" (``range(len(x))``), "iter" (``x`` itself, ``enumerate(x)``, ``x.keys()``: what
    iterating x walks, the columns of a frame), "rows" (``x.iterrows()``, ``x.itertuples()``),
    "columns" (``x.items()``), "range" (``range(a, b)`` with ``bounds``), "zip" (the shortest of
    ``refs``) or "iterator" (a comprehension's own iterator, the local ``.0``)."""

    how: str
    refs: tuple[Ref, ...] = ()
    bounds: tuple[Ref | int, ...] = ()
    text: str = ""  # the loop's iterable as written, rebuilt from the bytecode


@dataclass
class LineFacts:
    names: list[Ref] = field(default_factory=list)
    ops: list[str] = field(default_factory=list)
    loop_line: int | None = None  # the header line of the innermost loop holding this line
    walk: Walk | None = None


class CodeFacts:
    """The bytecode of one code object, indexed by line (built on first use)."""

    def __init__(self, code: CodeType) -> None:
        self.code = code
        self.instructions = [i for i in _instructions(code) if i.opname not in _SKIP]
        self._lines: dict[int, LineFacts] = {}

    def line(self, lineno: int) -> LineFacts:
        facts = self._lines.get(lineno)
        if facts is None:
            facts = self._lines[lineno] = self._build(lineno)
        return facts

    def _build(self, lineno: int) -> LineFacts:
        ins = self.instructions
        at = [k for k, i in enumerate(ins) if _line(i) == lineno]
        facts = LineFacts()
        if not at:
            return facts
        facts.names = _refs([ins[k] for k in at])
        for k in at:
            op = _op(ins[k])
            if op and op not in facts.ops:
                facts.ops.append(op)
        offsets = [ins[k].offset for k in at]
        loop = self._innermost_loop(min(offsets), max(offsets), lineno)
        if loop is not None:
            facts.loop_line = _line(ins[loop])
            facts.walk = self._walk(loop)
        return facts

    def _innermost_loop(self, first: int, last: int, lineno: int) -> int | None:
        best = None
        for k, i in enumerate(self.instructions):
            if i.opname != "FOR_ITER" or not isinstance(i.argval, int):
                continue
            holds = _line(i) == lineno or (i.offset < first and last < i.argval)
            if holds and (best is None or i.offset > self.instructions[best].offset):
                best = k
        return best

    def _walk(self, loop: int) -> Walk | None:
        ins = self.instructions
        header = _line(ins[loop])
        k = loop - 1
        if k >= 0 and ins[k].opname == "LOAD_FAST" and ins[k].argval == ".0":
            return Walk("iterator", (Ref("fast", ".0"),), text="the comprehension's iterable")
        if k < 0 or ins[k].opname != "GET_ITER":
            return None
        start = k
        while start > 0 and _line(ins[start - 1]) == header and ins[start - 1].opname not in ("FOR_ITER",
                                                                                             "MAKE_FUNCTION"):
            start -= 1
        return _shape(ins[start:k])


def code_facts(cache: dict[CodeType, CodeFacts], code: CodeType) -> CodeFacts:
    """The facts of ``code``, from ``cache`` (the run's), else from those kept for the last
    ``KEPT_CODES`` code objects: a cell run again compiles to an equal code object (same bytecode,
    names, constants and lines), whose facts are the same, and reading its bytecode again cost
    about 0.2 ms of the sampler's thread on its first hot line."""
    facts = cache.get(code)
    if facts is None:
        facts = _KEPT.pop(code, None) or CodeFacts(code)
        cache[code] = _KEPT[code] = facts  # the most recent last
        while len(_KEPT) > KEPT_CODES:
            _KEPT.pop(next(iter(_KEPT)))
    return facts


KEPT_CODES = 16
_KEPT: dict[CodeType, CodeFacts] = {}


def is_comprehension(code: CodeType) -> bool:
    return code.co_name in _COMPREHENSIONS


def _instructions(code: CodeType) -> list[dis.Instruction]:
    try:
        return list(dis.get_instructions(code))
    except Exception:  # bytecode this dis cannot read: no facts
        return []


def _line(ins: dis.Instruction) -> int | None:
    positions = getattr(ins, "positions", None)
    line = getattr(positions, "lineno", None)
    return line if line is not None else ins.starts_line


def _op(ins: dis.Instruction) -> str | None:
    if ins.opname in ("BINARY_OP", "COMPARE_OP"):
        return ins.argrepr or None
    if ins.opname in _ATTRS:
        return "." + str(ins.argval)
    return _OPS.get(ins.opname)


def _refs(ins: list[dis.Instruction]) -> list[Ref]:
    """Names loaded by these instructions, each with the attributes read right after it."""
    out: list[Ref] = []
    for k, i in enumerate(ins):
        scope = _LOADS.get(i.opname)
        if scope is None or not isinstance(i.argval, str) or i.argval.startswith("."):
            continue
        attrs = (str(ins[k + 1].argval),) if k + 1 < len(ins) and ins[k + 1].opname in _ATTRS else ()
        for ref in (Ref(scope, i.argval), Ref(scope, i.argval, attrs)) if attrs else (Ref(scope, i.argval),):
            if ref not in out:
                out.append(ref)
    return out


def _shape(ins: list[dis.Instruction]) -> Walk | None:
    """The iterable's shape from the instructions that build it, or None for shapes not sized."""
    toks: list[tuple[str, object]] = []
    k = 0
    while k < len(ins):
        i = ins[k]
        scope = _LOADS.get(i.opname)
        if scope is not None and isinstance(i.argval, str):
            attrs = []
            while k + 1 < len(ins) and ins[k + 1].opname in _ATTRS:
                attrs.append(str(ins[k + 1].argval))
                k += 1
            toks.append(("ref", Ref(scope, i.argval, tuple(attrs))))
        elif i.opname == "LOAD_CONST":
            toks.append(("const", i.argval))
        elif i.opname == "CALL":
            toks.append(("call", i.arg))
        else:
            return None
        k += 1
    return _match(toks)


def _match(toks: list[tuple[str, object]]) -> Walk | None:
    kinds = [t[0] for t in toks]
    refs = [t[1] for t in toks if t[0] == "ref"]
    head = refs[0] if refs else None
    call = isinstance(head, Ref) and not head.attrs and bool(kinds) and kinds[-1] == "call"
    if kinds == ["ref"] and isinstance(head, Ref):
        return Walk("iter", (head,), text=head.label)  # for x in values / for x in self.items
    if kinds == ["ref", "call"] and isinstance(head, Ref) and head.attrs:
        method = head.attrs[-1]
        owner = Ref(head.scope, head.name, head.attrs[:-1])
        if method in ("iterrows", "itertuples"):
            return Walk("rows", (owner,), text=f"{owner.label}.{method}()")
        if method in ("items", "keys", "values"):
            return Walk("columns" if method == "items" else "iter", (owner,), text=f"{owner.label}.{method}()")
        return None
    if not call or not isinstance(head, Ref):
        return None
    args = toks[1:-1]
    if head.name == "range" and [t[0] for t in args] == ["ref", "ref", "call"]:
        inner, target = args[0][1], args[1][1]
        if isinstance(inner, Ref) and inner.name == "len" and isinstance(target, Ref):
            return Walk("len", (target,), text=f"range(len({target.label}))")
    if head.name == "range" and 1 <= len(args) <= 3 and all(t[0] in ("ref", "const") for t in args):
        bounds = tuple(t[1] for t in args)
        if all(isinstance(b, (Ref, int)) for b in bounds):
            shown = ", ".join(b.label if isinstance(b, Ref) else f"{b:_}" for b in bounds)  # type: ignore[union-attr]
            return Walk("range", bounds=bounds, text=f"range({shown})")  # type: ignore[arg-type]
    if head.name == "enumerate" and len(args) == 1 and args[0][0] == "ref":
        target = args[0][1]
        assert isinstance(target, Ref)
        return Walk("iter", (target,), text=f"enumerate({target.label})")
    if head.name == "zip" and args and all(t[0] == "ref" for t in args):
        targets = tuple(t[1] for t in args if isinstance(t[1], Ref))
        return Walk("zip", targets, text="zip(" + ", ".join(t.label for t in targets) + ")")
    return None
