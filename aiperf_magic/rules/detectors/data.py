"""AIP101-AIP103: feeding the model — DataLoader workers, pinned memory, Dataset storage."""

from __future__ import annotations

from collections.abc import Iterator

import libcst as cst

from ..exprs import int_value, is_true, names_used, walk
from ..facts import Facts, Loop, unwrap_iterable
from ..registry import Hit, rule
from ..symbols import LOADERS, Symbol
from ..work import is_move


@rule(
    "AIP101",
    "dataloader-without-workers",
    "`DataLoader` without `num_workers`: batches are loaded in the main process, between steps",
    fixable=True,
)
def dataloader_without_workers(facts: Facts) -> Iterator[Hit]:
    """
    ## What it does
    Flags a `torch.utils.data.DataLoader` created without `num_workers`, or with `num_workers=0`.

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
        arg = call.kwarg("num_workers") or call.positional(5)
        if arg is None:
            yield call.node
        elif int_value(arg.value) == 0:
            yield (
                call.node,
                "`DataLoader(num_workers=0)`: batches are loaded in the main process, between steps",
            )


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
    fixable=True,
)
def unpinned_batch_transfer(facts: Facts) -> Iterator[Hit]:
    """
    ## What it does
    Flags a batch moved to a GPU (`.to(device)`, `.cuda()`) inside a loop over a `DataLoader`
    that was built without `pin_memory=True`, or a move without `non_blocking=True`.

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
        if loader is None:
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


_BIG_MAKERS = frozenset({"builtins.list", "builtins.dict", "json.load", "json.loads", "pickle.load", "builtins.sorted"})


def _big_attrs(facts: Facts, init: cst.FunctionDef) -> set[str]:
    """``self.x`` attributes that ``__init__`` fills with many Python objects."""
    attrs: set[str] = set()
    grown: set[str] = set()
    for node in walk(init.body):
        if isinstance(node, cst.Assign):
            for target in node.targets:
                attr = _self_attr(target.target)
                if attr and _is_big(facts, node.value):
                    attrs.add(attr)
        elif (
            isinstance(node, cst.Call)
            and isinstance(node.func, cst.Attribute)
            and node.func.attr.value in ("append", "extend", "update", "setdefault")
        ):
            attr = _self_attr(node.func.value)
            if attr:
                grown.add(attr)
    return attrs | grown


def _is_big(facts: Facts, value: cst.BaseExpression) -> bool:
    if isinstance(value, (cst.ListComp, cst.DictComp)):
        return True
    if isinstance(value, cst.Call):
        func = value.func
        if isinstance(func, cst.Attribute) and func.attr.value in (
            "readlines",
            "tolist",
            "to_dict",
            "to_list",
        ):
            return True
        return facts.names.qname(func) in _BIG_MAKERS
    return False


def _self_attr(node: cst.BaseExpression) -> str | None:
    if isinstance(node, cst.Attribute) and isinstance(node.value, cst.Name) and node.value.value == "self":
        return node.attr.value
    return None


@rule(
    "AIP103",
    "dataset-python-objects",
    "`Dataset` keeps its samples in Python lists/dicts: each worker's copy grows as it reads them",
)
def dataset_python_objects(facts: Facts) -> Iterator[Hit]:
    """
    ## What it does
    Flags a map-style `Dataset` whose `__init__` stores many Python objects (a list or dict
    built from a file, a comprehension, `.tolist()`) that `__getitem__` then indexes.

    ## Why is this bad?
    DataLoader workers are forked and share the parent's memory copy-on-write, but merely
    reading a Python object writes its reference count, so every page a worker touches is
    copied. With N workers the dataset's memory slowly becomes N+1 copies — the "memory leak"
    often reported with `num_workers > 0`. A NumPy array is one object: reading it copies
    nothing. A forked worker that read 300,000 samples stored as dicts gained 36.9 MiB of
    private memory; the same samples in one NumPy array cost it 0.1 MiB
    (`benchmarks/traps/AIP103.py`).

    ## Example
    ```python
    class Tokens(Dataset):
        def __init__(self, path):
            self.rows = [json.loads(line) for line in open(path)]
        def __getitem__(self, i):
            return self.rows[i]["ids"]
    ```

    ## Use instead
    ```python
    class Tokens(Dataset):
        def __init__(self, path):
            rows = [json.loads(line)["ids"] for line in open(path)]
            self.offsets = np.cumsum([0] + [len(r) for r in rows])
            self.ids = np.concatenate(rows).astype(np.int32)
        def __getitem__(self, i):
            return self.ids[self.offsets[i]:self.offsets[i + 1]]
    ```

    ## Fix safety
    No automatic fix: the right storage (NumPy, Arrow, a memory-mapped file) depends on the data.

    ## References
    - Seed article, chapter 4.3 ("DataLoader's num_workers and the memory-sharing trap").
    - PyTorch issue #13246 (memory growth with Python lists in a Dataset).
    """
    for cls, bases in facts.classes:
        if "torch.utils.data.Dataset" not in bases:
            continue
        methods = {s.name.value: s for s in cls.body.body if isinstance(s, cst.FunctionDef)}
        init, getitem = methods.get("__init__"), methods.get("__getitem__")
        if init is None or getitem is None:
            continue
        big = _big_attrs(facts, init)
        read = {
            attr
            for node in walk(getitem.body)
            if isinstance(node, cst.Subscript)
            for attr in [_self_attr(node.value)]
            if attr
        }
        if big & read:
            yield (
                cls,
                (
                    f"`{cls.name.value}` keeps samples in Python objects (`self."
                    f"{sorted(big & read)[0]}`): each DataLoader worker's copy grows as it reads them"
                ),
            )
