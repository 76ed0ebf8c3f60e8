"""AIP502 inference-with-autograd: the detector, its documentation and its fixer."""

from __future__ import annotations

from collections.abc import Iterator

import libcst as cst

from ...cell.parsed import COMPREHENSIONS, ParsedCell
from ...cell.tree import assigned_names, expect
from ...fixes.edits import Edits
from ..facts import Call, Facts, Loop, Scope
from ..registry import Hit, fixer_for, rule
from .autograd_use import needs_autograd
from .model_use import inference_call, is_model_call

_GRAD_OFF = frozenset({"torch.no_grad", "torch.inference_mode", "torch.set_grad_enabled"})


def grad_off(facts: Facts, call: Call) -> bool:
    if any(w in _GRAD_OFF for w in call.withs):
        return True
    scope: Scope | None = call.scope
    while scope is not None:
        if scope.no_grad:
            return True
        scope = scope.parent
    return any(
        c.qname in ("torch.set_grad_enabled", "torch.inference_mode")
        and c.scope is call.scope
        and not c.withs
        and c.node.args
        and isinstance(c.node.args[0].value, cst.Name)
        and c.node.args[0].value.value == "False"
        for c in facts.calls
    )


@rule(
    "AIP502",
    "inference-with-autograd",
    "Model run for inference with autograd on: it records a graph nobody uses; wrap it in `torch.inference_mode()`",
)
def inference_with_autograd(facts: Facts) -> Iterator[Hit]:
    """
    ## What it does
    Flags a loop that runs a model for evaluation or inference — after `model.eval()` in the
    same function, inside an evaluation function (`evaluate`, `validate`, `predict`...), over
    a validation or test split, or (under `%%aiperf`, which sees the kernel) a model that is in
    evaluation mode when the cell ends, wherever `.eval()` was called — when it walks data (a
    loader, batches; not a counter such as `range(max_len)`, whose steps generate one sequence
    and free their graph each time), nothing in it computes gradients and it is not under
    `torch.no_grad()` / `torch.inference_mode()`. Not flagged: training code (a loop or function
    that calls `.backward()`, steps an optimizer or uses `torch.autograd.grad`, also through a
    helper it calls, and the inner loops of a training step), a module's own `forward`, unit
    tests, and single calls outside loops (their graph is freed with the output).

    ## Why is this bad?
    With autograd on, every operation saves its inputs for a backward pass that never comes:
    more memory held (activations of every layer stay alive until the output is dropped) and
    extra bookkeeping per operation. Keeping 20 outputs of a 6-layer MLP (batch 256) held
    128 MiB with autograd on and 21 MiB under `inference_mode`; on the CPU the time was the same
    within noise (233 ms vs 226 ms, `benchmarks/traps/AIP502.py`), so this is first a memory
    trap. Note that `model.eval()` does not turn autograd
    off; it only changes dropout and batch-norm behaviour.

    ## Example
    ```python
    model.eval()
    for x in batches:
        preds.append(model(x).argmax(1))
    ```

    ## Use instead
    ```python
    model.eval()
    with torch.inference_mode():
        for x in batches:
            preds.append(model(x).argmax(1))
    ```

    ## Fix safety
    Safe when the outputs are only read (metrics, predictions). Unsafe when code later calls
    `.backward()` through them or needs `requires_grad` tensors: `torch.no_grad()` is then
    the right tool, or no change at all.

    ## References
    - Seed article, chapter 4.2 ("when to turn off grad") and 4.1.
    - PyTorch: "Autograd mechanics — inference mode".
    """
    seen: set[int] = set()
    for call in facts.calls:
        if not is_model_call(facts, call) or grad_off(facts, call) or not inference_call(facts, call):
            continue
        loop: Loop | None = call.loop
        if loop is not None and id(loop.node) not in seen:
            seen.add(id(loop.node))
            yield loop.node


@fixer_for("AIP502", "Run inference without autograd")
def fix_inference(cell: ParsedCell, node: cst.CSTNode, facts: Facts) -> Edits | str:
    node = expect(node, (cst.For, cst.While, cst.Call, *COMPREHENSIONS))
    if node is None:
        return "the finding is not on a loop, a comprehension or a model call"
    # a comprehension ([model(b) for b in batches]) or a call runs inside its statement: wrap that
    target = node if isinstance(node, (cst.For, cst.While)) else cell.statement(node)
    why = needs_autograd(cell, target, facts) or kept_graph(target, facts)
    if why is not None:  # training code needs the graph: inference_mode would make backward() fail
        return why
    edits = Edits("Wrap the inference in torch.inference_mode()", safety="unsafe")
    edits.wrap[target] = f"{edits.need(cell, 'torch')}.inference_mode()"
    return edits


MAX_ITEMS = 100  # items of a kept list or dict looked at for a tensor with a graph


def kept_graph(target: cst.CSTNode, facts: Facts) -> str | None:
    """Why not, when the run shows a name the wrapped code binds or fills still holding a tensor with
    its autograd graph after the cell (``requires_grad=True``): under ``inference_mode`` it would be
    a tensor without one, and a later cell's ``backward()`` through it would fail. Without a run
    (``lint``) nothing is known, and Try shows it."""
    namespace = facts.names.namespace  # after the run: what the cell left
    if namespace is None:
        return None
    for name in sorted(assigned_names(target)):
        value = namespace.get(name)
        if value is not None and _graph_in(value):
            return (f"after the run {name} holds a tensor with its autograd graph (requires_grad=True), which "
                    f"inference_mode would drop; keep {name}.detach() (or the numbers you need) if no later cell "
                    "backpropagates through it, then wrap the loop")
    return None


def _graph_in(value: object) -> bool:
    items = list(value.values())[:MAX_ITEMS] if isinstance(value, dict) else (
        list(value[:MAX_ITEMS]) if isinstance(value, (list, tuple)) else [value])
    return any(getattr(v, "requires_grad", False) is True and type(v).__module__.startswith("torch") for v in items)
