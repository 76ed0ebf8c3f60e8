"""Shared by the torch rules: which loops train, on which device, and which code only infers.

Training is recognised by what it does, wherever it is written: a loop whose body (or a function
it calls, defined in the notebook) calls ``.backward()``, steps an optimizer or asks
``torch.autograd.grad``. Inference needs positive evidence: the model was put in ``eval()`` mode
above the loop, the code is an evaluation function (``evaluate``, ``validate``, ``predict``...), or
the loop walks a validation or test split. Code in a module's own methods and in unit tests is
neither: the caller decides.
"""

from __future__ import annotations

import re

import libcst as cst

from ..facts import Call, Facts, Loop, Scope
from ..models import in_module_method, in_test, is_model_call, model_of
from ..symbols import Symbol, live_symbol
from ..work import definition, is_move

__all__ = [
    "eval_loop",
    "helpers_called",
    "in_module_method",
    "in_test",
    "inference_call",
    "is_model_call",
    "models_trained",
    "on_gpu",
    "over_data",
    "training_loops",
    "trains",
]

EVAL_WORDS = ("eval", "predict", "infer", "valid", "test", "score", "inference")
# ``valid_loader``, ``test_dl``, ``val_data``, ``testloader``; not ``devices`` nor ``latest``.
_SPLIT = re.compile(
    r"(^|_)(val|valid|validation|test|testing|eval|evaluation|dev|holdout)(_|$|loader|dl|set|data|iter|ds)"
)
GRAD_USES = frozenset({"backward"})
AUTOGRAD = frozenset({"torch.autograd.grad", "torch.autograd.backward"})


def _trains_call(facts: Facts, call: Call) -> bool:
    return (
        call.method in GRAD_USES
        or call.qname in AUTOGRAD
        or (call.method == "step" and facts.kind(call.receiver) == "optimizer")
    )


def helpers_called(facts: Facts, loop: Loop) -> list[cst.FunctionDef]:
    """Functions of the notebook the loop calls by name at every step (a training step factored
    out); calls under ``if step % k == 0`` (saving, logging) are not every step."""
    out: list[cst.FunctionDef] = []
    for call in loop.calls:
        func = call.node.func
        if isinstance(func, cst.Name) and func.value not in loop.targets and not call.guarded:
            found = definition(facts, func.value)
            if found is not None and found not in out:
                out.append(found)
    return out


def _helper_trains(func: cst.FunctionDef) -> bool:
    """A training *step* function: it computes gradients and steps an optimizer, outside any loop
    of its own. A function with its own training loop (a whole epoch) is judged where that loop
    is, not at its callers; one that only computes gradients (to plot them) does not train."""
    attrs = {
        n.func.attr.value
        for n in _outside_loops(func.body)
        if isinstance(n, cst.Call) and isinstance(n.func, cst.Attribute)
    }
    return "step" in attrs and bool(attrs & {"backward", "grad"})


def _outside_loops(node: cst.CSTNode) -> list[cst.CSTNode]:
    from ...cell.tree import children

    out: list[cst.CSTNode] = []
    stack = [node]
    while stack:
        current = stack.pop()
        out.append(current)
        if isinstance(current, (cst.For, cst.While, cst.FunctionDef, cst.Lambda, cst.ClassDef)) and current is not node:
            continue
        stack.extend(children(current))
    return out


def trains(facts: Facts, loop: Loop) -> bool:
    """The loop's own body (inner loops included) or a helper it calls computes gradients."""
    if any(_trains_call(facts, c) for c in loop.calls):
        return True
    return any(_helper_trains(f) for f in helpers_called(facts, loop))


def training_loops(facts: Facts) -> list[Loop]:
    """Innermost loops that train, each once, in order."""
    found = [loop for loop in facts.loops if loop.kind != "comp" and trains(facts, loop)]
    return [loop for loop in found if not any(other.parent is loop for other in found)]


def on_gpu(facts: Facts, loop: Loop) -> bool:
    """The loop moves its data to a GPU, creates tensors there, or calls a model moved there."""
    for call in loop.calls:
        if is_move(call):
            return True
        device = call.kwarg("device")
        if device is not None and call.qname and call.qname.startswith("torch."):
            from ..exprs import looks_like_device

            if looks_like_device(device.value):
                return True
        sym = model_of(facts, call) if is_model_call(facts, call) else None
        if sym is not None and sym.gpu:
            return True
    return any(_helper_moves(f) for f in helpers_called(facts, loop))


