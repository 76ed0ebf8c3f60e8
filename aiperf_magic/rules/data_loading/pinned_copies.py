"""AIP102 unpinned-batch-transfer: the detector, its documentation and its fixer."""

from __future__ import annotations

from collections.abc import Iterator

import libcst as cst

from ...cell.parsed import ParsedCell
from ...cell.tree import call_name, expect
from ...fixes.edits import Edits
from ..exprs import is_true, names_used
from ..facts import Facts, Loop, unwrap_iterable
from ..registry import Hit, fixer_for, rule
from ..symbols import GRAPH_LOADERS, LOADERS, Symbol
from ..work import is_move
from .datasets import IN_MEMORY, dataset_cost, live_cost


def loader_of(facts: Facts, loop: Loop) -> Symbol | None:
    """The DataLoader a loop iterates over (``for x, y in loader``, ``enumerate(loader)``, ``tqdm``)."""
    it = unwrap_iterable(facts, loop.iter, also=("builtins.iter",))
    if isinstance(it, cst.Call) and facts.names.qname(it.func) in LOADERS:
        return Symbol("loader", it)
    sym = facts.symbol(it) if isinstance(it, cst.Name) else None
    return sym if sym is not None and sym.kind == "loader" else None


def _pinned(sym: Symbol) -> bool:
    if sym.obj is not None:
        return bool(getattr(sym.obj, "pin_memory", False))
    if isinstance(sym.node, cst.Call):
        arg = next((a for a in sym.node.args if a.keyword and a.keyword.value == "pin_memory"), None)
        return arg is not None and is_true(arg.value)
    return False


def _batch_names(facts: Facts, loop: Loop) -> set[str]:
    """The loop's targets plus names taken from them in the body: ``x, y = batch``, and the
    targets of inner loops over them (``{k: v.to(dev) for k, v in batch.items()}``)."""
    names = set(loop.targets)
    for assign in loop.assigns:
        if assign.loop is loop and assign.value is not None and names_used(assign.value) & names:
            for target in assign.targets:
                names |= names_used(target)
    for inner in facts.loops:
        if inner.parent is loop and inner.iter is not None and names_used(inner.iter) & names:
            names |= inner.targets
    return names


@rule(
    "AIP102",
    "unpinned-batch-transfer",
    "Batches are copied to the GPU from pageable memory: the copy blocks and cannot overlap compute",
)
def unpinned_batch_transfer(facts: Facts) -> Iterator[Hit]:
    """
    ## What it does
    Flags a batch moved to a GPU (`.to(device)`, `.cuda()`) inside a loop over a `DataLoader`
    that was built without `pin_memory=True`, or a move without `non_blocking=True`: once per
    loop, at the first tensor moved (the inputs; the labels that follow are a small share).
    Loaders over tensors already in memory (small samples: MNIST-sized arrays, token ids), graph
    loaders (a batch of small graphs is a few kilobytes) and loaders given `**options` (which
    may pin already) are not flagged.

    ## Why is this bad?
    A copy from ordinary (pageable) host memory is staged through a pinned buffer by the driver
    and blocks the Python thread; only copies from pinned memory with `non_blocking=True` run
    asynchronously, overlapping the next kernels.
    `benchmarks/traps/AIP102.py` measures it on a CUDA GPU; the machine these docs were measured on
    has none, so no number is quoted yet (run the script on yours).

    ## Example
    ```python
    loader = DataLoader(ds, batch_size=256, num_workers=4)
    for x, y in loader:
        x, y = x.to(device), y.to(device)
    ```

    ## Use instead
    ```python
    loader = DataLoader(ds, batch_size=256, num_workers=4, pin_memory=True)
    for x, y in loader:
        x, y = x.to(device, non_blocking=True), y.to(device, non_blocking=True)
    ```

    ## Fix safety
    Safe: results are identical. Pinned memory is a limited OS resource; very large batches
    on a small machine may fail to pin (PyTorch then raises at load time).

    ## References
    - Seed article, chapter 1 and chapter 4.1 (`pin_memory=True` for faster host-to-GPU copies).
    - PyTorch: "Memory pinning" in `torch.utils.data`; CUDA semantics, "Use pinned memory buffers".
    """
    for loop in facts.loops:
        loader = loader_of(facts, loop)
        if loader is None or _unknowable(facts, loader):
            continue
        pinned = _pinned(loader)
        batch = _batch_names(facts, loop)
        for call in loop.calls:
            if not is_move(call) or call.receiver is None or not names_used(call.receiver) & batch:
                continue
            non_blocking = call.kwarg("non_blocking")
            blocking = non_blocking is None or not is_true(non_blocking.value)
            if not pinned:
                yield (
                    call.node,
                    (
                        "Batch copied to the GPU from a loader without `pin_memory=True`"
                        + (" and without `non_blocking=True`" if blocking else "")
                        + ": the copy blocks and cannot overlap compute"
                    ),
                )
            elif blocking:
                yield (
                    call.node,
                    (
                        "Batch copied to the GPU without `non_blocking=True`: "
                        "the pinned copy still blocks the Python thread"
                    ),
                )
            else:
                continue
            break  # one finding per loop: the first tensor moved carries the batch (labels follow it)


