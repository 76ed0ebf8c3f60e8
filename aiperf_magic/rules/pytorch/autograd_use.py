"""Whether code needs autograd: the precondition of AIP502's rewrite.

``torch.inference_mode()`` around code that computes gradients makes ``backward()`` and
``torch.autograd.grad`` fail ("element 0 of tensors does not require grad", or "inference tensors
cannot be saved for backward"). The rewrite applies only when none of this holds:

- the wrapped code (or a function of the notebook it calls, to a few levels) calls ``.backward()``,
  steps an optimizer, calls ``torch.autograd.grad`` or asks for gradients (``requires_grad_()``,
  ``requires_grad=True``);
- gradient code follows the loop in the same function or cell (a loss summed in a loop, then
  ``loss.backward()``);
- it is a module's ``forward`` (its callers may train through it);
- it is in a function whose result a caller, anywhere in the file or notebook, backpropagates
  (``val_loss = validate(...)`` then ``val_loss.backward()``, also through names computed from it).
"""

from __future__ import annotations

import libcst as cst

from ...cell.parsed import ParsedCell
from ...cell.tree import walk_all
from ..exprs import dotted_name, names_used
from ..facts import Facts
from ..work import definition

_STEPS = frozenset({"backward", "step"})
_GRAD_FUNCS = frozenset({"torch.autograd.grad", "torch.autograd.backward"})
_DEPTH = 3  # helpers called from helpers: how deep the search for gradient code goes


def needs_autograd(cell: ParsedCell, target: cst.CSTNode, facts: Facts) -> str | None:
    """Why ``target`` must keep autograd on, or None when ``inference_mode`` is safe around it."""
    func = next((a for a in cell.ancestors(target) if isinstance(a, cst.FunctionDef)), None)
    if func is not None and func.name.value == "forward":
        return "the loop is in a module's forward(): whoever calls the module may train through it"
    why = _grad_code(target, facts, _DEPTH, set())
    if why is not None:
        return why
    why = _grad_after(cell, target, facts)
    if why is not None:
        return why
    if func is not None:
        caller = backpropagated(facts, func.name.value)
        if caller is not None:
            return f"a caller backpropagates the result of {func.name.value}() ({caller}), so it needs autograd"
    return None


def _grad_after(cell: ParsedCell, target: cst.CSTNode, facts: Facts) -> str | None:
    """Gradient code after the loop in the same function (or, at top level, the cell): a char-RNN
    step sums the loss over characters in a loop, then calls ``loss.backward()`` after it."""
    stmt: cst.CSTNode = cell.statement(target)
    while True:
        for later in cell.following(stmt):
            why = _grad_code(later, facts, 1, set())
            if why is not None:
                return f"after the loop, {why}"
        parent = next((a for a in cell.ancestors(stmt) if isinstance(a, (cst.BaseCompoundStatement, cst.Module))), None)
        if parent is None or isinstance(parent, (cst.FunctionDef, cst.Module, cst.ClassDef)):
            return None
        stmt = parent


def _grad_code(node: cst.CSTNode, facts: Facts, depth: int, seen: set[str]) -> str | None:
    """Why the code under ``node`` computes gradients; a call that runs them (``backward``, an
    optimizer step, ``autograd.grad``) is named before one that only asks for them."""
    asks: str | None = None
    for n in walk_all(node):
        if not isinstance(n, cst.Call):
            continue
        func = n.func
        if isinstance(func, cst.Attribute) and func.attr.value in _STEPS:
            return f"the code calls .{func.attr.value}(), so it needs autograd"
        if _qname(facts, func) in _GRAD_FUNCS or dotted_name(func) in ("autograd.grad", "autograd.backward"):
            return "the code calls torch.autograd.grad, so it needs autograd"
        if isinstance(func, cst.Attribute) and func.attr.value == "requires_grad_":
            asks = asks or "the code asks for gradients (requires_grad_()), so it needs autograd"
        elif any(
            a.keyword is not None and a.keyword.value == "requires_grad"
            and not (isinstance(a.value, cst.Name) and a.value.value == "False")
            for a in n.args
        ):
            asks = asks or "the code creates tensors with requires_grad, so it needs autograd"
        if isinstance(func, cst.Name) and depth > 0 and func.value not in seen:
            seen.add(func.value)
            helper = definition(facts, func.value)
            if helper is not None:
                why = _grad_code(helper.body, facts, depth - 1, seen)
                if why is not None:
                    return f"{func.value}(), which it calls: {why}"
    return asks


def _qname(facts: Facts, func: cst.BaseExpression) -> str | None:
    try:
        return facts.names.qname(func) if dotted_name(func) else None
    except (KeyError, ValueError):
        return None


def backpropagated(facts: Facts, name: str) -> str | None:
    """Where a caller, in any cell, backpropagates what ``name(...)`` returned: ``loss.backward()`` on
    a name bound from its result (or computed from such a name), or ``torch.autograd.grad`` of it."""
    for cell in facts.cells():
        tainted: set[str] = set()
        for assign in cell.assigns:  # in source order: a name computed from a tainted one is tainted
            value = assign.value
            if value is None or not (_calls(value, name) or names_used(value) & tainted):
                continue
            for target in assign.targets:
                tainted |= {n.value for n in walk_all(target) if isinstance(n, cst.Name)}
        for call in cell.calls:
            node = call.node
            receiver = call.receiver
            if call.method == "backward" and receiver is not None and (
                _calls(receiver, name) or names_used(receiver) & tainted
            ):
                return "its result's .backward()"
            if call.qname in _GRAD_FUNCS and node.args:
                first = node.args[0].value
                if _calls(first, name) or names_used(first) & tainted:
                    return "torch.autograd.grad of its result"
    return None


def _calls(node: cst.CSTNode, name: str) -> bool:
    return any(
        isinstance(n, cst.Call) and isinstance(n.func, cst.Name) and n.func.value == name for n in walk_all(node)
    )
