"""One traversal of a cell that records what the rules need: calls, loops, scopes, bindings.

Rules never walk the tree themselves (except to look inside a node a fact points at); they query
the facts gathered here in a single pass. Every fact knows its innermost loop, its enclosing
function and the context managers around it, so rules can ask "is this call in a loop over the
loader, under ``no_grad``, in a function that calls ``backward``?" without walking again.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import libcst as cst

from ..cell.tree import FastVisitor, children
from .names import Names, dotted
from .symbols import Symbol, infer_symbol, live_symbol, model_method

if TYPE_CHECKING:
    from ..cell.parsed import ParsedCell

DEPRECATED_AMP = frozenset({"torch.cuda.amp.autocast", "torch.cuda.amp.GradScaler"})
# Methods that only a torch module answers this way: a name they are called on holds a model,
# whatever made it (a class imported from the project's own module, a loaded checkpoint).
MODEL_USES = frozenset({"parameters", "named_parameters", "modules", "named_modules", "children"})
# In-place module methods: ``model.to(device)`` alone on a line moves the model itself.
IN_PLACE_MODEL = frozenset({"to", "cuda", "half", "bfloat16", "eval", "train", "requires_grad_"})

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


def _names_in(node: cst.CSTNode) -> frozenset[str]:
    """Names bound by a loop target (``i``, ``(x, y)``, ``(i, (a, b))``)."""
    if isinstance(node, cst.Name):
        return frozenset({node.value})
    if isinstance(node, (cst.Tuple, cst.List)):
        out: set[str] = set()
        for el in node.elements:
            out |= _names_in(el.value)
        return frozenset(out)
    return frozenset()


def _iter_names(node: cst.CSTNode) -> set[str]:
    """Plain names read by a loop's iterable (``xs``, ``zip(a, b)``, ``range(len(df))``)."""
    if isinstance(node, cst.Name):
        return {node.value}
    if isinstance(node, cst.Call):
        out: set[str] = set()
        for arg in node.args:
            out |= _iter_names(arg.value)
        return out
    return set()


def _has_modulo(node: cst.CSTNode) -> bool:
    if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, cst.Modulo):
        return True
    return any(_has_modulo(child) for child in children(node))


