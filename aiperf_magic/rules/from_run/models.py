"""Why a loop that calls a torch model cost what it did: autograd kept for inference (AIP502), or a
model called so many times, on so little data each, that Python's dispatch is the work (AIP506).

The run says the loop's time went into the model's calls (``Module._wrapped_call_impl``), how many
calls it made and what the model is (the live module: its layers, whether it is in ``eval()`` mode
and has weights that require gradients). A loop that trains (``backward``, an optimizer's ``step``,
in the loop or a function it calls) is neither.
"""

from __future__ import annotations

import re
from typing import Any

import libcst as cst

from ...sizing import kind
from ..pytorch.eager_inference import growing_input, timed
from ..pytorch.inference_grad import grad_off
from ..pytorch.model_use import inference_call, trains
from .callers import MAX_DEPTH, callers
from .helpers import top_function
from .judge import DISPATCH_S, DISPATCH_SHARE, leaves_of
from .run import MISSING, Explained, Run
from .shapes import iterations, work_shares
from .sites import Site, code_of_file, counts

MODEL_SHARE = 0.5  # of the loop's samples, inside the model's calls
# the names of functions that evaluate a model (``evaluate``, ``predict``, ``run_inference``, ``sample``)
EVALUATING = re.compile(r"eval|predict|infer|test|score|classify|generate|sample", re.IGNORECASE)
TRAINING_CALLEES = ("Tensor.backward", "backward", "Optimizer.", "GradScaler.", "_engine_run_backward")
MIN_CALLS = 50  # fewer calls than this: compiling could not pay back its first call


def _inference(site: Site, run: Run) -> tuple[str, Any] | None:
    """The model of a hot loop that only infers: most of its time in the model's calls, no training."""
    loop = site.loop
    if loop is None or not counts(site) or work_shares(site).get("model", 0.0) < MODEL_SHARE:
        return None
    if loop.backward or trains(site.code.facts, loop):
        return None  # training: the graph is needed, and the step is the work
    name, model = _model(site, run)
    return (name, model) if model is not MISSING else None


def model_autograd(site: Site, run: Run) -> Explained | None:
    found = _inference(site, run)
    if found is None or site.loop is None:
        return None
    name, model = found
    facts, loop, calls = site.code.facts, site.loop, site.loop_count
    direct = [c for c in loop.calls if isinstance(c.node.func, cst.Name) and c.node.func.value == name]
    # inference, as the static rule knows it: eval() mode, an evaluation function, a test split
    inferring = (not getattr(model, "training", True) or any(inference_call(facts, c) for c in direct)
                 or _evaluates(site, run))
    if not direct or not inferring or any(grad_off(facts, c) for c in direct) or not _grads(model):
        return None
    if site.code is not run.cell and _called_without_grad(site, run):
        return None  # the cell calls the helper under torch.no_grad() or inference_mode()
    evidence = (f"{run.took(site)} in {name}'s calls" + (f", {calls:,} of them" if calls else "")
                + f", with autograd on: the loop only infers ({name} "
                + ("is in eval() mode" if not getattr(model, "training", True) else "is used for evaluation")
                + ") and nothing computes gradients, yet each call records a graph")
    return Explained("AIP502", site, loop.node, evidence, {"calls": calls})


def model_dispatch(site: Site, run: Run) -> Explained | None:
    found = _inference(site, run)
    if found is None or site.loop is None:
        return None
    name, model = found
    loop, calls = site.loop, site.loop_count
    leaves = leaves_of(model)
    if not calls or calls < MIN_CALLS or not leaves or not isinstance(loop.node, (cst.For, cst.While)):
        return None
    facts = site.code.facts
    if timed(facts, loop) or growing_input(facts, loop.node, name) is not None:
        return None  # a benchmark of eager mode, or generation whose input grows: compiling would not pay
    per_call = site.seconds / calls
    dispatch = leaves * DISPATCH_S
    if dispatch < DISPATCH_SHARE * per_call or type(model).__name__ in ("OptimizedModule", "RecursiveScriptModule"):
        return None
    part = "most" if dispatch >= 0.8 * per_call else f"about {dispatch * 1e3:.2g} ms"
    evidence = (f"{run.took(site)} in {calls:,} calls of {name}, {per_call * 1e3:.2g} ms each, of which Python's "
                f"dispatch of its {leaves} layers is {part}")
    return Explained("AIP506", site, loop.node, evidence, {"calls": calls, "per_call_s": round(per_call, 6)})


def one_sample_steps(site: Site, run: Run) -> Explained | None:
    """A loop that trains on one sample per step: the model called on ``X[i]`` (or ``X[i].unsqueeze(0)``,
    ``X[i:i + 1]``) for each index of a live tensor of many rows, with ``backward`` in the loop; each
    forward and backward pays Python's dispatch of every layer for a single row."""
    loop = site.loop
    if loop is None or not counts(site) or not isinstance(loop.node, cst.For) or not loop.backward:
        return None
    if work_shares(site).get("model", 0.0) < MODEL_SHARE:
        return None
    name, model = _model(site, run)
    calls = iterations(site, run)  # as measured, or the length of what the cell's loop walks
    if model is MISSING or not calls or calls < MIN_CALLS:
        return None
    targets = set(loop.targets)
    for call in loop.calls:
        if not (isinstance(call.node.func, cst.Name) and call.node.func.value == name and call.node.args):
            continue
        rows = _one_row_of(site, run, call.node.args[0].value, targets)
        if rows is None:
            continue
        source, n = rows
        evidence = (f"{run.took(site)} in {calls:,} forward and backward passes of {name}, each on one row of "
                    f"{source} ({n:,} rows)")
        return Explained("AIP506", site, loop.node, evidence, {"calls": calls, "rows": n}, advice=BATCH_ADVICE,
                         fix_reason=BATCH_BY_HAND)
    return None


