"""AIP101 dataloader-without-workers: the detector, its documentation and its fixer."""

from __future__ import annotations

from collections.abc import Iterator

import libcst as cst

from ...cell.parsed import ParsedCell
from ...cell.tree import expect, walk_all
from ...fixes.edits import Edits
from ..exprs import int_value
from ..facts import Call, Facts
from ..registry import Hit, fixer_for, rule
from ..symbols import LOADERS
from .datasets import IN_MEMORY, dataset_cost, literal_int, random_draw

SMALL_BATCH = 4  # a couple of samples per step: a demo, or a model so large that loading is noise


def _one_batch(facts: Facts, call: Call) -> bool:
    """The loader is only ever asked for one batch (``next(iter(loader))``): a peek, not a pass."""
    names = {
        t.value for a in facts.assigns if a.value is call.node for t in a.targets if isinstance(t, cst.Name)
    }
    if len(names) != 1 or facts.cell is None:
        return False
    (name,) = names
    uses = [n for n in walk_all(call.scope.node) if isinstance(n, cst.Name) and n.value == name]
    peeks = 0
    for use in uses:
        arg = facts.cell.parent(use)
        inner = facts.cell.parent(arg) if arg is not None else None  # iter(loader)
        if _called_with(facts, use, "iter") and _called_with(facts, inner, "next"):
            peeks += 1
    return peeks >= 1 and peeks == len(uses) - 1


def _called_with(facts: Facts, node: cst.CSTNode | None, func: str) -> bool:
    """``node`` is the argument of a call to the builtin ``func`` (``iter(node)``)."""
    if node is None or facts.cell is None:
        return False
    arg = facts.cell.parent(node)
    call = facts.cell.parent(arg) if arg is not None else None
    return isinstance(call, cst.Call) and isinstance(call.func, cst.Name) and call.func.value == func


@rule(
    "AIP101",
    "dataloader-without-workers",
    "`DataLoader` without `num_workers`: batches are loaded in the main process, between steps",
)
def dataloader_without_workers(facts: Facts) -> Iterator[Hit]:
    """
    ## What it does
    Flags a `torch.utils.data.DataLoader` (or a subclass from a graph library) created without
    `num_workers`, or with `num_workers=0`, over a dataset whose samples cost work to produce.
    Loaders over tensors already in memory (`TensorDataset`, a tensor, a list, a Hugging Face
    dataset mapped ahead of time) are not flagged: a sample is one indexing, and workers would
    only add the cost of sending it between processes. Nor are loaders of at most 4 samples per
    batch (a demo, or a model so large that loading is noise next to its step), nor loaders only
    asked for one batch (`next(iter(loader))`). Inside `%%aiperf`, the finding sits on the loop
    that iterates the loader, where the time goes, with what getting each batch cost and which
    of the dataset's methods (or the collate function) took it; it is shown when that loop took a
    fifth of the cell or more in the loader and the user's per-item code took a tenth (or the
    dataset decodes, as torchvision's do). A loader the cell never iterates is not shown, nor
    one over tensors in memory.

    ## Why is this bad?
    With no workers, every batch is read, decoded and collated by the main process, and the
    model waits for it: data loading and compute take turns instead of overlapping. With samples
    that cost about 1 ms of Python each and a 16 ms model step per batch (standing in for the
    GPU), one epoch took 672 ms with `num_workers=0` and 496 ms with 2 workers (1.4x) on a
    busy 2-core machine (`benchmarks/traps/AIP101.py`); more cores give more.

    ## Example
    ```python
    loader = DataLoader(dataset, batch_size=64, shuffle=True)
    ```

    ## Use instead
    ```python
    loader = DataLoader(dataset, batch_size=64, shuffle=True,
                        num_workers=4, persistent_workers=True)
    ```

    ## Fix safety
    Safe for map-style datasets whose `__getitem__` is deterministic. Unsafe when the dataset
    holds open file handles, GPU tensors, or relies on global state mutated by the main process:
    each worker gets a copy. On Windows and macOS, workers are spawned, so the dataset class must
    be importable (defined in a module, not in the notebook).

    ## References
    - Seed article, chapter 1 ("data loading as a hidden bottleneck") and chapter 4.3.
    - PyTorch: `torch.utils.data` — "Multi-process data loading".
    """
    for call in facts.calls:
        if call.qname not in LOADERS or call.has_star_kwargs:
            continue
        dataset = call.kwarg("dataset") or call.positional(0)
        if dataset is None or dataset_cost(facts, dataset.value) == IN_MEMORY:
            continue  # tensors in memory: a sample is one indexing, workers would only add transfers
        batch = call.kwarg("batch_size") or call.positional(1)
        size = literal_int(facts, batch.value) if batch is not None else None
        if (size is not None and size <= SMALL_BATCH) or _one_batch(facts, call):
            continue
        arg = call.kwarg("num_workers") or call.positional(5)
        if arg is None:
            yield call.node
        elif int_value(arg.value) == 0:
            yield (
                call.node,
                "`DataLoader(num_workers=0)`: batches are loaded in the main process, between steps",
            )


