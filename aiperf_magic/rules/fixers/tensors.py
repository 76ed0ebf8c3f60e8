"""Fixes for PyTorch: create on the device (AIP501), inference mode (AIP502), the torch.amp API (AIP503),
bf16 autocast (AIP504), one sync after the loop (AIP505), ``torch.compile`` (AIP506)."""

from __future__ import annotations

import builtins
from typing import Any

import libcst as cst

from ...fixes.base import Cell, call_name, contains, kwarg, names_in, walk
from ...fixes.edits import Edits, with_kwargs
from ...fixes.registry import fixer
from ...report import Finding

FACTORIES = {
    "randn",
    "rand",
    "randint",
    "randperm",
    "normal",
    "zeros",
    "ones",
    "empty",
    "full",
    "arange",
    "tensor",
    "eye",
    "linspace",
    "zeros_like",
    "ones_like",
    "randn_like",
    "rand_like",
    "full_like",
}
RANDOM = {"randn", "rand", "randint", "randperm", "normal", "randn_like", "rand_like"}
DTYPE_WORDS = ("float", "int", "half", "bool", "double", "bfloat", "complex", "dtype")


def _device_of(cell: Cell, move: cst.Call) -> str | None:
    """The device a ``.cuda(...)`` / ``.to(...)`` call moves to, as code; None for dtype casts."""
    attr = move.func.attr.value  # type: ignore[attr-defined]
    positional = [a for a in move.args if a.keyword is None]
    extra = [a for a in move.args if a.keyword is not None and a.keyword.value not in ("non_blocking", "device")]
    if extra or len(positional) > 1:
        return None  # .to(d, dtype=...) / .to(d, torch.float16) changes more than the device
    if attr == "cuda":
        return (
            f'"cuda:{cell.code(positional[0].value)}"'
            if positional and isinstance(positional[0].value, cst.Integer)
            else ('"cuda"' if not positional else None)
        )
    dev = kwarg(move, "device")
    target = dev.value if dev is not None else (positional[0].value if positional else None)
    if target is None:
        return None
    text = cell.code(target)
    if any(w in text for w in DTYPE_WORDS):
        # .to(torch.float16) is a cast, not a move
        return None
    return text


def _is_move(node: cst.CSTNode) -> bool:
    return (
        isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) and node.func.attr.value in ("to", "cuda")
    )


@fixer("AIP501", "Create the tensor on the device")
def fix_factory(cell: Cell, finding: Finding) -> Edits | str:
    make = cell.at_line(
        finding.line,
        cst.Call,
        finding.col,
        where=lambda n: call_name(n).rsplit(".", 1)[-1] in FACTORIES and "." in call_name(n),
    )
    if not isinstance(make, cst.Call):
        return "no tensor factory call on the finding's line"
    if kwarg(make, "device") is not None:
        return "the factory already names a device"
    kind = call_name(make).rsplit(".", 1)[-1]
    safety = "unsafe" if kind in RANDOM else "safe"
    title = "Create the tensor on the device instead of moving it"
    attr, call = cell.parent(make), cell.parent(cell.parent(make))  # type: ignore[arg-type]
    if isinstance(attr, cst.Attribute) and attr.value is make and isinstance(call, cst.Call) and _is_move(call):
        device = _device_of(cell, call)
        if device is None:
            return "the move also changes the dtype or has unusual arguments"
        edits = Edits(title, safety=safety)
        edits.set_kwarg(make, "device", device)
        edits.replace[call] = make  # the kwarg edit above applies to ``make`` inside the replacement
        return _fold(edits, make, call)
    statement = cell.statement(make)
    small = statement.body[0] if isinstance(statement, cst.SimpleStatementLine) and len(statement.body) == 1 else None
    if not (isinstance(small, cst.Assign) and small.value is make and isinstance(small.targets[0].target, cst.Name)):
        return "the new tensor is not assigned to a name"
    name = small.targets[0].target.value
    following = cell.following(statement)
    nxt = following[0] if following else None
    move = nxt.body[0] if isinstance(nxt, cst.SimpleStatementLine) and len(nxt.body) == 1 else None
    if not (
        isinstance(move, cst.Assign)
        and cell.code(move.targets[0].target) == name
        and _is_move(move.value)
        and cell.code(move.value.func.value) == name  # type: ignore[attr-defined]
    ):
        # the move must be the very next statement (x = x.cuda()); anything between may use the CPU copy
        return "the move is not the next statement (x = x.to(device))"
    device = _device_of(cell, move.value)  # type: ignore[arg-type]
    if device is None:
        return "the move also changes the dtype or has unusual arguments"
    edits = Edits(title, safety=safety)
    edits.set_kwarg(make, "device", device)
    edits.remove.add(nxt)  # type: ignore[arg-type]
    return edits


