"""What the rules know about a cell: calls, loops, scopes, bindings (gathered in one pass by
:mod:`.collector`).

Every fact knows its innermost loop, its enclosing function and the context managers around it,
so rules can ask "is this call in a loop over the loader, under ``no_grad``, in a function that
calls ``backward``?" without walking the tree again.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar, cast

import libcst as cst

from .names import Names
from .symbols import Symbol, live_symbol

if TYPE_CHECKING:
    from ..cell.parsed import ParsedCell

DEPRECATED_AMP = frozenset({"torch.cuda.amp.autocast", "torch.cuda.amp.GradScaler"})
# Methods that only a torch module answers this way: a name they are called on holds a model,
# whatever made it (a class imported from the project's own module, a loaded checkpoint).
MODEL_USES = frozenset({"parameters", "named_parameters", "modules", "named_modules", "children"})
# In-place module methods: ``model.to(device)`` alone on a line moves the model itself.
IN_PLACE_MODEL = frozenset({"to", "cuda", "half", "bfloat16", "eval", "train", "requires_grad_"})

T = TypeVar("T")
LoopNode = cst.For | cst.While | cst.ListComp | cst.SetComp | cst.DictComp | cst.GeneratorExp


@dataclass(eq=False)
class Scope:
    node: cst.Module | cst.FunctionDef
    name: str
    parent: Scope | None = None
    backward: bool = False  # ``.backward()`` is called somewhere in this function's own code
    no_grad: bool = False  # decorated with ``@torch.no_grad()`` / ``@torch.inference_mode()``
    cls: cst.ClassDef | None = None  # the class this function is a method of
    params: frozenset[str] = frozenset()  # its parameters: they hide names of the same spelling outside

    def binder(self, name: str) -> Scope | None:
        """The function (this one or one around it) that has ``name`` as a parameter."""
        scope: Scope | None = self
        while scope is not None:
            if name in scope.params:
                return scope
            scope = scope.parent
        return None


@dataclass(eq=False)
class Loop:
    node: LoopNode
    kind: str  # "for", "while" or "comp"
    scope: Scope
    parent: Loop | None
    targets: frozenset[str]
    iter: cst.BaseExpression | None
    withs: tuple[str, ...]
    calls: list[Call] = field(default_factory=list)  # every call lexically inside, nested loops too
    assigns: list[Assign] = field(default_factory=list)
    memberships: list[Membership] = field(default_factory=list)
    backward: bool = False
    order: int = 0  # when the collector met it: facts of one cell compare in source order
    iter_symbols: dict[str, Symbol] = field(default_factory=dict)  # names of ``iter`` as they were then

    def ancestors(self) -> Iterator[Loop]:
        loop: Loop | None = self
        while loop is not None:
            yield loop
            loop = loop.parent


@dataclass(eq=False)
class Call:
    node: cst.Call
    qname: str | None  # canonical name of the callee when it resolves (``torch.cat``)
    method: str | None  # the attribute called (``iterrows`` in ``df.iterrows()``)
    receiver: cst.BaseExpression | None  # ``df`` in ``df.iterrows()``
    loop: Loop | None
    scope: Scope
    withs: tuple[str, ...]
    guarded: bool  # under ``if step % k == 0`` (runs every k-th iteration only)
    callee: Symbol | None = None  # what the called name held at this point of the code (``model(x)``)
    order: int = 0  # when the collector met it (see Loop.order)

    def kwarg(self, name: str) -> cst.Arg | None:
        return next((a for a in self.node.args if a.keyword and a.keyword.value == name), None)

    def positional(self, index: int) -> cst.Arg | None:
        pos = [a for a in self.node.args if a.keyword is None and not a.star]
        return pos[index] if index < len(pos) else None

    @property
    def has_star_kwargs(self) -> bool:
        return any(a.star == "**" for a in self.node.args)


@dataclass(eq=False)
class Assign:
    node: cst.Assign | cst.AugAssign | cst.AnnAssign
    targets: Sequence[cst.BaseExpression]
    value: cst.BaseExpression | None
    loop: Loop | None
    scope: Scope


@dataclass(eq=False)
class Membership:
    node: cst.Comparison
    container: cst.BaseExpression
    loop: Loop | None


@dataclass
class Facts:
    module: cst.Module
    names: Names
    symbols: dict[str, Symbol]
    cell: ParsedCell | None = None  # the parse these facts came from (positions, parents, code)
    calls: list[Call] = field(default_factory=list)
    loops: list[Loop] = field(default_factory=list)
    assigns: list[Assign] = field(default_factory=list)
    classes: list[tuple[cst.ClassDef, list[str]]] = field(default_factory=list)  # with base qnames
    functions: dict[str, Scope] = field(default_factory=dict)
    deprecated: list[cst.CSTNode] = field(default_factory=list)  # AIP503 uses
    strings: set[str] = field(default_factory=set)  # short string literals ("cuda", "cuda:0")
    earlier_functions: dict[str, Any] = field(default_factory=dict)  # summaries from earlier cells
    earlier_flags: set[str] = field(default_factory=set)
    earlier_defs: dict[str, cst.FunctionDef] = field(default_factory=dict)
    model_names: set[str] = field(default_factory=set)  # names used as models (``m.parameters()``)
    notebook: list[Facts] = field(default_factory=list)  # every cell of the notebook, when linted whole

    def symbol(self, node: cst.BaseExpression | None) -> Symbol | None:
        """What a name (or ``self.attr``-free expression) is known to hold."""
        if isinstance(node, cst.Name):
            sym = self.symbols.get(node.value)
            if sym is not None:
                return sym
            sym = live_symbol(self.names.live(node.value))
            if sym is None and node.value in self.model_names and node.value not in self.functions:
                return Symbol("model", node)
            return sym
        return None

    def kind(self, node: cst.BaseExpression | None) -> str | None:
        sym = self.symbol(node)
        return sym.kind if sym else None

    def calls_in(self, scope: Scope) -> Iterator[Call]:
        return (c for c in self.calls if c.scope is scope)

    def cells(self) -> list[Facts]:
        """The facts of every cell of the notebook (this one alone outside a notebook)."""
        return self.notebook or [self]

    def whole(self, question: Callable[[list[Facts]], T]) -> T:
        """``question(self.cells())``, asked once per notebook and shared by all its cells (asking
        each cell anew would make a notebook's analysis quadratic in its length)."""
        cells = self.cells()
        if not isinstance(cells, Notebook):
            return question(cells)
        if question not in cells.answers:
            cells.answers[question] = question(cells)
        return cast(T, cells.answers[question])


class Notebook(list["Facts"]):
    """The facts of every cell of one notebook, with the answers :meth:`Facts.whole` computed."""

    def __init__(self, cells: Iterable[Facts] = ()) -> None:
        super().__init__(cells)
        self.answers: dict[Callable[..., Any], Any] = {}


# Calls that wrap an iterable without changing what a loop iterates over.
PROGRESS_WRAPPERS = ("builtins.enumerate", "tqdm.tqdm", "tqdm.auto.tqdm", "tqdm.notebook.tqdm")


def unwrap_iterable(
    facts: Facts, it: cst.BaseExpression | None, also: tuple[str, ...] = ()
) -> cst.BaseExpression | None:
    """``enumerate(tqdm(loader))`` -> ``loader``: strip progress bars, ``enumerate`` and ``also``."""
    wrappers = PROGRESS_WRAPPERS + also
    while isinstance(it, cst.Call) and it.args and facts.names.qname(it.func) in wrappers:
        it = it.args[0].value
    return it

