"""AIP504 no-mixed-precision: the detector, its documentation and its fixer."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import libcst as cst

from ...cell.parsed import ParsedCell
from ...cell.tree import expect, walk_all
from ...fixes.edits import Edits
from ..facts import Facts, Loop
from ..models import is_tiny
from ..registry import Hit, fixer_for, rule
from ..work import AUTOCASTS
from .autocast_scope import autocast_refused
from .model_use import helpers_called, models_trained, on_gpu, training_loops

_AMP_TRAINERS = frozenset({"autocast", "GradScaler", "accelerator", "Accelerator"})


def _autocast_covers(facts: Facts, loop: Loop) -> bool:
    if any(w in AUTOCASTS for w in loop.withs):
        return True
    if any(c.qname in AUTOCASTS for c in loop.calls):
        return True
    for helper in helpers_called(facts, loop):
        if any(isinstance(n, (cst.Name, cst.Attribute)) and _leaf(n) in _AMP_TRAINERS for n in walk_all(helper)):
            return True
    models = models_trained(facts, loop)
    if any(m.low_precision for m in models) or _accelerate_amp(facts):
        return True
    return any(s.kind == "model" and s.low_precision for cell in facts.cells() for s in cell.symbols.values())


def _accelerate_amp(facts: Facts) -> bool:
    """``Accelerator(mixed_precision=...)``: Hugging Face Accelerate runs the autocast itself."""
    for cell in facts.cells():
        for call in cell.calls:
            func = call.node.func
            name = _leaf(func) if isinstance(func, (cst.Name, cst.Attribute)) else ""
            arg = call.kwarg("mixed_precision")
            if name == "Accelerator" and arg is not None:
                value = arg.value
                if not (isinstance(value, cst.SimpleString) and value.evaluated_value in ("no", "")):
                    return True
    return False


def _leaf(node: cst.Name | cst.Attribute) -> str:
    return node.attr.value if isinstance(node, cst.Attribute) else node.value


def _small_models(facts: Facts, loop: Loop) -> bool:
    """Every model the loop trains is small enough to be launch-bound (autocast gains nothing)."""
    models = models_trained(facts, loop)
    return bool(models) and all(is_tiny(facts, m) for m in models)


@rule(
    "AIP504",
    "no-mixed-precision",
    "CUDA training loop in full float32: `torch.autocast` would use the GPU's tensor cores",
)
def no_mixed_precision(facts: Facts) -> Iterator[Hit]:
    """
    ## What it does
    Flags a training loop (a loop calling `.backward()`, directly or through a training-step
    function it calls) that runs on a GPU (it moves its batches there, creates tensors there or
    calls a model moved there), when neither the loop nor its surroundings use
    `torch.autocast` and the model was not cast or loaded in half or bfloat16. Small models (under
    2 million weights, counted from the layers their class builds) are not flagged: their steps
    are bound by kernel launches, not arithmetic.

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
        if on_gpu(facts, loop) and not _autocast_covers(facts, loop) and not _small_models(facts, loop):
            yield loop.node


def _training_parts(loop: cst.For) -> tuple[list[Any], int] | str:
    body: list[Any] = list(loop.body.body) if isinstance(loop.body, cst.IndentedBlock) else []
    back = next(
        (
            i
            for i, s in enumerate(body)
            if any(
                isinstance(n, cst.Call) and isinstance(n.func, cst.Attribute) and n.func.attr.value == "backward"
                for n in walk_all(s)
            )
        ),
        None,
    )
    if back is None:
        return "the loop calls no backward() directly in its body"
    return body, back


@fixer_for("AIP504", "Train with bf16 autocast")
def fix_autocast(cell: ParsedCell, node: cst.CSTNode, facts: Facts) -> Edits | str:
    loop = expect(node, cst.For)
    if not isinstance(loop, cst.For):
        return "no for statement on the finding's line"
    found = _training_parts(loop)
    if isinstance(found, str):
        return found
    body, back = found
    start = back
    while start > 0:
        s = body[start - 1]
        if not (isinstance(s, cst.SimpleStatementLine) and all(isinstance(x, cst.Assign) for x in s.body)):
            break
        if any(
            isinstance(n, cst.Call) and isinstance(n.func, cst.Attribute) and n.func.attr.value in ("zero_grad", "step")
            for n in walk_all(s)
        ):
            break
        start -= 1
    run = body[start:back]
    if not run:
        # the forward pass is not a plain assignment right before backward(): nothing clear to wrap
        return "no forward/loss assignments right before backward() to wrap"
    why = autocast_refused(cell, loop, run, facts)
    if why is not None:
        return why
    edits = Edits("Run the forward pass and loss under bf16 autocast", safety="unsafe")
    torch = edits.need(cell, "torch")
    first: Any = run[0]
    inner = [first.with_changes(leading_lines=[]), *run[1:]]  # type: ignore[attr-defined]
    edits.replace[first] = cst.With(
        items=[cst.WithItem(cst.parse_expression(f'{torch}.autocast("cuda", dtype={torch}.bfloat16)'))],
        body=cst.IndentedBlock(body=inner),  # type: ignore[arg-type]
        leading_lines=first.leading_lines,
    )
    edits.remove |= set(run[1:])
    return edits