BATCH_ADVICE = ("Training on one sample per step: every forward and backward pays Python's dispatch of each layer "
                "for a single row; mini-batches (X[i:i + 64], or a DataLoader with batch_size=64) do the same "
                "arithmetic in a few large calls, and the loss averaged over a batch gives the averaged gradient")


BATCH_BY_HAND = ("not written for you: mini-batches change how many optimizer steps an epoch takes and what each "
                 "gradient averages, a choice of training; write the batched loop and Try it")


def _one_row_of(site: Site, run: Run, arg: cst.BaseExpression, targets: set[str]) -> tuple[str, int] | None:
    """``X[i]``, ``X[i].unsqueeze(0)``, ``X[i:i + 1]`` with ``i`` the loop's variable and ``X`` a live
    tensor (or array) of 2 dimensions or more: X's name and rows."""
    while isinstance(arg, cst.Call) and isinstance(arg.func, cst.Attribute):
        arg = arg.func.value  # .unsqueeze(0), .view(1, -1), .to(device)
    if not (isinstance(arg, cst.Subscript) and isinstance(arg.value, cst.Name) and len(arg.slice) == 1):
        return None
    index = arg.slice[0].slice
    if isinstance(index, cst.Index):
        picks = isinstance(index.value, cst.Name) and index.value.value in targets
    elif isinstance(index, cst.Slice):
        upper = index.upper
        picks = (isinstance(index.lower, cst.Name) and index.lower.value in targets
                 and isinstance(upper, cst.BinaryOperation) and isinstance(upper.right, cst.Integer)
                 and upper.right.value == "1")
    else:
        picks = False
    live = run.live(site, arg.value.value)
    shape = getattr(live, "shape", None) if live is not MISSING and kind(live) in ("tensor", "array") else None
    if not picks or shape is None or len(shape) < 2 or int(shape[0]) < MIN_CALLS:
        return None
    return arg.value.value, int(shape[0])


def _called_without_grad(site: Site, run: Run) -> bool:
    """The function holding the site was called, by the lines the run saw calling it (or by theirs,
    up the stack), inside ``torch.no_grad()``, ``inference_mode()`` or a function under one: autograd
    was off for its calls, whatever its own code says."""
    name = top_function(site.hottest.function)
    seen: set[str] = set()
    while name and name not in seen and len(seen) < MAX_DEPTH:
        seen.add(name)
        up = callers(run, name)
        for h in up[:3]:
            code = run.cell if h.file is None else code_of_file(h.file, run.namespace, h.where)
            if code is None:
                continue
            leaf = name.split(".")[-1]
            calls = [c for c in code.calls_on(h.line) if _names(c.node.func, leaf)]
            if any(grad_off(code.facts, c) for c in calls):
                return True
        name = top_function(up[0].function) if up and up[0].function else ""
    return False


def _names(func: cst.BaseExpression, leaf: str) -> bool:
    return (isinstance(func, cst.Name) and func.value == leaf) or (
        isinstance(func, cst.Attribute) and func.attr.value == leaf)


def _evaluates(site: Site, run: Run) -> bool:
    """The run's evidence that a loop infers, where its code alone does not say (a ``for i in
    range(n)`` loop in a helper of an earlier cell): it sits in a function named for evaluation
    (``evaluate``, ``predict``, ``sample``...), nothing anywhere in the run computed gradients or
    stepped an optimizer, and a tensor on its lines required grad (autograd recorded its graph)."""
    scope = site.loop.scope if site.loop is not None else None
    named = scope is not None and isinstance(scope.node, cst.FunctionDef) and EVALUATING.search(scope.name)
    if not named or trained(run):
        return False
    return any(text.endswith("requires_grad") for h in site.lines for text in h.locals.values())


def trained(run: Run) -> bool:
    """A line of the cell or of a function it called spent time in ``backward`` or an optimizer."""
    lines = [*run.report.hotspots, *run.report.function_lines]
    return any(label.startswith(TRAINING_CALLEES)
               for h in lines for label in (h.callees or ({h.callee: 1} if h.callee else {})))


def _model(site: Site, run: Run) -> tuple[str, Any]:
    """The torch module the hot lines call, live: the cell's name for it, or a global an earlier
    cell's function reads (checked against the type the sampler saw); of several (a model and its
    loss), the one with the most layers."""
    found: list[tuple[int, str, Any]] = []
    for h in site.lines:
        for name, typed in h.types.items():
            live = run.live(site, name)
            if live is MISSING and site.code is not run.cell:
                candidate = run.namespace.get(name, MISSING)
                seen = f"{type(candidate).__module__}.{type(candidate).__qualname__}"
                live = candidate if seen == typed else MISSING
            if live is not MISSING and kind(live) == "module":
                found.append((leaves_of(live) or 0, name, live))
    if not found:
        return "", MISSING
    _, name, live = max(found, key=lambda f: f[0])
    return name, live


def _grads(model: Any) -> bool:
    try:
        return any(p.requires_grad for p in model.parameters())
    except Exception:  # a module whose parameters cannot be listed
        return False