def _helper_moves(func: cst.FunctionDef) -> bool:
    from ...cell.tree import walk_all
    from ..exprs import looks_like_device

    for n in walk_all(func.body):
        if isinstance(n, cst.Call) and isinstance(n.func, cst.Attribute):
            if n.func.attr.value == "cuda":
                return True
            if n.func.attr.value == "to" and n.args and looks_like_device(n.args[0].value):
                return True
    return False


def models_trained(facts: Facts, loop: Loop) -> list[Symbol]:
    """The models the loop calls, itself or in the step functions of this cell it calls."""
    helpers = {id(h) for h in helpers_called(facts, loop)}
    calls = [*loop.calls, *(c for c in facts.calls if id(c.scope.node) in helpers)]
    return [sym for c in calls if is_model_call(facts, c) for sym in [model_of(facts, c)] if sym is not None]


def _scope_trains(facts: Facts, scope: Scope) -> bool:
    return any(_trains_call(facts, c) for c in facts.calls if c.scope is scope)


def inference_call(facts: Facts, call: Call, grad_off: bool = False) -> bool:
    """A model call in code that only infers: in a loop with evidence of evaluation (or run with
    autograd off, ``grad_off``), and no gradient computed by that loop, its function, or a loop
    around it that consumes its results."""
    loop = call.loop
    if loop is None or in_module_method(call.scope) or in_test(call.scope) or not over_data(facts, loop):
        return False
    func = call.node.func
    if isinstance(func, cst.Name) and any(func.value in outer.targets for outer in loop.ancestors()):
        return False  # ``for block in blocks: x = block(x)``: a different module each step
    if trains(facts, loop) or (_scope_trains(facts, call.scope) and not eval_loop(facts, loop)):
        return False
    for outer in loop.ancestors():
        if outer is not loop and trains(facts, outer) and not (grad_off or eval_loop(facts, loop)):
            return False  # the inner loop of a training step: its outputs reach backward()
    return grad_off or eval_loop(facts, loop) or live_in_eval(facts, call)


def live_in_eval(facts: Facts, call: Call) -> bool:
    """Runtime evidence under ``%%aiperf``: the model the loop calls is a live module of the kernel
    switched to evaluation mode (``training`` is False), wherever ``.eval()`` was called."""
    func = call.node.func
    if not isinstance(func, cst.Name):
        return False
    sym = live_symbol(facts.names.live(func.value))
    return sym is not None and sym.kind == "model" and getattr(sym.obj, "training", None) is False


def over_data(facts: Facts, loop: Loop) -> bool:
    """The loop walks data (a loader, batches, a split), not a counter: ``for _ in range(n)`` and
    ``while`` loops generate one sequence or repeat one input, and their graph is freed each step."""
    if loop.kind == "while":
        return False
    it = loop.iter
    while isinstance(it, cst.Call) and facts.names.qname(it.func) in _WRAPPERS and it.args:
        it = it.args[0].value
    return not (isinstance(it, cst.Call) and facts.names.qname(it.func) in _COUNTERS)


_WRAPPERS = frozenset({"builtins.enumerate", "tqdm.tqdm", "tqdm.auto.tqdm", "tqdm.notebook.tqdm", "builtins.iter"})
_COUNTERS = frozenset({"builtins.range", "itertools.count", "itertools.repeat"})


def eval_loop(facts: Facts, loop: Loop) -> bool:
    """Evidence that a loop evaluates: ``model.eval()`` above it in its function, an evaluation
    function, or a loop over a validation/test split."""
    scope = loop.scope
    name = scope.name.lower()
    if scope.name != "<cell>" and not name.startswith("test_") and any(w in name for w in EVAL_WORDS):
        return True
    if _split_named(loop.iter):
        return True
    last_mode: str | None = None
    for c in facts.calls:
        above = c.scope is scope and c.order < loop.order and not _inside(c, loop)
        if above and c.method in ("eval", "train") and not c.node.args:
            last_mode = c.method
    return last_mode == "eval"


def _inside(call: Call, loop: Loop) -> bool:
    inner = call.loop
    while inner is not None:
        if inner is loop:
            return True
        inner = inner.parent
    return False


def _split_named(it: cst.BaseExpression | None) -> bool:
    from ..exprs import dotted_name

    while isinstance(it, cst.Call) and it.args:
        it = it.args[0].value
    if isinstance(it, cst.Subscript):
        key = it.slice[0].slice if it.slice else None
        if isinstance(key, cst.Index) and isinstance(key.value, cst.SimpleString):
            text = str(key.value.evaluated_value).lower()
            return "train" not in text and _SPLIT.search(text) is not None
        it = it.value
    leaf = ((dotted_name(it) or "") if it is not None else "").rsplit(".", 1)[-1].lower()
    return "train" not in leaf and _SPLIT.search(leaf) is not None
