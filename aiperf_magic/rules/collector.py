"""The ``Collector``: one traversal of a cell that gathers its :class:`~.facts.Facts`.

Rules never walk the tree themselves (except to look inside a node a fact points at); they query
the facts gathered here in a single pass: calls, loops, scopes, bindings, in source order, each
knowing its innermost loop, its function and the context managers around it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import libcst as cst

from ..cell.tree import FastVisitor, children
from .facts import DEPRECATED_AMP, IN_PLACE_MODEL, MODEL_USES, Assign, Call, Facts, Loop, LoopNode, Membership, Scope
from .names import Names, dotted
from .symbols import Symbol, infer_symbol, model_method


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