def _unknowable(facts: Facts, loader: Symbol) -> bool:
    """Loaders this rule cannot judge: options passed through ``**kwargs`` (``pin_memory`` may be
    there), or samples already held as tensors in memory (small batches: MNIST-sized arrays, token
    ids), where the copy is a tiny share of a step."""
    if loader.obj is not None:  # the live loader of %%aiperf: its dataset says
        return live_cost(getattr(loader.obj, "dataset", None)) == IN_MEMORY
    call = loader.node
    if not isinstance(call, cst.Call):
        return False
    if any(a.star == "**" for a in call.args) or facts.names.qname(call.func) in GRAPH_LOADERS:
        return True  # graph mini-batches: node features of a few small graphs, a few kilobytes
    dataset = next((a for a in call.args if a.keyword is not None and a.keyword.value == "dataset"), None)
    dataset = dataset or next((a for a in call.args if a.keyword is None and not a.star), None)
    return dataset is not None and dataset_cost(facts, dataset.value) == IN_MEMORY


MOVES = ("to", "cuda")


@fixer_for("AIP102", "Pin batches and copy them without blocking")
def fix_pinned(cell: ParsedCell, node: cst.CSTNode, facts: Facts) -> Edits | str:
    move = expect(node, cst.Call, where=lambda n: isinstance(n.func, cst.Attribute) and n.func.attr.value in MOVES)
    if not isinstance(move, cst.Call):
        return "no .to(...)/.cuda() call on the finding's line"
    edits = Edits("Pin the loader's memory and copy batches with non_blocking=True")
    edits.set_kwarg(move, "non_blocking", "True")
    loader = _loader_of_loop(cell, move)
    if loader is not None:
        _pin(loader, edits)
    return edits


def _pin(loader: cst.Call, edits: Edits) -> None:
    """``pin_memory=True`` on the loader, never twice: a ``pin_memory=`` the code wrote stays as it
    is, and ``**kwargs`` (which may carry it, e.g. ``{"pin_memory": True} if cuda else {}``) is
    merged (``**{"pin_memory": True, **kwargs}``: the dict's own value wins)."""
    if any(a.keyword is not None and a.keyword.value == "pin_memory" for a in loader.args):
        return
    stars = [a for a in loader.args if a.star == "**"]
    if not stars:
        edits.set_kwarg(loader, "pin_memory", "True")
        return
    last = stars[-1]
    merged = cst.parse_expression(f'{{"pin_memory": True, **{_code(last.value)}}}')
    edits.replace[last.value] = merged


def _code(node: cst.BaseExpression) -> str:
    return cst.Module(body=[]).code_for_node(node)


def _loader_of_loop(cell: ParsedCell, node: cst.CSTNode) -> cst.Call | None:
    """The ``DataLoader(...)`` call that made the loader the enclosing loop iterates, if in this cell."""
    loop = cell.enclosing_loop(node)
    if not isinstance(loop, cst.For):
        return None
    it = loop.iter
    while isinstance(it, cst.Call) and it.args and call_name(it) in ("enumerate", "tqdm", "tqdm.tqdm", "iter"):
        it = it.args[0].value
    if not isinstance(it, cst.Name):
        return None
    for assign in cell.nodes(cst.Assign):
        targets = assign.targets  # type: ignore[attr-defined]
        value = assign.value  # type: ignore[attr-defined]
        if (
            len(targets) == 1
            and isinstance(targets[0].target, cst.Name)
            and targets[0].target.value == it.value
            and isinstance(value, cst.Call)
            and call_name(value).endswith("DataLoader")
        ):
            return value
    return None
