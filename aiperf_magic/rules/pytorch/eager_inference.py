"""AIP506 eager-repeated-inference: the detector, its documentation and its fixer."""

from __future__ import annotations

import builtins
from collections.abc import Iterator
from typing import Any

import libcst as cst

from ...cell.parsed import COMPREHENSIONS, ParsedCell
from ...cell.tree import contains, expect, names_in, walk_all
from ...fixes.edits import Edits
from ..facts import Facts, Loop
from ..loops import few_iterations
from ..registry import Hit, fixer_for, rule
from ..work import notebook_flags
from .inference_grad import grad_off
from .model_use import inference_call, is_model_call, model_of

_CLOCKS = frozenset({"time.time", "time.perf_counter", "time.monotonic", "time.process_time", "timeit.default_timer"})


@rule(
    "AIP506",
    "eager-repeated-inference",
    "Model called many times in eager mode: compile it once (`torch.compile`, TorchScript, ONNX)",
)
def eager_repeated_inference(facts: Facts) -> Iterator[Hit]:
    """
    ## What it does
    Flags a loop that runs a model for inference (under `torch.no_grad()`/`inference_mode()`,
    after `model.eval()`, in an evaluation function or over a test split; nothing computes
    gradients) when the notebook never compiles or exports it: no `torch.compile`,
    `torch.jit.trace`, `torch.jit.script` or `torch.onnx.export`. Inside `%%aiperf`, each call's
    measured time is set against Python's dispatch of the model's layers (about 10 µs a layer on
    a CPU): a model whose arithmetic is most of each call (a wide MLP on batches of 100) is not
    shown, and a loop of many small calls is reported even when nothing marks it as inference.
    Not flagged: a model that is
    already an `OptimizedModule` or a `ScriptModule` in the namespace, validation in a notebook
    that trains (it calls `.backward()`, in any cell), a loop of a few iterations (a short
    literal, `range(8)` or less, a loop that stops at its first `break`), a loop that reads a
    clock (a benchmark of eager execution), a different module each iteration, a module's own
    `forward`, and autoregressive generation (the input grows every step: a compiled model
    would recompile for each new shape).

    ## Why is this bad?
    Eager PyTorch dispatches every operation from Python and runs each as its own kernel.
    Compiling captures the graph once, fuses element-wise operations and removes the Python
    overhead per call, which dominates for small batches. 200 single-sample calls of an
    8-block MLP on one CPU thread took 131 ms eagerly and 67 ms traced and frozen: 2.0x
    (`benchmarks/traps/AIP506.py`).

    ## Example
    ```python
    model.eval()
    with torch.inference_mode():
        for x in requests_batches:
            out.append(model(x))
    ```

    ## Use instead
    ```python
    model.eval()
    fast = torch.compile(model)   # or torch.jit.trace(model, example)
    with torch.inference_mode():
        for x in requests_batches:
            out.append(fast(x))
    ```

    ## Fix safety
    Unsafe: compilation takes seconds to minutes on the first call and recompiles on new input
    shapes; traced models freeze Python control flow. Numerics may differ in the last bits.
    Worth it only when the loop runs long enough to repay the compile time.

    ## References
    - Seed article, chapter 4.4 ("inference without jit.trace or ONNX acceleration").
    - PyTorch: `torch.compile` tutorial; `torch.jit.trace`; `torch.onnx.export`.
    """
    flags = facts.whole(notebook_flags)
    if "compile" in flags or "train" in flags:  # a training notebook: compile advice is for training
        return
    seen: set[int] = set()
    for call in facts.calls:
        loop = call.loop
        if loop is None or id(loop.node) in seen or not is_model_call(facts, call):
            continue
        sym = model_of(facts, call)
        if sym is None or sym.kind != "model" or not inference_call(facts, call, grad_off(facts, call)):
            continue
        if few_iterations(facts, loop) or timed(facts, loop) or _grows_input(facts, loop):
            continue
        seen.add(id(loop.node))
        yield loop.node


def _grows_input(facts: Facts, loop: Loop) -> bool:
    """Autoregressive generation (``idx = torch.cat((idx, next_token), dim=1)``): the input grows
    every step, so a compiled model would recompile for each new shape."""
    for assign in loop.assigns:
        value = assign.value
        if isinstance(value, cst.Call) and (facts.names.qname(value.func) or "").rsplit(".", 1)[-1] in _JOINS:
            first = value.args[0].value if value.args else None
            names = {t.value for t in assign.targets if isinstance(t, cst.Name)}
            if isinstance(first, (cst.List, cst.Tuple)) and any(
                isinstance(e.value, cst.Name) and e.value.value in names for e in first.elements
            ):
                return True
    return False


