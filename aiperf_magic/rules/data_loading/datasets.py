"""What a ``Dataset`` costs per sample: the question AIP101 and AIP103 ask before speaking.

Worker processes pay off when each sample costs work in Python (reading a file, decoding an
image, a transform); over tensors already in memory (``TensorDataset``, a tensor, a list) a sample
is one indexing, and workers only add the cost of sending it between processes. The answer is
``"costly"``, ``"in-memory"`` or ``"unknown"`` (a dataset made out of sight).
"""

from __future__ import annotations

import inspect
import textwrap
from typing import Any

import libcst as cst

from ...cell.parsed import parse_module
from ...cell.tree import walk_all
from ..facts import Facts
from ..sizes import is_number

COSTLY, IN_MEMORY, UNKNOWN = "costly", "in-memory", "unknown"

_IN_MEMORY_MAKERS = frozenset(
    {
        "torch.utils.data.TensorDataset",
        "torch.utils.data.StackDataset",
        "builtins.list",
        "builtins.range",
        "builtins.zip",
        "builtins.tuple",
    }
)
_WRAPPERS = frozenset({"torch.utils.data.Subset", "torch.utils.data.random_split"})
# Calls in ``__getitem__`` that make a sample cost work: files, decoding, transforms.
_COSTLY_CALLS = frozenset(
    {
        "open", "imread", "read_image", "decode_image", "load", "loadtxt", "read", "read_csv", "parse",
        "convert", "resize", "transform", "transforms", "tokenize", "tokenizer", "encode", "augment", "crop",
        "decode", "get", "urlopen", "fromarray", "processor", "image_processor", "feature_extractor",
    }
)
# The graph libraries' datasets (TUDataset, Planetoid, MiniGCDataset...) hold their graphs in memory.
_GRAPH_DATASETS = ("torch_geometric.datasets.", "dgl.data.", "ogb.graphproppred.", "ogb.nodeproppred.")
_LAZY_HF = frozenset({"set_transform", "with_transform"})  # Hugging Face datasets: a transform per read
_EAGER_HF = frozenset({"map", "with_format", "set_format", "filter"})


def dataset_cost(facts: Facts, node: cst.BaseExpression | None, depth: int = 0) -> str:
    """How costly one sample of the dataset ``node`` is to produce."""
    if node is None or depth > 6:
        return UNKNOWN
    if isinstance(node, (cst.List, cst.ListComp, cst.Tuple)):
        return IN_MEMORY
    if isinstance(node, cst.Subscript):  # ds["train"], random_split(...)[0]
        return dataset_cost(facts, node.value, depth + 1)
    if isinstance(node, cst.Name):
        return _name_cost(facts, node, depth)
    if not isinstance(node, cst.Call):
        return UNKNOWN
    qname = facts.names.qname(node.func) or ""
    if qname in _IN_MEMORY_MAKERS:
        return IN_MEMORY
    if qname in _WRAPPERS:
        return dataset_cost(facts, node.args[0].value if node.args else None, depth + 1)
    if qname.startswith(("torchvision.datasets.", "torchaudio.datasets.")):
        return COSTLY
    if qname.startswith(("torch.", "numpy.")) and not qname.startswith("torch.utils.data."):
        return IN_MEMORY  # a tensor or an array: indexing it is the whole sample
    if qname.startswith(_GRAPH_DATASETS):
        return IN_MEMORY  # graph datasets keep every graph in memory: a sample is a slice
    method = node.func.attr.value if isinstance(node.func, cst.Attribute) else None
    if method in _LAZY_HF:
        return COSTLY
    if method in _EAGER_HF:
        return IN_MEMORY
    if isinstance(node.func, cst.Name):
        cls = facts.symbols.get(node.func.value)
        if cls is not None and cls.kind == "class" and isinstance(cls.node, cst.ClassDef):
            return class_cost(cls.node)
    return UNKNOWN


def _name_cost(facts: Facts, name: cst.Name, depth: int) -> str:
    sym = facts.symbol(name)
    if sym is not None and sym.kind in ("tensor", "ndarray", "list", "range", "tuple", "dict"):
        return IN_MEMORY
    if sym is not None and sym.obj is not None:
        return live_cost(sym.obj)
    if any(_transforms_in_place(c, name.value) for c in facts.calls):
        return COSTLY  # dataset.set_transform(f): every read runs f
    value = _assigned(facts, name.value)
    if value is not None:
        return dataset_cost(facts, value, depth + 1)
    return UNKNOWN


def _transforms_in_place(call: Any, name: str) -> bool:
    return call.method in _LAZY_HF and isinstance(call.receiver, cst.Name) and call.receiver.value == name


def _assigned(facts: Facts, name: str, before: cst.CSTNode | None = None) -> cst.BaseExpression | None:
    """The value last assigned to ``name`` in the cell, else in the notebook's other cells (the
    dataset is usually made a few cells above its loader); with ``before``, the one before that
    value. ``ds = add_features(ds)`` passes the earlier dataset through."""
    cells = [facts, *(c for c in reversed(facts.cells()) if c is not facts)]
    seen = before is None
    for cell in cells:
        for assign in reversed(cell.assigns):
            if not (
                isinstance(assign.node, cst.Assign)
                and any(isinstance(t, cst.Name) and t.value == name for t in assign.targets)
            ):
                continue
            if not seen:
                seen = assign.value is before
                continue
            value = assign.value
            if _passes_through(value, name):
                return _assigned(facts, name, value)
            return value
    sym = facts.symbols.get(name) if before is None else None
    return sym.node if sym is not None and isinstance(sym.node, cst.BaseExpression) else None


