"""AIP505 sync-every-step: the detector, its documentation and its fixer."""

from __future__ import annotations

from collections.abc import Iterator

import libcst as cst

from ...cell.parsed import ParsedCell
from ...cell.tree import call_name, expect, walk_all
from ...fixes.edits import Edits
from ..exprs import dotted_name, names_used
from ..facts import Facts, Loop
from ..registry import Hit, fixer_for, rule
from .model_use import on_gpu, training_loops

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