_JOINS = frozenset({"cat", "concat", "concatenate", "hstack", "column_stack"})


_RECOMPILES = "compiled, it would recompile for each new shape"


def growing_input(facts: Facts, node: cst.CSTNode, model: str) -> str | None:
    """Why the model's input changes shape from one step to the next (token generation), or None:
    a compiled model recompiles for every new shape, so compiling makes such a loop slower."""
    loop = next((lp for lp in facts.loops if lp.node is node), None)
    if loop is None:
        return None
    if _grows_input(facts, loop):
        return f"the model's input grows every step (it is concatenated to itself): {_RECOMPILES}"
    grown = {
        c.receiver.value for c in loop.calls if c.method in ("append", "extend") and isinstance(c.receiver, cst.Name)
    }
    for assign in loop.assigns:  # seq = seq + [tok] / seq += [tok]
        value = assign.value
        if isinstance(value, (cst.List, cst.BinaryOperation)) and value is not None:
            for t in assign.targets:
                if isinstance(t, cst.Name) and (isinstance(assign.node, cst.AugAssign) or t.value in names_in(value)):
                    grown.add(t.value)
    if not grown:
        return None
    fed = set(grown)
    for assign in loop.assigns:  # ids = torch.tensor([tokens]): built from a growing list
        if assign.value is not None and names_in(assign.value) & fed:
            fed |= {t.value for t in assign.targets if isinstance(t, cst.Name)}
    for call in loop.calls:
        func = call.node.func
        if isinstance(func, cst.Name) and func.value == model and any(names_in(a.value) & fed for a in call.node.args):
            return f"the model's input is built from a list that grows every step: {_RECOMPILES}"
    return None


def timed(facts: Facts, loop: Loop) -> bool:
    """The loop reads a clock: it measures eager execution (compiling would defeat it)."""
    if any(c.qname in _CLOCKS for c in loop.calls):
        return True
    return any(c.qname in _CLOCKS and c.scope is loop.scope and abs(c.order - loop.order) <= 2 for c in facts.calls)


@fixer_for("AIP506", "Compile the model")
def fix_compile(cell: ParsedCell, node: cst.CSTNode, facts: Facts) -> Edits | str:
    loop: Any = expect(node, (cst.For, cst.While))
    if loop is None:
        if isinstance(node, COMPREHENSIONS):
            return "the calls are in a comprehension; write it as a for loop to compile the model before it"
        return "the finding is not on a loop"
    local_defs = {n.name.value for n in cell.nodes((cst.FunctionDef, cst.ClassDef))}  # type: ignore[attr-defined]
    candidates = [
        n
        for n in walk_all(loop.body)
        if isinstance(n, cst.Call)
        and isinstance(n.func, cst.Name)  # type: ignore[attr-defined]
        and not hasattr(builtins, n.func.value)
        and n.func.value not in local_defs
    ]
    if not candidates:
        return "no model call (model(x)) found in the loop"
    preferred = [c for c in candidates if any(w in c.func.value.lower() for w in ("model", "net", "encoder"))]  # type: ignore[attr-defined]
    model = (preferred or candidates)[0].func.value  # type: ignore[attr-defined]
    if model in names_in(loop.target) if isinstance(loop, cst.For) else False:
        return "the called name changes every iteration"
    grows = growing_input(facts, loop, model)
    if grows is not None:
        return grows
    if contains(loop, cst.Call) and any(
        isinstance(n, cst.Call) and isinstance(n.func, cst.Attribute) and n.func.attr.value == "backward"
        for n in walk_all(loop)
    ):
        return "the loop trains the model; compile it where the training is set up"
    edits = Edits("Compile the model once with torch.compile (first call is slow)", safety="unsafe")
    # the first call compiles for tens of seconds: a short loop is slower compiled
    edits.measure_first = "compiling pays only when the loop runs longer than the compilation (tens of seconds)"
    compiled = cell.fresh(f"{model}_compiled")
    # a new name, not model = torch.compile(model): the user's model keeps its state_dict keys
    edits.before[loop] = [f"{compiled} = {edits.need(cell, 'torch')}.compile({model})\n"]
    for n in walk_all(loop.body):  # type: ignore[attr-defined]
        if isinstance(n, cst.Call) and isinstance(n.func, cst.Name) and n.func.value == model:
            edits.replace[n.func] = cst.Name(compiled)
    return edits
