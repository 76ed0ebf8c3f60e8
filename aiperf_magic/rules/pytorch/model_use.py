"""Shared by the torch rules."""

from __future__ import annotations

import libcst as cst

from ..facts import Call, Facts, Loop
from ..work import is_move


def is_model_call(facts: Facts, call: Call) -> bool:
    func = call.node.func
    if isinstance(func, cst.Name):
        return facts.kind(func) in ("model", "compiled_model")
    # ``generate`` is left out: Hugging Face runs it under ``no_grad`` already.
    return call.method == "forward" and facts.kind(call.receiver) in ("model", "compiled_model")


def _training(facts: Facts, call: Call) -> bool:
    """Gradients are used where the call runs: its loop (or, outside loops, its function) calls
    ``.backward()`` or steps an optimizer."""
    loop = call.loop
    if loop is not None:
        return loop.backward or any(c.method == "step" and facts.kind(c.receiver) == "optimizer" for c in loop.calls)
    if call.scope.backward:
        return True
    return any(
        c.scope is call.scope and c.method == "step" and facts.kind(c.receiver) == "optimizer" for c in facts.calls
    )


def training_loops(facts: Facts) -> list[Loop]:
    """Innermost loops that call ``.backward()``, each once, in order."""
    out: list[Loop] = []
    for call in facts.calls:
        if call.method == "backward" and call.loop is not None and call.loop not in out:
            out.append(call.loop)
    return out


def on_gpu(facts: Facts, loop: Loop) -> bool:
    """The loop moves its data to a GPU, or calls a model that was moved there."""
    for call in loop.calls:
        if is_move(call):
            return True
        if isinstance(call.node.func, cst.Name):
            sym = facts.symbol(call.node.func)
            if sym is not None and sym.kind == "model" and sym.gpu:
                return True
    return False
