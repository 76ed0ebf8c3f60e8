"""What a live object is and how big, read without touching its data or running the user's code.

``measure`` gives the size the rules weigh a trap by ("rows" of a frame, "items" of a container,
"elements" of an array); ``describe`` the same with the words a person reads ("ndarray of 1,000,000
float64", "DataFrame of 4,000 rows x 5 columns", "list of 179 str", "Tensor (64, 128) float32
requires_grad", "DataLoader num_workers=0 batch_size=32"). Both read lengths, shapes, dtypes and a
container's first item only; neither imports pandas, NumPy or torch (types are recognised by their
qualified names), so they are safe on the sampler's thread while the cell runs.

``describe(..., user_code=False)`` (the sampler's way) never calls a method the user wrote: the size
of a user's ``Dataset`` is left out rather than asked of its ``__len__``. Imports nothing of aiperf.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from .usercode import is_user_code_type

_CONTAINERS = (list, tuple, set, frozenset, dict, range)
_DATA = ("container", "frame", "series", "array", "tensor")


@dataclass(frozen=True)
class Described:
    text: str  # "ndarray of 1,000,000 float64"
    type: str  # the qualified type name: "numpy.ndarray", "pandas.DataFrame"
    unit: str | None = None  # "rows", "items", "elements" or None (no size)
    size: int | None = None


def qualnames(obj: Any) -> set[str]:
    """"module.Class" of the object's type and its bases."""
    try:
        return {f"{c.__module__}.{c.__qualname__}" for c in type(obj).__mro__}
    except Exception:
        return set()


def kind(obj: Any) -> str | None:
    """"frame", "series", "array", "tensor", "container", "loader", "dataset", "module" or None."""
    if isinstance(obj, _CONTAINERS):
        return "container"
    names = qualnames(obj)
    if any(n.startswith("pandas.") and n.endswith(".DataFrame") for n in names):
        return "frame"
    if any(n.startswith("pandas.") and n.endswith(".Series") for n in names):
        return "series"
    if "numpy.ndarray" in names:
        return "array"
    if "torch.Tensor" in names:
        return "tensor"
    if "torch.utils.data.dataloader.DataLoader" in names:
        return "loader"
    if "torch.utils.data.dataset.Dataset" in names or any(n.startswith("torch.utils.data.") for n in names):
        return "dataset"
    if "torch.nn.modules.module.Module" in names:
        return "module"
    return None


def measure(obj: Any) -> tuple[str | None, int]:
    """("rows", n) for frames and series, ("items", n) for Python containers and datasets,
    ("elements", n) for arrays and tensors; (None, 0) for anything else. Reads sizes only."""
    try:
        k = kind(obj)
        if k == "container":
            return "items", len(obj)
        if k in ("frame", "series"):
            return "rows", len(obj)
        if k == "array":
            return "elements", int(obj.size)
        if k == "tensor":
            return "elements", int(obj.numel())
        if k in ("loader", "dataset") and hasattr(obj, "__len__"):
            return "items", len(obj)
    except Exception:  # an object whose size raises is simply not evidence
        return None, 0
    return None, 0


def describe(obj: Any, *, user_code: bool = True) -> Described | None:
    """The object in words with its size, or None for what is not data (functions, modules, numbers)."""
    try:
        return _describe(obj, kind(obj), user_code)
    except Exception:  # an object that cannot be read is simply not described
        return None


def _describe(obj: Any, k: str | None, user_code: bool) -> Described | None:
    cls = type(obj)
    tname = f"{cls.__module__}.{cls.__qualname__}" if cls.__module__ != "builtins" else cls.__qualname__
    if not user_code and k in _DATA and cls.__module__ != "builtins" and is_user_code_type(cls):
        return Described(cls.__name__, tname)  # the user's own subclass: its len() may be the user's code
    if k == "container":
        n = len(obj)
        first = _first(obj) if n else None
        of = "" if first is None else " " + _item_name(first)
        if isinstance(obj, dict) and n:
            of += f" -> {_item_name(next(iter(obj.values())))}"
        return Described(f"{cls.__name__} of {n:,}{of}", tname, "items", n)
    if k == "frame":
        rows, cols = (int(v) for v in obj.shape)
        return Described(f"DataFrame of {rows:,} rows x {cols:,} columns", tname, "rows", rows)
    if k == "series":
        return Described(f"Series of {len(obj):,} {obj.dtype}", tname, "rows", len(obj))
    if k == "array":
        size, shape = int(obj.size), tuple(int(d) for d in obj.shape)
        dims = "" if len(shape) == 1 else " (" + " x ".join(f"{d:,}" for d in shape) + ")"
        return Described(f"ndarray of {size:,} {obj.dtype}{dims}", tname, "elements", size)
    if k == "tensor":
        return _tensor(obj, tname)
    if k == "loader":
        return _loader(obj, tname, user_code)
    if k == "dataset":
        length = _safe_len(obj, user_code)
        text = f"{cls.__name__} (Dataset)" + ("" if length is None else f" of {length:,} items")
        return Described(text, tname, "items" if length is not None else None, length)
    if k == "module":
        mode = "training" if getattr(obj, "training", False) else "eval"
        return Described(f"{cls.__name__} (torch Module, {mode})", tname)
    return None


def _tensor(obj: Any, tname: str) -> Described:
    shape = tuple(int(d) for d in obj.shape)
    dtype = str(obj.dtype).removeprefix("torch.")
    parts = [f"Tensor {shape if len(shape) != 1 else f'({shape[0]:,})'} {dtype}"]
    device = str(obj.device)
    if device != "cpu":
        parts.append(device)
    if obj.requires_grad:
        parts.append("requires_grad")
    numel = math.prod(shape)
    return Described(" ".join(parts), tname, "elements", numel)


def _loader(obj: Any, tname: str, user_code: bool) -> Described:
    dataset = getattr(obj, "dataset", None)
    n = _safe_len(dataset, user_code) if dataset is not None else None
    parts = [f"DataLoader num_workers={getattr(obj, 'num_workers', '?')}",
             f"batch_size={getattr(obj, 'batch_size', '?')}"]
    if dataset is not None:
        parts.append(f"over {type(dataset).__name__}" + ("" if n is None else f" of {n:,} items"))
    return Described(" ".join(parts), tname, "items" if n is not None else None, n)


def _safe_len(obj: Any, user_code: bool) -> int | None:
    """len(obj), unless that would run a ``__len__`` the user wrote and ``user_code`` is False."""
    if not user_code and is_user_code_type(type(obj)):
        return None
    try:
        return len(obj)
    except Exception:
        return None


def _first(obj: Any) -> Any:
    if isinstance(obj, (list, tuple, range)):
        return obj[0]
    return next(iter(obj))  # one step of a set or dict: no walk


def _item_name(value: Any) -> str:
    k = kind(value)
    if k in ("frame", "series", "array", "tensor"):
        return {"frame": "DataFrame", "series": "Series", "array": "ndarray", "tensor": "Tensor"}[k]
    return type(value).__name__
