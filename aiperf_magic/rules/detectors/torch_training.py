"""AIP503, AIP504, AIP505: the training loop — deprecated AMP, no mixed precision, per-step syncs."""

from __future__ import annotations

from collections.abc import Iterator

import libcst as cst

from ..exprs import dotted_name, names_used
from ..facts import Facts, Loop
from ..registry import Hit, rule
from ..work import AUTOCASTS, is_move

_REPLACEMENT = {"autocast": '`torch.autocast("cuda", ...)`', "GradScaler": '`torch.amp.GradScaler("cuda")`'}


@rule(
    "AIP503",
    "deprecated-cuda-amp",
    '`torch.cuda.amp` is deprecated: use `torch.autocast("cuda")` and `torch.amp.GradScaler("cuda")`',
    fixable=True,
)
def deprecated_cuda_amp(facts: Facts) -> Iterator[Hit]:
    """
    ## What it does
    Flags imports and uses of `torch.cuda.amp.autocast` and `torch.cuda.amp.GradScaler`,
    however they are spelled (`from torch.cuda.amp import autocast`, `amp.GradScaler()`).

    ## Why is this bad?
    Since PyTorch 2.4 both warn on every construction (`FutureWarning`) and will be removed.
    The device-generic `torch.autocast("cuda", dtype=...)` also lets the dtype be chosen:
    `bfloat16` needs no `GradScaler` at all on Ampere and newer GPUs. With torch 2.13, 10
    constructions of each raised 20 `FutureWarning`s (`benchmarks/traps/AIP503.py`).
    This is hygiene more than speed: the deprecated spelling is not itself slower.

    ## Example
    ```python
    from torch.cuda.amp import autocast, GradScaler
    scaler = GradScaler()
    with autocast():
        loss = criterion(model(x), y)
    ```

    ## Use instead
    ```python
    scaler = torch.amp.GradScaler("cuda")
    with torch.autocast("cuda", dtype=torch.float16):
        loss = criterion(model(x), y)
    ```

    ## Fix safety
    Safe: the new spellings are the same classes with the device made explicit.

    ## References
    - Seed article, chapter 1 ("mixed precision not enabled" — its example uses these names).
    - PyTorch: "Automatic Mixed Precision package - torch.amp".
    """
    for node in facts.deprecated:
        name = node.name if isinstance(node, cst.ImportAlias) else node
        leaf = (dotted_name(name) or "").rsplit(".", 1)[-1]
        yield (
            node,
            (
                f"`torch.cuda.amp.{leaf}` is deprecated (FutureWarning since PyTorch 2.4): "
                f"use {_REPLACEMENT.get(leaf, '`torch.amp`')}"
            ),
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


def _autocast_covers(facts: Facts, loop: Loop) -> bool:
    if any(w in AUTOCASTS for w in loop.withs):
        return True
    if any(c.qname in AUTOCASTS for c in loop.calls):
        return True
    return any(s.kind == "model" and s.low_precision for s in facts.symbols.values())


@rule(
    "AIP504",
    "no-mixed-precision",
    "CUDA training loop in full float32: `torch.autocast` would use the GPU's tensor cores",
    fixable=True,
)
def no_mixed_precision(facts: Facts) -> Iterator[Hit]:
    """
    ## What it does
    Flags a training loop (a loop calling `.backward()`) in code that targets CUDA, when
    neither the loop nor its surroundings use `torch.autocast` and the model was not cast to
    half or bfloat16.

    ## Why is this bad?
    Matrix multiplications and convolutions in float32 skip the tensor cores that do most of a
    modern GPU's arithmetic; `autocast` runs them in float16/bfloat16 (and keeps reductions in
    float32), with half the activation memory.
    `benchmarks/traps/AIP504.py` measures it on a CUDA GPU; the machine these docs were measured on
    has none, so no number is quoted yet (run the script on yours).

    ## Example
    ```python
    for x, y in loader:
        x, y = x.cuda(), y.cuda()
        loss = criterion(model(x), y)
        loss.backward()
        opt.step(); opt.zero_grad()
    ```

    ## Use instead
    ```python
    for x, y in loader:
        x, y = x.cuda(), y.cuda()
        with torch.autocast("cuda", dtype=torch.bfloat16):
            loss = criterion(model(x), y)
        loss.backward()
        opt.step(); opt.zero_grad()
    ```

    ## Fix safety
    Unsafe: lower precision changes the numbers, and float16 (not bfloat16) needs a
    `GradScaler` to keep small gradients from underflowing. bfloat16 needs an Ampere or newer
    GPU.

    ## References
    - Seed article, chapter 1 ("mixed precision not enabled").
    - PyTorch: "Automatic Mixed Precision examples".
    """
    if "autocast" in facts.earlier_flags:
        return
    for loop in training_loops(facts):
        if on_gpu(facts, loop) and not _autocast_covers(facts, loop):
            yield loop.node


_SYNC_METHODS = frozenset({"item", "cpu", "numpy", "tolist"})


def _tensor_names(loop: Loop) -> set[str]:
    """Names holding tensors in a training loop: the loss and whatever a call produced."""
    names = {c.receiver.value for c in loop.calls if c.method == "backward" and isinstance(c.receiver, cst.Name)}
    for assign in loop.assigns:
        if isinstance(assign.value, cst.Call) and assign.value.func is not None:
            func = dotted_name(assign.value.func) or ""
            if any(w in func.lower() for w in ("model", "loss", "criterion", "net")):
                for target in assign.targets:
                    names |= names_used(target)
    return names


@rule(
    "AIP505",
    "sync-every-step",
    "Host-device sync every training step (`.item()`, `.cpu()`, `print(loss)`): the CPU waits for the GPU",
    fixable=True,
)
def sync_every_step(facts: Facts) -> Iterator[Hit]:
    """
    ## What it does
    Flags `.item()`, `.cpu()`, `.numpy()`, `.tolist()`, `float(loss)` and `print(loss)` on
    every iteration of a CUDA training loop. Calls guarded by `if step % k == 0:` are not
    flagged.

    ## Why is this bad?
    GPU work is queued asynchronously; reading a value on the host forces Python to wait until
    everything queued so far has finished. The CPU can then no longer run ahead preparing the
    next step, so the GPU idles between steps.
    `benchmarks/traps/AIP505.py` measures it on a CUDA GPU; the machine these docs were measured on
    has none, so no number is quoted yet (run the script on yours).

    ## Example
    ```python
    for step, (x, y) in enumerate(loader):
        loss = criterion(model(x.cuda()), y.cuda())
        loss.backward(); opt.step(); opt.zero_grad()
        running += loss.item()
    ```

    ## Use instead
    ```python
    running = torch.zeros((), device="cuda")
    for step, (x, y) in enumerate(loader):
        loss = criterion(model(x.cuda()), y.cuda())
        loss.backward(); opt.step(); opt.zero_grad()
        running += loss.detach()
        if step % 100 == 0:
            print(step, running.item() / (step + 1))
    ```

    ## Fix safety
    Unsafe: the fix changes what is printed and when; logging every step is sometimes wanted.

    ## References
    - Seed article, chapter 4.1 ("every operation may trigger an implicit synchronisation").
    - PyTorch: CUDA semantics, "Asynchronous execution".
    """
    for loop in training_loops(facts):
        if not on_gpu(facts, loop):
            continue
        tensors = _tensor_names(loop)
        for call in loop.calls:
            if call.guarded:
                continue
            if (call.method in _SYNC_METHODS and not call.node.args and call.receiver is not None) or (
                call.qname in ("builtins.float", "builtins.int", "builtins.print")
                and any(isinstance(a.value, cst.Name) and a.value.value in tensors for a in call.node.args)
            ):
                yield call.node
