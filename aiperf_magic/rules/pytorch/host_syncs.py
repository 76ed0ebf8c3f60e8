"""AIP505 sync-every-step: the detector, its documentation and its fixer."""

from __future__ import annotations

from collections.abc import Iterator

import libcst as cst

from ...cell.parsed import ParsedCell
from ...cell.tree import call_name, expect, walk_all
from ...fixes.edits import Edits
from ..exprs import dotted_name, names_used
from ..facts import Call, Facts, Loop
from ..models import is_tiny
from ..registry import Hit, fixer_for, rule
from .model_use import helpers_called, models_trained, on_gpu, training_loops

_SYNC_METHODS = frozenset({"item", "cpu", "numpy", "tolist"})
# Sending a value to other processes through the host: the copy is the algorithm, not a wait.
_COMMUNICATION = frozenset(
    {"allreduce", "Allreduce", "all_reduce", "bcast", "Bcast", "broadcast", "send", "Send", "isend", "reduce",
     "gather", "allgather", "all_gather", "scatter", "put", "push"}
)


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
)
def sync_every_step(facts: Facts) -> Iterator[Hit]:
    """
    ## What it does
    Flags the first `.item()`, `.cpu()`, `.numpy()`, `.tolist()`, `float(loss)` or
    `print(loss)` of every iteration of a CUDA training loop (also inside a training-step
    function the loop calls): the syncs after it in the same step find the queue empty. Not
    flagged: calls guarded by `if step % k == 0:`, copies handed to other processes
    (`comm.allreduce(grad.cpu())`: the copy is the algorithm), and small models (under 2 million
    weights), whose steps are launch-bound anyway.

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
        models = models_trained(facts, loop)
        if models and all(is_tiny(facts, m) for m in models):
            continue  # a small model's step is launch-bound: one wait more or less changes little
        tensors = _tensor_names(loop)
        on_host = _host_names(facts, loop)
        for call in sorted(_step_calls(facts, loop), key=lambda c: c.order):
            if call.guarded or _communicates(facts, call) or _root(call.receiver) in on_host:
                continue
            if (call.method in _SYNC_METHODS and not call.node.args and call.receiver is not None) or (
                call.qname in ("builtins.float", "builtins.int", "builtins.print")
                and any(isinstance(a.value, cst.Name) and a.value.value in tensors for a in call.node.args)
            ):
                yield call.node
                break  # the first wait of a step; the ones after it find the queue empty


def _host_names(facts: Facts, loop: Loop) -> set[str]:
    """Batch parts still on the host: the loop's targets (and items taken from them) that the
    step never moves to the device; reading them waits for nothing (``labels.tolist()``)."""
    names = set(loop.targets)
    for inner in facts.loops:
        if inner is not loop and _inside(inner, loop) and _root(inner.iter) in names:
            names |= inner.targets
    moved: set[str] = set()
    for a in loop.assigns:
        calls = _calls_in(a.value) if a.value is not None else []
        if any(isinstance(c, cst.Call) and isinstance(c.func, cst.Attribute) and c.func.attr.value in ("to", "cuda")
               for c in calls):
            for target in a.targets:
                moved |= names_used(target)
    return names - moved


def _calls_in(node: cst.CSTNode) -> list[cst.CSTNode]:
    return [n for n in walk_all(node) if isinstance(n, cst.Call)]


def _inside(inner: Loop, outer: Loop) -> bool:
    return any(a is outer for a in inner.ancestors())


def _root(node: cst.BaseExpression | None) -> str | None:
    while isinstance(node, (cst.Attribute, cst.Subscript, cst.Call)):
        node = node.func if isinstance(node, cst.Call) else node.value
    return node.value if isinstance(node, cst.Name) else None


def _step_calls(facts: Facts, loop: Loop) -> list[Call]:
    """The calls one step makes: the loop's own and those of training-step functions of this cell."""
    helpers = {id(h) for h in helpers_called(facts, loop)}
    own = [c for c in facts.calls if c.scope.node is not facts.module and id(c.scope.node) in helpers]
    return [*loop.calls, *own]


def _communicates(facts: Facts, call: Call) -> bool:
    parent = facts.cell.parent(call.node) if facts.cell is not None else None
    if isinstance(parent, cst.Arg):
        outer = facts.cell.parent(parent) if facts.cell is not None else None
        func = outer.func if isinstance(outer, cst.Call) else None
        return isinstance(func, cst.Attribute) and func.attr.value in _COMMUNICATION
    return False


@fixer_for("AIP505", "Accumulate on the device and synchronise once")
def fix_sync(cell: ParsedCell, node: cst.CSTNode, facts: Facts) -> Edits | str:
    call = expect(
        node,
        cst.Call,
        where=lambda n: call_name(n) == "float" or (isinstance(n.func, cst.Attribute) and n.func.attr.value == "item"),
    )
    if not isinstance(call, cst.Call):
        return "no .item() or float(...) call on the finding's line"
    tensor = call.args[0].value if call_name(call) == "float" else call.func.value  # type: ignore[attr-defined]
    statement = cell.statement(call)
    small = statement.body[0] if isinstance(statement, cst.SimpleStatementLine) and len(statement.body) == 1 else None
    loop = cell.enclosing_loop(statement)
    if loop is None:
        return "the sync is not inside a loop"
    edits = Edits("Keep the values on the device and read them once after the loop", safety="unsafe")
    if (
        isinstance(small, cst.AugAssign)
        and isinstance(small.operator, cst.AddAssign)
        and small.value is call
        and isinstance(small.target, cst.Name)
    ):
        total = small.target.value
        dev = cell.fresh(f"{total}_dev")
        before, inside, after = f"{dev} = 0", f"{dev} += {cell.code(tensor)}.detach()", f"{total} += float({dev})"
    elif (
        isinstance(small, cst.Expr)
        and isinstance(small.value, cst.Call)
        and isinstance(small.value.func, cst.Attribute)
        and small.value.func.attr.value == "append"
        and small.value.args
        and small.value.args[0].value is call
    ):
        total = cell.code(small.value.func.value)
        dev = cell.fresh(f"{total.split('.')[-1]}_dev")
        torch = edits.need(cell, "torch")
        before, inside = f"{dev} = []", f"{dev}.append({cell.code(tensor)}.detach())"
        after = f"{total}.extend({torch}.stack({dev}).tolist() if {dev} else [])"
    else:
        # print(loss.item()) or if loss.item() < x: the value is needed on the host right now
        return "the value is used on the host inside the loop (printed, compared, stored elsewhere)"
    reads = sum(1 for n in walk_all(loop) if isinstance(n, cst.Name) and n.value == total.split(".")[0])
    if reads != 1:
        return f"{total} is read inside the loop, which needs the synced value at every step"
    edits.before[loop] = [before + "\n"]
    edits.replace[statement] = cst.parse_statement(inside + "\n")
    edits.after[loop] = [after + "\n"]
    return edits
