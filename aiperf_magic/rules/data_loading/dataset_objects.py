"""AIP103 dataset-python-objects: the detector, its documentation and its fixer."""

from __future__ import annotations

from collections.abc import Iterator

import libcst as cst

from ..exprs import int_value, walk
from ..facts import Facts
from ..registry import Hit, rule
from ..symbols import LOADERS

_BIG_MAKERS = frozenset({"builtins.list", "builtins.dict", "json.load", "json.loads", "pickle.load", "builtins.sorted"})


def _big_attrs(facts: Facts, init: cst.FunctionDef) -> set[str]:
    """``self.x`` attributes that ``__init__`` fills with many Python objects."""
    attrs: set[str] = set()
    grown: set[str] = set()
    for node in walk(init.body):
        if isinstance(node, cst.Assign):
            for target in node.targets:
                attr = _self_attr(target.target)
                if attr and _is_big(facts, node.value) and not _holds_tensors(node.value):
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


def _loaders_without_workers(facts: Facts, cls: str) -> bool:
    """Every loader seen over an instance of ``cls`` runs without workers (so no worker copies
    anything); False when none is seen (the loader may be made elsewhere, with workers)."""
    cells = facts.cells()
    instances = {
        t.value
        for cell in cells
        for a in cell.assigns
        if isinstance(a.value, cst.Call) and isinstance(a.value.func, cst.Name) and a.value.func.value == cls
        for t in a.targets
        if isinstance(t, cst.Name)
    }
    seen = False
    for call in (c for cell in cells for c in cell.calls):
        if call.qname not in LOADERS:
            continue
        arg = call.kwarg("dataset") or call.positional(0)
        value = arg.value if arg is not None else None
        ours = (isinstance(value, cst.Name) and value.value in instances) or (
            isinstance(value, cst.Call) and isinstance(value.func, cst.Name) and value.func.value == cls
        )
        if not ours:
            continue
        seen = True
        workers = call.kwarg("num_workers") or call.positional(5)
        if call.has_star_kwargs or (workers is not None and int_value(workers.value) != 0):
            return False
    return seen


def _holds_tensors(value: cst.BaseExpression) -> bool:
    """``[torch.tensor(x) for x in rows]``: tensors keep their data outside the object headers."""
    elt = value.elt if isinstance(value, cst.ListComp) else None
    if isinstance(elt, cst.Tuple):
        return all(_is_tensor_call(e.value) for e in elt.elements)
    return elt is not None and _is_tensor_call(elt)


def _is_tensor_call(node: cst.BaseExpression) -> bool:
    func = node.func if isinstance(node, cst.Call) else None
    return isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name) and func.value.value in ("torch", "t")


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
    built from a file, a comprehension, `.tolist()`) that `__getitem__` then indexes. Not
    flagged when every `DataLoader` seen over it runs without workers (nothing is forked, so
    nothing is copied), nor for lists of tensors (their data is not in the objects read).

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
        if init is None or getitem is None or _loaders_without_workers(facts, cls.name.value):
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
