"""Type-aware equality of two runs' results, with the first difference spelled out.

Tolerances: exact for ints, bools, strings, bytes and objects; floats match when
``|a - b| <= atol + rtol * |b|`` with rtol=1e-7, atol=1e-12 for 64-bit floats and rtol=1e-6,
atol=1e-7 when either side is 32-bit or lower (a float32 rewrite of float64 code is accepted),
NaN equal to NaN (and pandas' NA/NaT to themselves). A list that became a NumPy array of the same
values, or a numeric column whose dtype changed (int64 -> float64), is equal, with a note.
DataFrames must have the same index and the same columns in the same order. pandas ``Index`` and
``MultiIndex`` compare label by label (and by names); categoricals compare by label, and their
categories (and order flag) must match.
"""

from __future__ import annotations

import io
import math
import sys
import types
from typing import Any

RTOL64, ATOL64 = 1e-7, 1e-12
RTOL32, ATOL32 = 1e-6, 1e-7
TOLERANCES = (
    f"floats: rtol={RTOL64:g}, atol={ATOL64:g} (float64); rtol={RTOL32:g}, atol={ATOL32:g} "
    "when float32/float16 is involved; NaN equals NaN; exact otherwise"
)


class Difference(Exception):
    pass


def first_difference(before: Any, after: Any, name: str, notes: list[str]) -> str | None:
    """None when equal, else a sentence naming the value, the position and both values."""
    try:
        _eq(before, after, name, notes)
    except Difference as d:
        return str(d)
    return None


def _short(v: Any) -> str:
    text = repr(v)
    return text if len(text) <= 80 else text[:77] + "..."


def _eq(a: Any, b: Any, where: str, notes: list[str]) -> None:
    np = sys.modules.get("numpy")
    pd = sys.modules.get("pandas")
    torch = sys.modules.get("torch")
    if pd is not None and isinstance(a, (pd.DataFrame, pd.Series)):
        return _frames(pd, np, a, b, where, notes)
    if pd is not None and isinstance(a, (pd.Index, pd.Categorical)):
        return _index(pd, np, a, b, where, notes)
    if pd is not None and _both_missing(pd, a, b):
        return None
    if torch is not None and (isinstance(a, torch.Tensor) or isinstance(b, torch.Tensor)):
        if not (isinstance(a, torch.Tensor) and isinstance(b, torch.Tensor)):
            raise Difference(f"{where}: {type(a).__name__} became {type(b).__name__}")
        return _arrays(np, a.detach().cpu().numpy(), b.detach().cpu().numpy(), where, notes)
    if np is not None and (isinstance(a, np.ndarray) or isinstance(b, np.ndarray)):
        if not isinstance(a, np.ndarray) or not isinstance(b, np.ndarray):
            if isinstance(a, (list, tuple)) or isinstance(b, (list, tuple)):
                notes.append(f"{where}: {type(a).__name__} became {type(b).__name__} with the same values")
            else:
                raise Difference(f"{where}: {type(a).__name__} became {type(b).__name__}")
        return _arrays(np, np.asarray(a), np.asarray(b), where, notes)
    if _is_number(a) and _is_number(b):
        return _numbers(a, b, where, _narrow(a) or _narrow(b))
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        if type(a) is not type(b):
            raise Difference(f"{where}: {type(a).__name__} became {type(b).__name__}")
        if len(a) != len(b):
            raise Difference(f"{where}: length {len(a)} became {len(b)}")
        try:
            if a == b:  # fast path in C for the common case
                return None
        except Exception:
            pass
        for i, (x, y) in enumerate(zip(a, b, strict=False)):
            _eq(x, y, f"{where}[{i}]", notes)
        return None
    if isinstance(a, dict) and isinstance(b, dict):
        if list(a) != list(b):
            extra = set(a) ^ set(b)
            raise Difference(f"{where}: keys differ ({_short(sorted(map(repr, extra))[:5]) if extra else 'order'})")
        for k in a:
            _eq(a[k], b[k], f"{where}[{k!r}]", notes)
        return None
    if type(a) is not type(b):
        raise Difference(f"{where}: {type(a).__name__} became {type(b).__name__}")
    if is_handle(a):  # a lock, file or connection compares by identity: its state is not the result
        return None
    try:
        same = a == b
        if isinstance(same, bool):
            if not same and type(a).__eq__ is object.__eq__ and hasattr(a, "__dict__"):
                return _eq(vars(a), vars(b), f"{where}.__dict__", notes)
            if not same:
                raise Difference(f"{where}: {_short(a)} != {_short(b)}")
            return None
    except Difference:
        raise
    except Exception:
        pass
    raise Difference(f"{where}: values of type {type(a).__name__} cannot be compared")