class Collector(FastVisitor):
    """Gathers :class:`Facts` in one pass over the module."""

    def __init__(self, module: cst.Module, names: Names, symbols: dict[str, Symbol]) -> None:
        self.facts = Facts(module=module, names=names, symbols=symbols)
        self.scope = Scope(node=module, name="<cell>")
        self.loops: list[Loop] = []
        self.withs: list[str] = []
        self.guards = 0
        self.classes: list[cst.ClassDef] = []
        self.ticks = 0

    def _tick(self) -> int:
        self.ticks += 1
        return self.ticks

    # --- scopes -----------------------------------------------------------------------------
    def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
        for dec in node.decorators:
            self.walk(dec)
        deco = [self._callee_name(d.decorator) for d in node.decorators]
        scope = Scope(node=node, name=node.name.value, parent=self.scope)
        scope.no_grad = any(q in ("torch.no_grad", "torch.inference_mode") for q in deco)
        if self.classes and node in self.classes[-1].body.body:
            scope.cls = self.classes[-1]
        p = node.params
        every = [*p.posonly_params, *p.params, *p.kwonly_params]
        every += [a for a in (p.star_arg, p.star_kwarg) if isinstance(a, cst.Param)]
        scope.params = frozenset(a.name.value for a in every)
        self.facts.functions[node.name.value] = scope
        self.facts.symbols[node.name.value] = Symbol("function", node)
        outer = (self.scope, self.loops, self.withs, self.guards)
        self.scope, self.loops, self.withs, self.guards = scope, [], [], 0
        self.walk(node.body)
        self.scope, self.loops, self.withs, self.guards = outer
        return False

    def visit_ClassDef(self, node: cst.ClassDef) -> bool:
        bases = [self.facts.names.qname(b.value) or "" for b in node.bases]
        self.facts.classes.append((node, bases))
        self.facts.symbols[node.name.value] = Symbol("class", node, bases=tuple(bases))
        for dec in node.decorators:
            self.walk(dec)
        self.classes.append(node)
        self.walk(node.body)
        self.classes.pop()
        return False

    # --- loops ------------------------------------------------------------------------------
    def _push(self, node: LoopNode, kind: str, targets: frozenset[str], it: Any) -> Loop:
        loop = Loop(node, kind, self.scope, self.loops[-1] if self.loops else None, targets, it, tuple(self.withs))
        loop.order = self._tick()
        if it is not None:
            for name in _iter_names(it):
                if self.scope.binder(name) is not None:
                    continue  # a parameter: whatever the caller passes, not the global of that name
                sym = self.facts.symbol(cst.Name(name))
                if sym is not None:
                    loop.iter_symbols[name] = sym
        self.loops.append(loop)
        self.facts.loops.append(loop)
        return loop

    def visit_For(self, node: cst.For) -> bool:
        self.walk(node.target)
        self.walk(node.iter)
        self._push(node, "for", _names_in(node.target), node.iter)
        self.walk(node.body)
        self.loops.pop()
        if node.orelse is not None:
            self.walk(node.orelse)
        return False

    def visit_While(self, node: cst.While) -> bool:
        self._push(node, "while", frozenset(), None)
        return True

    def leave_While(self, original_node: cst.While) -> None:
        self.loops.pop()

    def _visit_comp(self, node: cst.ListComp | cst.SetComp | cst.DictComp | cst.GeneratorExp) -> bool:
        targets: set[str] = set()
        comp: cst.CompFor | None = node.for_in
        while comp is not None:
            targets |= _names_in(comp.target)
            comp = comp.inner_for_in
        self.walk(node.for_in.iter)  # the first iterable is evaluated once, outside the loop
        self._push(node, "comp", frozenset(targets), node.for_in.iter)
        if isinstance(node, cst.DictComp):
            self.walk(node.key)
            self.walk(node.value)
        else:
            self.walk(node.elt)
        comp = node.for_in
        first = True
        while comp is not None:
            if not first:
                self.walk(comp.iter)
            for cond in comp.ifs:
                self.walk(cond)
            first = False
            comp = comp.inner_for_in
        self.loops.pop()
        return False

    visit_ListComp = _visit_comp
    visit_SetComp = _visit_comp
    visit_DictComp = _visit_comp
    visit_GeneratorExp = _visit_comp

    # --- context ----------------------------------------------------------------------------
    def visit_With(self, node: cst.With) -> bool:
        pushed = 0
        for item in node.items:
            self.walk(item)
            self.withs.append(self._callee_name(item.item) or "")
            pushed += 1
            if item.asname is not None and isinstance(item.asname.name, cst.Name):
                sym = infer_symbol(item.item, self.facts)
                if sym is not None:
                    self.facts.symbols[item.asname.name.value] = sym
        self.walk(node.body)
        del self.withs[len(self.withs) - pushed :]
        return False

    def visit_If(self, node: cst.If) -> bool:
        self.walk(node.test)
        guard = _has_modulo(node.test)
        self.guards += guard
        self.walk(node.body)
        self.guards -= guard
        if node.orelse is not None:
            self.walk(node.orelse)
        return False

    def _callee_name(self, node: cst.BaseExpression) -> str | None:
        return self.facts.names.qname(node.func if isinstance(node, cst.Call) else node)

    # --- imports ----------------------------------------------------------------------------
    def visit_Import(self, node: cst.Import) -> bool:
        self.facts.names.bind_import(node)
        return False

    def visit_ImportFrom(self, node: cst.ImportFrom) -> bool:
        for alias, full in self.facts.names.bind_import(node):
            if full in DEPRECATED_AMP:
                self.facts.deprecated.append(alias)
        return False

    def visit_Attribute(self, node: cst.Attribute) -> bool:
        if node.attr.value in ("autocast", "GradScaler") and self.facts.names.qname(node) in DEPRECATED_AMP:
            self.facts.deprecated.append(node)
        return True

    # --- statements and expressions -----------------------------------------------------------
    def visit_Call(self, node: cst.Call) -> bool:
        func = node.func
        method = func.attr.value if isinstance(func, cst.Attribute) else None
        receiver = func.value if isinstance(func, cst.Attribute) else None
        qname = self.facts.names.qname(func) if dotted(func) else None
        loop = self.loops[-1] if self.loops else None
        callee = None
        if isinstance(func, cst.Name):
            # a parameter holds whatever the caller passes: not the global of the same name
            binder = self.scope.binder(func.value)
            callee = Symbol("param", binder.node) if binder is not None else self.facts.symbol(func)
        call = Call(node, qname, method, receiver, loop, self.scope, tuple(self.withs), self.guards > 0, callee)
        call.order = self._tick()
        self.facts.calls.append(call)
        if isinstance(receiver, cst.Name) and _used_as_model(method, node, self.facts.kind(receiver)):
            self.facts.model_names.add(receiver.value)
        for outer in self.loops:
            outer.calls.append(call)
        if method == "backward":
            self.scope.backward = True
            for outer in self.loops:
                outer.backward = True
        return True

    def _record_assign(self, node: Any, targets: Sequence[cst.BaseExpression], value: Any) -> None:
        loop = self.loops[-1] if self.loops else None
        assign = Assign(node, targets, value, loop, self.scope)
        self.facts.assigns.append(assign)
        for outer in self.loops:
            outer.assigns.append(assign)

    def visit_Assign(self, node: cst.Assign) -> bool:
        targets = [t.target for t in node.targets]
        self._record_assign(node, targets, node.value)
        self.walk(node.value)  # the value is computed before the names are bound
        sym = infer_symbol(node.value, self.facts)
        for target in targets:
            if isinstance(target, cst.Name):
                if sym is not None:
                    self.facts.symbols[target.value] = sym
                elif target.value in self.facts.symbols and not self.loops:
                    # rebound to something unknown at top level: forget what it was
                    del self.facts.symbols[target.value]
        for target in targets:
            self.walk(target)
        return False

    def visit_AnnAssign(self, node: cst.AnnAssign) -> bool:
        self._record_assign(node, [node.target], node.value)
        if isinstance(node.target, cst.Name) and node.value is not None:
            sym = infer_symbol(node.value, self.facts)
            if sym is not None:
                self.facts.symbols[node.target.value] = sym
        return True

    def visit_Expr(self, node: cst.Expr) -> bool:
        """``model.to(device)`` / ``model.half()`` alone on a line: the module changed in place."""
        call = node.value
        if (
            isinstance(call, cst.Call)
            and isinstance(call.func, cst.Attribute)
            and isinstance(call.func.value, cst.Name)
            and call.func.attr.value in IN_PLACE_MODEL
        ):
            before = self.facts.symbol(call.func.value)
            batch = any(call.func.value.value in loop.targets for loop in self.loops)  # ``batch.to(dev)``
            if (before is None and not batch) or (before is not None and before.kind == "model"):
                base = before if before is not None else Symbol("model", call)
                self.facts.symbols[call.func.value.value] = model_method(base, call.func.attr.value, call)
        return True

    def visit_AugAssign(self, node: cst.AugAssign) -> bool:
        self._record_assign(node, [node.target], node.value)
        return True

    def visit_Comparison(self, node: cst.Comparison) -> bool:
        if self.loops:
            for target in node.comparisons:
                if isinstance(target.operator, (cst.In, cst.NotIn)):
                    member = Membership(node, target.comparator, self.loops[-1])
                    for outer in self.loops:
                        outer.memberships.append(member)
        return True

    def visit_SimpleString(self, node: cst.SimpleString) -> bool:
        if len(node.value) < 16:
            self.facts.strings.add(node.value.strip("'\"bruBRU"))
        return False


def _used_as_model(method: str | None, call: cst.Call, kind: str | None) -> bool:
    """``x.parameters()``, ``x.eval()``, ``x.train()``: only a module is used this way."""
    if kind is not None and kind != "model":
        return False  # a frame's ``eval("a + b")``, an optimizer: their kind is known already
    if method in MODEL_USES:
        return True
    return method in ("eval", "train") and not call.args


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