def _passes_through(value: cst.BaseExpression | None, name: str) -> bool:
    """``ds = add_features(ds)``: a helper of the notebook given the dataset and returning it."""
    return (
        isinstance(value, cst.Call)
        and isinstance(value.func, cst.Name)
        and value.func.value[:1].islower()
        and any(isinstance(a.value, cst.Name) and a.value.value == name for a in value.args)
    )


def class_cost(cls: cst.ClassDef) -> str:
    """A ``Dataset`` class of the notebook: costly when its ``__getitem__`` reads, decodes or
    transforms; in memory when it only indexes what ``__init__`` prepared."""
    getitem = next(
        (s for s in cls.body.body if isinstance(s, cst.FunctionDef) and s.name.value == "__getitem__"), None
    )
    if getitem is None:
        return UNKNOWN
    for node in walk_all(getitem.body):
        if isinstance(node, cst.Call):
            func = node.func
            leaf = _leaf(func)
            if leaf.lower() in _COSTLY_CALLS or "transform" in leaf.lower():
                return COSTLY
    return IN_MEMORY


def _leaf(func: cst.BaseExpression) -> str:
    if isinstance(func, cst.Attribute):
        return func.attr.value
    return func.value if isinstance(func, cst.Name) else ""


def live_cost(obj: Any) -> str:
    """The cost of a live dataset object, from its class (and that class's ``__getitem__`` source)."""
    names = [f"{c.__module__}.{c.__qualname__}" for c in type(obj).__mro__]
    if any(n.startswith("torch.utils.data.dataset.TensorDataset") for n in names):
        return IN_MEMORY
    if any(n.startswith(("torchvision.datasets.", "torchaudio.datasets.")) for n in names):
        return COSTLY
    if isinstance(obj, (list, tuple, range)) or type(obj).__name__ in ("Tensor", "ndarray"):
        return IN_MEMORY
    getitem = getattr(type(obj), "__getitem__", None)
    try:
        source = textwrap.dedent(inspect.getsource(getitem))  # type: ignore[arg-type]
        module = parse_module(f"class _D:\n{textwrap.indent(source, '    ')}")
    except (OSError, TypeError, ValueError, cst.ParserSyntaxError):
        return UNKNOWN
    first = module.body[0]
    return class_cost(first) if isinstance(first, cst.ClassDef) else UNKNOWN


def literal_int(facts: Facts, node: cst.BaseExpression | None) -> int | None:
    """An integer written in the code, directly or through a name assigned one (``batch_size = 2``)."""
    if node is None:
        return None
    if isinstance(node, cst.Name):
        node = _assigned(facts, node.value)
    if node is not None and is_number(node) and isinstance(node, cst.Integer):
        try:
            return int(node.evaluated_value)
        except ValueError:
            return None
    return None


# Random draws a sample may make: in worker processes they come from other streams (NumPy's and
# Python's generators are forked as they stand, so every worker repeats the same draws).
_RANDOM_PREFIXES = ("np.random.", "numpy.random.", "random.", "torch.rand", "torch.normal", "torch.bernoulli",
                    "torch.multinomial", "torch.poisson")


def random_draw(facts: Facts, node: cst.BaseExpression | None) -> str | None:
    """The first random draw (``np.random.normal``) the dataset ``node``'s ``__getitem__`` makes,
    for a Dataset class of the notebook or a live dataset object; None when it makes none or the
    method cannot be read."""
    getitem = _getitem_of(facts, node)
    if getitem is None:
        return None
    for n in walk_all(getitem.body):
        if isinstance(n, cst.Call):
            name = _dotted(n.func)
            if name.startswith(_RANDOM_PREFIXES) or name.endswith((".random_", ".normal_", ".uniform_")):
                return name
    return None


def _getitem_of(facts: Facts, node: cst.BaseExpression | None) -> cst.FunctionDef | None:
    cls: cst.ClassDef | None = None
    if isinstance(node, cst.Call) and isinstance(node.func, cst.Name):
        sym = facts.symbols.get(node.func.value)
        cls = sym.node if sym is not None and isinstance(sym.node, cst.ClassDef) else None
    elif isinstance(node, cst.Name):
        sym = facts.symbol(node)
        obj = sym.obj if sym is not None and sym.obj is not None else facts.names.live(node.value)
        if obj is not None:
            try:
                source = textwrap.dedent(inspect.getsource(type(obj).__getitem__))
                module = parse_module(f"class _D:\n{textwrap.indent(source, '    ')}")
            except (OSError, TypeError, ValueError, AttributeError, cst.ParserSyntaxError):
                return None
            first = module.body[0]
            cls = first if isinstance(first, cst.ClassDef) else None
        else:
            value = _assigned(facts, node.value)
            return _getitem_of(facts, value) if isinstance(value, cst.Call) else None
    if cls is None:
        return None
    return next((s for s in cls.body.body if isinstance(s, cst.FunctionDef) and s.name.value == "__getitem__"), None)


def _dotted(func: cst.BaseExpression) -> str:
    parts: list[str] = []
    while isinstance(func, cst.Attribute):
        parts.append(func.attr.value)
        func = func.value
    if isinstance(func, cst.Name):
        parts.append(func.value)
        return ".".join(reversed(parts))
    return "." + ".".join(reversed(parts))  # obj().normal_(): the method alone