def _fold(edits: Edits, make: cst.Call, call: cst.Call) -> Edits:
    # Replacing the chain by the factory node itself would drop the kwarg edit (it is keyed by the
    # original node, applied before the parent's replacement); build the final node here instead.
    edits.replace[call] = with_kwargs(make, edits.kwargs.pop(make))
    return edits


@fixer("AIP502", "Run inference without autograd")
def fix_inference(cell: Cell, finding: Finding) -> Edits | str:
    node = cell.at_line(finding.line, cst.For, finding.col) or cell.at_line(finding.line, cst.Call, finding.col)
    if node is None:
        return "no loop or model call on the finding's line"
    target = node if isinstance(node, cst.For) else cell.statement(node)
    if any(
        isinstance(n, cst.Call) and isinstance(n.func, cst.Attribute) and n.func.attr.value in ("backward", "step")
        for n in walk(target)
    ):
        # training code needs the graph: inference_mode would make backward() fail
        return "the code calls backward()/step(), so it needs autograd"
    edits = Edits("Wrap the inference in torch.inference_mode()", safety="unsafe")
    edits.wrap[target] = f"{edits.need(cell, 'torch')}.inference_mode()"
    return edits


@fixer("AIP503", "Use the torch.amp API")
def fix_amp(cell: Cell, finding: Finding) -> Edits | str:
    edits = Edits('Use torch.amp.autocast("cuda", ...) and torch.amp.GradScaler("cuda")')
    imp = cell.at_line(finding.line, cst.ImportFrom)
    if isinstance(imp, cst.ImportFrom) and imp.module is not None and cell.code(imp.module).endswith("cuda.amp"):
        if isinstance(imp.names, cst.ImportStar):
            return "from torch.cuda.amp import * hides which names are used"
        edits.replace[imp.module] = cst.parse_expression(cell.code(imp.module)[: -len("cuda.amp")] + "amp")
        local = {(a.asname.name.value if a.asname else a.name.value): a.name.value for a in imp.names}  # type: ignore[union-attr]
        for use in cell.nodes(cst.Call):
            func = use.func  # type: ignore[attr-defined]
            if isinstance(func, cst.Name) and func.value in local:
                edits.replace[use] = _new_call(use, cell.code(func), local[func.value])  # type: ignore[arg-type]
        return edits
    call = cell.at_line(
        finding.line,
        cst.Call,
        finding.col,
        where=lambda n: call_name(n).rsplit(".", 1)[-1] in ("autocast", "GradScaler"),
    )
    if not isinstance(call, cst.Call):
        return "no torch.cuda.amp use on the finding's line that is called"
    name = call_name(call)
    kind = name.rsplit(".", 1)[-1]
    first = call.args[0] if call.args else None
    if ("." in name and not name.endswith("cuda.amp." + kind)) or (
        first is not None and first.keyword is None and isinstance(first.value, cst.SimpleString)
    ):
        # torch.amp.autocast("cuda") / torch.autocast(...) is already the current API
        return "the call already uses the torch.amp API"
    if name.endswith("cuda.amp." + kind):
        func = name[: -len("cuda.amp." + kind)] + "amp." + kind
    else:  # imported in another cell: spell out the module so the new signature is the one called
        func = f"{edits.need(cell, 'torch')}.amp.{kind}"
    edits.replace[call] = _new_call(call, func, kind)
    return edits