HANDLE_MODULES = frozenset(
    {"_thread", "threading", "socket", "_socket", "sqlite3", "_sqlite3", "multiprocessing", "logging"}
    | {"ipywidgets", "matplotlib", "plotly", "IPython", "tqdm"}  # what a cell shows, not what it computes
)


def is_handle(value: Any) -> bool:
    """Files, iterators, locks, connections, loggers, widgets, figures: not the values a rewrite must keep."""
    if isinstance(value, (io.IOBase, types.GeneratorType, types.CoroutineType, types.AsyncGeneratorType)):
        return True
    if type(value).__module__.split(".")[0] in HANDLE_MODULES:
        return True
    try:
        return iter(value) is value  # an iterator: consumed, not compared
    except TypeError:
        return False


def _is_number(v: Any) -> bool:
    np = sys.modules.get("numpy")
    return isinstance(v, (int, float)) or (np is not None and isinstance(v, np.number))


def _narrow(v: Any) -> bool:
    np = sys.modules.get("numpy")
    return np is not None and isinstance(v, np.floating) and v.dtype.itemsize < 8


def _numbers(a: Any, b: Any, where: str, narrow: bool) -> None:
    if (isinstance(a, (bool, int)) and isinstance(b, (bool, int))) or (_is_int(a) and _is_int(b)):
        if int(a) != int(b):
            raise Difference(f"{where}: {a!r} != {b!r}")
        return
    fa, fb = float(a), float(b)
    if math.isnan(fa) and math.isnan(fb):
        return
    rtol, atol = (RTOL32, ATOL32) if narrow else (RTOL64, ATOL64)
    if not abs(fa - fb) <= atol + rtol * abs(fb):
        raise Difference(f"{where}: {a!r} != {b!r} (beyond rtol={rtol:g}, atol={atol:g})")


def _is_int(v: Any) -> bool:
    np = sys.modules.get("numpy")
    return isinstance(v, int) or (np is not None and isinstance(v, np.integer))


def _arrays(np: Any, a: Any, b: Any, where: str, notes: list[str]) -> None:
    if a.shape != b.shape:
        raise Difference(f"{where}: shape {a.shape} became {b.shape}")
    if a.dtype != b.dtype:
        notes.append(f"{where}: dtype {a.dtype} became {b.dtype}")
    numeric = a.dtype.kind in "fciub" and b.dtype.kind in "fciub"
    if numeric and (a.dtype.kind in "fc" or b.dtype.kind in "fc"):
        narrow = min(a.dtype.itemsize, b.dtype.itemsize) < 8 and "f" in (a.dtype.kind, b.dtype.kind)
        rtol, atol = (RTOL32, ATOL32) if narrow else (RTOL64, ATOL64)
        ok = np.isclose(a, b, rtol=rtol, atol=atol, equal_nan=True)
    elif a.dtype.kind == "O" or b.dtype.kind == "O":  # element by element: NA, tuples, mixed objects
        pairs = zip(a.ravel(), b.ravel(), strict=True)
        ok = np.array([_same_obj(x, y) for x, y in pairs], dtype=bool).reshape(a.shape)
    elif numeric or a.dtype.kind == b.dtype.kind:
        ok = np.asarray(a == b)
    else:
        raise Difference(f"{where}: dtype {a.dtype} became {b.dtype}")
    if ok.shape != a.shape or not ok.all():
        pos = tuple(int(i) for i in np.argwhere(~ok)[0]) if ok.shape == a.shape else ()
        raise Difference(f"{where}{list(pos)}: {_short(a[pos])} != {_short(b[pos])}")
    return None


