"""AIP501 tensor-created-then-moved: the detector, its documentation and its fixer."""

from __future__ import annotations

from collections.abc import Iterator

import libcst as cst

from ...cell.parsed import ParsedCell
from ...cell.tree import call_name, expect, kwarg
from ...fixes.edits import Edits, with_kwargs
from ..exprs import int_value
from ..facts import Call, Facts
from ..loops import few_iterations
from ..registry import Hit, fixer_for, rule
from ..sizes import array_size
from ..symbols import TORCH_FACTORIES
from ..work import is_move


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
)
def tensor_created_then_moved(facts: Facts) -> Iterator[Hit]:
    """
    ## What it does
    Flags `torch.randn(...)`, `torch.zeros(...)` and other shape factories called without
    `device=` inside a loop, whose result is then moved with `.cuda()` or `.to(device)`. Not
    flagged: `torch.tensor(values)` (the values live on the host: they cross either way), small
    tensors whose written sizes multiply to under 10,000 elements, noise drawn from an explicit
    CPU `generator=` (reproducibility on purpose), and calls that run only every k-th step or in
    a loop of a few iterations.

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
            and call.qname in TORCH_FACTORIES - _FROM_DATA
            and call.kwarg("device") is None
            and call.kwarg("generator") is None  # a CPU generator on purpose: reproducible noise
            and not call.guarded
            and not few_iterations(facts, call.loop)
            and not _small(call)
            and _moved(facts, call)
        ):
            yield call.node


# ``torch.tensor(values)`` starts from data that lives on the host: it crosses to the GPU either way.
_FROM_DATA = frozenset({"torch.tensor", "torch.as_tensor", "torch.from_numpy"})
SMALL_TENSOR = 10_000  # elements: a copy of 40 KB is a few microseconds of PCIe time


def _small(call: Call) -> bool:
    """The sizes written in the call make a small tensor: literal sizes multiplying to under
    10,000 elements (``torch.randn(64)``, ``torch.eye(2)``), or one size from the data times at
    most 16 (``torch.randint(0, T, (batch,))``, ``torch.zeros(n, 3)``): a vector per sample."""
    leaf = (call.qname or "").rsplit(".", 1)[-1]
    if leaf in ("arange", "linspace"):
        size = array_size(f"numpy.{leaf}", call.node)
        return size is not None and size < SMALL_TENSOR
    dims: list[cst.BaseExpression] = [a.value for a in call.node.args if a.keyword is None]
    if leaf == "full":
        dims = dims[:1]
    if leaf == "randint":
        dims = [d for d in dims if isinstance(d, (cst.Tuple, cst.List))][:1]  # type: ignore[assignment]
    sized = next((a.value for a in call.node.args if a.keyword is not None and a.keyword.value == "size"), None)
    if sized is not None:
        dims = [sized]
    if len(dims) == 1 and isinstance(dims[0], (cst.Tuple, cst.List)):
        dims = [e.value for e in dims[0].elements]
    if not dims or any(isinstance(d, cst.Attribute) and d.attr.value == "shape" for d in dims):
        return False  # torch.randn(images.shape): as large as the batch itself
    known, unknown = 1, 0
    for dim in dims:
        value = int_value(dim)
        if value is None:
            unknown += 1
        else:
            known *= value
    if unknown == 0:
        return known < SMALL_TENSOR
    return unknown == 1 and known <= 16


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


def _device_of(cell: ParsedCell, move: cst.Call) -> str | None:
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


@fixer_for("AIP501", "Create the tensor on the device")
def fix_factory(cell: ParsedCell, node: cst.CSTNode, facts: Facts) -> Edits | str:
    make = expect(node, cst.Call, where=lambda n: call_name(n).rsplit(".", 1)[-1] in FACTORIES and "." in call_name(n))
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