@fixer_for("AIP101", "Load batches in worker processes")
def fix_workers(cell: ParsedCell, node: cst.CSTNode, facts: Facts) -> Edits | str:
    call = expect(node, cst.Call)
    if call is None or (facts.names.qname(call.func) or "") not in LOADERS:
        return "no DataLoader(...) call on the finding's line"
    if any(a.star for a in call.args):
        # DataLoader(*args, **opts): the workers may already be set through the unpacked options
        return "the call unpacks *args/**kwargs, which may already set num_workers"
    dataset = next((a.value for a in call.args if a.keyword is not None and a.keyword.value == "dataset"), None)
    dataset = dataset or (call.args[0].value if call.args and call.args[0].keyword is None else None)
    draw = random_draw(facts, dataset) or random_state(facts, call, dataset)
    if draw is not None:
        # forked workers start from copies of the main process's NumPy and Python random streams
        return (f"the dataset draws random numbers for each sample ({draw}): in worker processes they come "
                "from other streams (forked workers repeat each other's NumPy draws), so the batches would "
                "differ; seed each worker with worker_init_fn first if other augmentations are acceptable")
    edits = Edits(
        "Load batches in worker processes (num_workers from the CPU count, persistent workers)", safety="unsafe"
    )
    # workers start (and copy the dataset) every epoch: a loader of tiny, fast batches gets slower
    edits.measure_first = "worker processes pay when loading batches takes seconds, not for small in-memory data"
    os_name = edits.need(cell, "os")
    edits.set_kwarg(call, "num_workers", f"max(1, ({os_name}.cpu_count() or 1) - 1)")
    edits.set_kwarg(call, "persistent_workers", "True")
    return edits


# Random streams by type: NumPy's Generator and RandomState, Python's Random, torch's Generator.
RANDOM_TYPES = frozenset({"numpy.random._generator.Generator", "numpy.random.mtrand.RandomState", "random.Random",
                          "torch._C.Generator", "torch.Generator"})
MAX_REACH = 2  # attribute levels below the dataset looked at (the dataset's own, then its members')


def random_state(facts: Facts, call: cst.Call, dataset: cst.BaseExpression | None) -> str | None:
    """A random stream the live dataset holds (``self.rng = np.random.default_rng(0)``, a transform
    object's own ``Random``), found by its type after the run, whatever its name: each worker
    process would draw from a copy of it, so the samples would differ from the main process's."""
    ns = facts.names.namespace
    if ns is None:
        return None
    live = ns.get(dataset.value) if isinstance(dataset, cst.Name) else None
    if live is None:  # DataLoader(MyDataset(...)): the loader the cell bound holds it
        names = [t.value for a in facts.assigns if a.value is call for t in a.targets if isinstance(t, cst.Name)]
        live = next((getattr(ns.get(n), "dataset", None) for n in names if ns.get(n) is not None), None)
    found = _stream_in(live, "dataset", MAX_REACH, set()) if live is not None else None
    return f"{found[0]} is a {found[1]}" if found else None


def _stream_in(value: object, path: str, depth: int, seen: set[int]) -> tuple[str, str] | None:
    if id(value) in seen:
        return None
    seen.add(id(value))
    kind = f"{type(value).__module__}.{type(value).__qualname__}"
    if kind in RANDOM_TYPES:
        return path, kind.replace("._generator", "").replace(".mtrand", "").replace("._C", "")
    if depth == 0 or isinstance(value, (str, bytes, int, float, type)) or type(value).__module__.startswith(
            ("numpy", "pandas", "torch")):
        return None
    members: list[tuple[str, object]] = []
    if isinstance(value, dict):
        members = [(f"{path}[{k!r}]", v) for k, v in list(value.items())[:50]]
    elif isinstance(value, (list, tuple)):
        members = [(f"{path}[{i}]", v) for i, v in enumerate(value[:50])]
    else:
        members = [(f"{path}.{k}", v) for k, v in list(getattr(value, "__dict__", {}).items())[:50]]
    below = depth if isinstance(value, (dict, list, tuple)) else depth - 1  # a list of transforms is one level
    for where, member in members:
        found = _stream_in(member, where, below, seen)
        if found:
            return found
    return None