def _same_obj(x: Any, y: Any) -> bool:
    try:
        _eq(x, y, "", [])
    except Difference:
        return False
    return True


def _frames(pd: Any, np: Any, a: Any, b: Any, where: str, notes: list[str]) -> None:
    if type(a) is not type(b):
        raise Difference(f"{where}: {type(a).__name__} became {type(b).__name__}")
    if a.shape != b.shape:
        raise Difference(f"{where}: shape {a.shape} became {b.shape}")
    if not a.index.equals(b.index):
        pos = next((i for i, (x, y) in enumerate(zip(a.index, b.index, strict=False)) if x != y), 0)
        raise Difference(f"{where}: index differs at position {pos} ({_short(a.index[pos])} vs {_short(b.index[pos])})")
    if isinstance(a, pd.Series):
        return _column(np, a, b, where, notes)
    if list(a.columns) != list(b.columns):
        raise Difference(f"{where}: columns {list(a.columns)} became {list(b.columns)}")
    for col in a.columns:
        _column(np, a[col], b[col], f"{where}[{col!r}]", notes)
    return None


def _index(pd: Any, np: Any, a: Any, b: Any, where: str, notes: list[str]) -> None:
    """Index, MultiIndex and Categorical values: labels in order, then names and categories."""
    kind = pd.Categorical if isinstance(a, pd.Categorical) else pd.Index
    if not isinstance(b, kind):
        raise Difference(f"{where}: {type(a).__name__} became {type(b).__name__}")
    if len(a) != len(b):
        raise Difference(f"{where}: length {len(a)} became {len(b)}")
    if isinstance(a, pd.MultiIndex) != isinstance(b, pd.MultiIndex) or a.ndim != b.ndim:
        raise Difference(f"{where}: {type(a).__name__} became {type(b).__name__}")
    if isinstance(a, pd.MultiIndex) and a.nlevels != b.nlevels:
        raise Difference(f"{where}: {a.nlevels} levels became {b.nlevels}")
    if kind is pd.Index and list(a.names) != list(b.names):
        raise Difference(f"{where}: names {list(a.names)} became {list(b.names)}")
    _categories(a.dtype, b.dtype, where, notes)
    if a.dtype != b.dtype and getattr(a.dtype, "categories", None) is None:
        notes.append(f"{where}: dtype {a.dtype} became {b.dtype}")
    if a.equals(b):
        return None
    _arrays(np, _labels(np, a), _labels(np, b), where, notes)
    return None


def _labels(np: Any, values: Any) -> Any:
    out = np.empty(len(values), dtype=object)
    out[:] = list(values)  # tuples of a MultiIndex stay tuples, categories become their labels
    return out


def _categories(da: Any, db: Any, where: str, notes: list[str]) -> None:
    ca, cb = getattr(da, "categories", None), getattr(db, "categories", None)
    if ca is None and cb is None:
        return
    if ca is None or cb is None:
        notes.append(f"{where}: dtype {da} became {db}")
        return
    if list(ca) != list(cb) or bool(da.ordered) != bool(db.ordered):
        raise Difference(f"{where}: categories {_short(list(ca))} became {_short(list(cb))}")


def _both_missing(pd: Any, a: Any, b: Any) -> bool:
    try:
        return bool(pd.api.types.is_scalar(a) and pd.api.types.is_scalar(b) and pd.isna(a) and pd.isna(b))
    except (TypeError, ValueError):
        return False


def _column(np: Any, a: Any, b: Any, where: str, notes: list[str]) -> None:
    if hasattr(a, "cat") and hasattr(b, "dtype"):
        _categories(a.dtype, b.dtype, where, notes)
    try:
        _arrays(np, a.to_numpy(), b.to_numpy(), where, notes)
    except Difference as d:
        text = str(d)
        if "[" in text[len(where) :]:  # name the row label rather than the position
            pos = int(text[len(where) :].split("[", 1)[1].split("]", 1)[0].split(",")[0] or 0)
            raise Difference(f"{where} at row {a.index[pos]!r}: {_short(a.iloc[pos])} != {_short(b.iloc[pos])}") from d
        raise
