"""AIP501, AIP502, AIP506: tensors made on the wrong device, autograd and eager mode in inference."""

from __future__ import annotations

from collections.abc import Iterator

import libcst as cst

from ..facts import Call, Facts, Loop, Scope
from ..registry import Hit, rule
from ..symbols import TORCH_FACTORIES
from ..work import cell_flags, is_move

_GRAD_OFF = frozenset({"torch.no_grad", "torch.inference_mode", "torch.set_grad_enabled"})
_EVAL_WORDS = ("eval", "predict", "infer", "valid", "test", "score")


def _moved(facts: Facts, factory: Call) -> bool:
    """The tensor a factory makes is moved to a device in the same loop body."""
    loop = factory.loop
    assert loop is not None
    names = {t.value for a in loop.assigns if a.value is factory.node for t in a.targets if isinstance(t, cst.Name)}
    for call in loop.calls:
        if not is_move(call):
            continue
        if call.receiver is factory.node:
            return True
        if isinstance(call.receiver, cst.Name) and call.receiver.value in names:
            return True
    return False


@rule(
    "AIP501",
    "tensor-created-then-moved",
    "Tensor created on the CPU, then copied to the GPU, every iteration: create it there with `device=`",
    fixable=True,
)
def tensor_created_then_moved(facts: Facts) -> Iterator[Hit]:
    """
    ## What it does
    Flags `torch.randn(...)`, `torch.zeros(...)`, `torch.tensor(...)` and other factories
    called without `device=` inside a loop, whose result is then moved with `.cuda()` or
    `.to(device)`.

    ## Why is this bad?
    The tensor is allocated and filled by the CPU, then copied over PCIe (a synchronising copy
    from pageable memory), every iteration; created with `device=`, it is allocated and filled
    by the GPU with no transfer at all.
    `benchmarks/traps/AIP501.py` measures it on a CUDA GPU; the machine these docs were measured on
    has none, so no number is quoted yet (run the script on yours).

    ## Example
    ```python
    for _ in range(100):
        x = torch.randn(64, 1000).cuda()
        y = model(x)
    ```

    ## Use instead
    ```python
    for _ in range(100):
        x = torch.randn(64, 1000, device="cuda")
        y = model(x)
    ```

    ## Fix safety
    Safe for shape-and-value factories (`zeros`, `ones`, `full`, `arange`, `eye`, `tensor`).
    Unsafe for random factories: the GPU's generator produces different numbers than the CPU's
    for the same seed.

    ## References
    - Seed article, chapter 4.1 ("wrong tensor types and device transfers").
    - PyTorch: "Tensor creation ops" (`device` argument); CUDA semantics, "Best practices".
    """
    for call in facts.calls:
        if (
            call.loop is not None
            and call.qname in TORCH_FACTORIES
            and call.kwarg("device") is None
            and _moved(facts, call)
        ):
            yield call.node


def is_model_call(facts: Facts, call: Call) -> bool:
    func = call.node.func
    if isinstance(func, cst.Name):
        return facts.kind(func) in ("model", "compiled_model")
    # ``generate`` is left out: Hugging Face runs it under ``no_grad`` already.
    return call.method == "forward" and facts.kind(call.receiver) in ("model", "compiled_model")


def _grad_off(facts: Facts, call: Call) -> bool:
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


def _eval_signal(facts: Facts, call: Call) -> bool:
    if any(w in call.scope.name.lower() for w in _EVAL_WORDS):
        return True
    return any(c.method == "eval" and not c.node.args for c in facts.calls)


@rule(
    "AIP502",
    "inference-with-autograd",
    "Model run for inference with autograd on: it records a graph nobody uses; wrap it in `torch.inference_mode()`",
    fixable=True,
)
def inference_with_autograd(facts: Facts) -> Iterator[Hit]:
    """
    ## What it does
    Flags model calls in evaluation or inference code — called in a loop, or after
    `model.eval()` / inside a function named like `evaluate` or `predict` — when there is no
    `.backward()` or optimizer step in the same scope and the call is not under
    `torch.no_grad()` / `torch.inference_mode()`. Training loops are not flagged.

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
        if not is_model_call(facts, call) or _grad_off(facts, call) or _training(facts, call):
            continue
        loop: Loop | None = call.loop
        if loop is None and not _eval_signal(facts, call):
            continue
        node = loop.node if loop is not None else call.node
        if id(node) not in seen:
            seen.add(id(node))
            yield node


@rule(
    "AIP506",
    "eager-repeated-inference",
    "Model called many times in eager mode: compile it once (`torch.compile`, TorchScript, ONNX)",
    fixable=True,
)
def eager_repeated_inference(facts: Facts) -> Iterator[Hit]:
    """
    ## What it does
    Flags a loop that runs a model for inference (no `.backward()` in the loop or its scope)
    when the notebook never compiles or exports it: no `torch.compile`, `torch.jit.trace`,
    `torch.jit.script` or `torch.onnx.export`. A model that is already an `OptimizedModule` or
    a `ScriptModule` in the namespace is not flagged, nor is validation inside a notebook that
    trains (it calls `.backward()`).

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
    flags = cell_flags(facts)
    if "compile" in flags or "train" in flags:  # a training notebook: compile advice is for training
        return
    seen: set[int] = set()
    for call in facts.calls:
        loop = call.loop
        if loop is None or not is_model_call(facts, call) or _training(facts, call):
            continue
        if facts.kind(call.node.func if isinstance(call.node.func, cst.Name) else call.receiver) != "model":
            continue
        if id(loop.node) not in seen:
            seen.add(id(loop.node))
            yield loop.node