_AUTOCAST_ORDER = ("enabled", "dtype", "cache_enabled")  # torch.cuda.amp.autocast's positional order


def _new_call(call: cst.Call, func: str, kind: str) -> cst.Call:
    args = list(call.args)
    if kind == "autocast":
        # torch.amp.autocast(device_type, dtype, enabled, ...) orders its parameters differently
        args = [
            a.with_changes(
                keyword=cst.Name(_AUTOCAST_ORDER[i]),
                equal=cst.AssignEqual(cst.SimpleWhitespace(""), cst.SimpleWhitespace("")),
            )
            if a.keyword is None and i < 3
            else a
            for i, a in enumerate(args)
        ]
    first = cst.Arg(
        cst.SimpleString('"cuda"'),
        comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" ")) if args else cst.MaybeSentinel.DEFAULT,
    )
    return call.with_changes(func=cst.parse_expression(func), args=[first, *args])


def _training_parts(loop: cst.For) -> tuple[list[Any], int] | str:
    body: list[Any] = list(loop.body.body) if isinstance(loop.body, cst.IndentedBlock) else []
    back = next(
        (
            i
            for i, s in enumerate(body)
            if any(
                isinstance(n, cst.Call) and isinstance(n.func, cst.Attribute) and n.func.attr.value == "backward"
                for n in walk(s)
            )
        ),
        None,
    )
    if back is None:
        return "the loop calls no backward() directly in its body"
    return body, back


@fixer("AIP504", "Train with bf16 autocast")
def fix_autocast(cell: Cell, finding: Finding) -> Edits | str:
    loop = cell.at_line(finding.line, cst.For, finding.col)
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
            for n in walk(s)
        ):
            break
        start -= 1
    run = body[start:back]
    if not run:
        # the forward pass is not a plain assignment right before backward(): nothing clear to wrap
        return "no forward/loss assignments right before backward() to wrap"
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


@fixer("AIP505", "Accumulate on the device and synchronise once")
def fix_sync(cell: Cell, finding: Finding) -> Edits | str:
    call = cell.at_line(
        finding.line,
        cst.Call,
        finding.col,
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
    reads = sum(1 for n in walk(loop) if isinstance(n, cst.Name) and n.value == total.split(".")[0])
    if reads != 1:
        return f"{total} is read inside the loop, which needs the synced value at every step"
    edits.before[loop] = [before + "\n"]
    edits.replace[statement] = cst.parse_statement(inside + "\n")
    edits.after[loop] = [after + "\n"]
    return edits


@fixer("AIP506", "Compile the model")
def fix_compile(cell: Cell, finding: Finding) -> Edits | str:
    loop: Any = cell.at_line(finding.line, (cst.For, cst.While), finding.col)
    if loop is None:
        return "no loop on the finding's line"
    local_defs = {n.name.value for n in cell.nodes((cst.FunctionDef, cst.ClassDef))}  # type: ignore[attr-defined]
    candidates = [
        n
        for n in walk(loop.body)
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
    if contains(loop, cst.Call) and any(
        isinstance(n, cst.Call) and isinstance(n.func, cst.Attribute) and n.func.attr.value == "backward"
        for n in walk(loop)
    ):
        return "the loop trains the model; compile it where the training is set up"
    edits = Edits("Compile the model once with torch.compile (first call is slow)", safety="unsafe")
    compiled = cell.fresh(f"{model}_compiled")
    # a new name, not model = torch.compile(model): the user's model keeps its state_dict keys
    edits.before[loop] = [f"{compiled} = {edits.need(cell, 'torch')}.compile({model})\n"]
    for n in walk(loop.body):  # type: ignore[attr-defined]
        if isinstance(n, cst.Call) and isinstance(n.func, cst.Name) and n.func.value == model:
            edits.replace[n.func] = cst.Name(compiled)
    return edits
