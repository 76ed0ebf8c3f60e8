"""Strict equality of NumPy arrays and scalars, pandas objects and torch tensors (see :mod:`.compare`).

Arrays: the same shape and dtype, then the values (floats within the tolerance of their dtype, NaN and
NaT equal to themselves, object elements compared one by one like any value). pandas: the index and
columns as values of their own (type, dtype, names, time zone, frequency, labels), each column's
dtype, categories and order, the Series name and ``attrs``. torch: dtype, shape, device,
``requires_grad``, then the values; modules and optimizers by their ``state_dict()`` (and modules'
training flags). Memory layout (strides, contiguity) is not compared. numpy, pandas and torch are
only looked up in ``sys.modules``: this module never imports them.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any

from .differences import ATOL32, ATOL64, FAST, RTOL32, RTOL64, Difference, short

if TYPE_CHECKING:
    from .compare import Comparer


# what a class that only renames its base defines of its own (a deprecated alias and its __init__)
_ALIAS_OWN = frozenset({"__module__", "__doc__", "__init__", "__qualname__", "__firstlineno__",
                        "__static_attributes__"})


def equiv_types(a: Any, b: Any) -> bool:
    """A RangeIndex and an int64 Index hold the same kind of labels (pandas' own "equiv"); a
    deprecated alias and the class it renames (``torch.cuda.amp.GradScaler``, a subclass of
    ``torch.amp.GradScaler`` with only an ``__init__`` of its own) behave alike once made, and
    compare by their state."""
    if alias_of(type(a), type(b)) or alias_of(type(b), type(a)):
        return True
    pd = sys.modules.get("pandas")
    if pd is None or not isinstance(a, pd.Index) or not isinstance(b, pd.Index):
        return False
    kinds = {type(a), type(b)}
    return pd.RangeIndex in kinds and kinds <= {pd.RangeIndex, pd.Index} and a.dtype == b.dtype


def alias_of(sub: type, base: type) -> bool:
    """``sub`` is ``base`` renamed: the same name, a direct subclass defining nothing but ``__init__``."""
    return (sub is not base and sub.__name__ == base.__name__ and sub.__bases__ == (base,)
            and set(vars(sub)) <= _ALIAS_OWN)


def compare_data(c: Comparer, a: Any, b: Any, where: str) -> bool:
    """Compare ``a`` and ``b`` (the same type) when they are NumPy, pandas or torch values; False otherwise."""
    np, pd, torch = (sys.modules.get(m) for m in ("numpy", "pandas", "torch"))
    if pd is not None:
        if isinstance(a, pd.DataFrame):
            return _frame(c, pd, a, b, where)
        if isinstance(a, pd.Series):
            return _series(c, pd, a, b, where)
        if isinstance(a, pd.Index):
            return _index(c, pd, a, b, where)
        if isinstance(a, pd.Categorical):
            return _categorical(c, pd, a, b, where)
    if np is not None:
        if isinstance(a, np.ndarray):
            _shape_dtype(a, b, where)
            _values(c, np, a, b, where)
            return True
        if isinstance(a, np.generic):
            if a.dtype != b.dtype:
                raise Difference(dtype_changed(where, a.dtype, b.dtype))
            _values(c, np, np.asarray(a), np.asarray(b), where)
            return True
    if torch is not None and isinstance(a, torch.Tensor):
        return _tensor(c, np, torch, a, b, where)
    if torch is not None and isinstance(a, torch.nn.Module):  # by what it documents as its state
        c.eq([m.training for m in a.modules()], [m.training for m in b.modules()], f"{where} (training flags)")
        c.eq(a.state_dict(), b.state_dict(), f"{where}.state_dict()")
        return True
    if torch is not None and isinstance(a, torch.optim.Optimizer):
        c.eq(a.state_dict(), b.state_dict(), f"{where}.state_dict()")
        return True
    return False


def dtype_changed(where: str, da: Any, db: Any) -> str:
    kinds = (getattr(da, "kind", ""), getattr(db, "kind", ""))
    why = " (int became float)" if kinds[0] in "iu" and kinds[1] == "f" and all(kinds) else ""
    return f"{where}: dtype {da} became {db}{why}"


def _shape_dtype(a: Any, b: Any, where: str) -> None:
    if tuple(a.shape) != tuple(b.shape):
        raise Difference(f"{where}: shape {tuple(a.shape)} became {tuple(b.shape)}")
    if a.dtype != b.dtype:
        raise Difference(dtype_changed(where, a.dtype, b.dtype))


def _mismatch(c: Comparer, np: Any, a: Any, b: Any) -> tuple[int, ...] | None:
    """The first position where two arrays of the same shape and dtype differ, or None."""
    kind = a.dtype.kind
    if kind in "fc":
        narrow = a.dtype.itemsize < (16 if kind == "c" else 8)
        rtol, atol = (RTOL32, ATOL32) if narrow else (RTOL64, ATOL64)
        ok = np.isclose(a, b, rtol=rtol, atol=atol, equal_nan=True)
    elif kind in "mM":
        ok = (a == b) | (np.isnat(a) & np.isnat(b))
    elif kind == "O":
        fa, fb = a.ravel(), b.ravel()
        kinds = list(map(type, fa))
        if kinds == list(map(type, fb)) and FAST.issuperset(kinds):
            ok = np.asarray(fa == fb, dtype=bool).reshape(a.shape)
        else:
            ok = np.array([c.same(x, y) for x, y in zip(fa, fb, strict=True)], dtype=bool).reshape(a.shape)
    elif kind == "V" and a.dtype.names:
        ok = np.ones(a.shape, dtype=bool)
        for name in a.dtype.names:
            sub = _mismatch(c, np, a[name], b[name])
            if sub is not None:
                return sub
    elif kind == "V":
        ok = np.array([x.tobytes() == y.tobytes() for x, y in zip(a.ravel(), b.ravel(), strict=True)], dtype=bool)
        ok = ok.reshape(a.shape)
    else:
        ok = np.asarray(a == b)
    if ok.shape != a.shape:  # a comparison that could not be done element by element
        return ()
    if ok.all():
        return None
    return tuple(int(i) for i in np.argwhere(~ok)[0])


def _values(c: Comparer, np: Any, a: Any, b: Any, where: str) -> None:
    pos = _mismatch(c, np, a, b)
    if pos is not None:
        x, y = (a[pos], b[pos]) if pos or a.ndim == 0 else (a, b)
        raise Difference(f"{where}{list(pos) if pos else ''}: {short(x)} != {short(y)}")


def _tensor(c: Comparer, np: Any, torch: Any, a: Any, b: Any, where: str) -> bool:
    _shape_dtype(a, b, where)
    for what in ("device", "requires_grad", "layout"):
        va, vb = getattr(a, what), getattr(b, what)
        if va != vb:
            raise Difference(f"{where}: {what} {va} became {vb}")
    xa, xb = a.detach().cpu(), b.detach().cpu()
    if xa.layout != torch.strided:
        xa, xb = xa.to_dense(), xb.to_dense()
    narrow = a.dtype in (torch.float16, torch.bfloat16, torch.float32)
    if a.dtype in (torch.float16, torch.bfloat16):
        xa, xb = xa.float(), xb.float()
    na, nb = xa.numpy(), xb.numpy()
    if narrow:
        ok = np.isclose(na, nb, rtol=RTOL32, atol=ATOL32, equal_nan=True)
        if not ok.all():
            pos = tuple(int(i) for i in np.argwhere(~ok)[0])
            raise Difference(f"{where}{list(pos)}: {short(na[pos])} != {short(nb[pos])}")
    else:
        _values(c, np, na, nb, where)
    return True


# --- pandas -----------------------------------------------------------------------------------


def _frame(c: Comparer, pd: Any, a: Any, b: Any, where: str) -> bool:
    if a.shape != b.shape:
        raise Difference(f"{where}: shape {a.shape} became {b.shape}")
    _index(c, pd, a.columns, b.columns, f"{where}.columns")
    _index(c, pd, a.index, b.index, f"{where}.index")
    for i, col in enumerate(a.columns):
        _column(c, pd, a.iloc[:, i], b.iloc[:, i], f"{where}[{short(col)}]")
    c.eq(a.attrs, b.attrs, f"{where}.attrs")
    return True


def _series(c: Comparer, pd: Any, a: Any, b: Any, where: str) -> bool:
    if len(a) != len(b):
        raise Difference(f"{where}: length {len(a)} became {len(b)}")
    if not c.same(a.name, b.name):
        raise Difference(f"{where}: name {short(a.name)} became {short(b.name)}")
    _index(c, pd, a.index, b.index, f"{where}.index")
    _column(c, pd, a, b, where)
    c.eq(a.attrs, b.attrs, f"{where}.attrs")
    return True


def _column(c: Comparer, pd: Any, a: Any, b: Any, where: str) -> None:
    if isinstance(a.dtype, pd.CategoricalDtype) and isinstance(b.dtype, pd.CategoricalDtype):
        _categorical(c, pd, a.array, b.array, where)
        return
    if a.dtype != b.dtype:
        raise Difference(dtype_changed(where, a.dtype, b.dtype))
    np = sys.modules["numpy"]
    va, vb = _as_numpy(np, a), _as_numpy(np, b)
    pos = _mismatch(c, np, va, vb)
    if pos is not None:
        i = pos[0] if pos else 0
        raise Difference(f"{where} at row {short(a.index[i])}: {short(a.iloc[i])} != {short(b.iloc[i])}")


def _as_numpy(np: Any, s: Any) -> Any:
    """The values of a Series or Index as one NumPy array of the same kind on both sides."""
    pd = sys.modules["pandas"]
    if isinstance(s, pd.MultiIndex):
        out = np.empty(len(s), dtype=object)
        out[:] = list(s)  # its labels, as tuples
        return out
    values = s.array
    if hasattr(values, "asi8"):  # datetimes (the time zone is in the dtype), timedeltas, periods
        return np.asarray(values.asi8)
    raw = values if isinstance(values, np.ndarray) else getattr(values, "_ndarray", None)
    if isinstance(raw, np.ndarray):
        return raw
    out = np.empty(len(values), dtype=object)
    out[:] = list(values)  # extension values (NA, strings, intervals) as Python objects
    return out


def _index(c: Comparer, pd: Any, a: Any, b: Any, where: str) -> bool:
    """Index and MultiIndex: type, length, names, levels, dtype, frequency, then the labels."""
    if type(a) is not type(b):
        c.type_changed(a, b, where)
    if len(a) != len(b):
        raise Difference(f"{where}: length {len(a)} became {len(b)}")
    if a.nlevels != b.nlevels:
        raise Difference(f"{where}: {a.nlevels} levels became {b.nlevels}")
    if not c.same(list(a.names), list(b.names)):
        raise Difference(f"{where}: names {list(a.names)} became {list(b.names)}")
    if isinstance(a, pd.MultiIndex):
        for level in range(a.nlevels):
            la, lb = a.get_level_values(level), b.get_level_values(level)
            if la.dtype != lb.dtype:
                raise Difference(dtype_changed(f"{where} level {level}", la.dtype, lb.dtype))
    if isinstance(a.dtype, pd.CategoricalDtype) and isinstance(b.dtype, pd.CategoricalDtype):
        return _categorical(c, pd, a.array, b.array, where)
    elif a.dtype != b.dtype:
        raise Difference(dtype_changed(where, a.dtype, b.dtype))
    if getattr(a, "freq", None) != getattr(b, "freq", None):
        raise Difference(f"{where}: freq {getattr(a, 'freq', None)} became {getattr(b, 'freq', None)}")
    if a.equals(b):
        return True
    np = sys.modules["numpy"]
    pos = _mismatch(c, np, _as_numpy(np, a), _as_numpy(np, b))
    if pos is not None:
        i = pos[0] if pos else 0
        raise Difference(f"{where}[{i}]: {short(a[i])} != {short(b[i])}")
    return True


def _categorical(c: Comparer, pd: Any, a: Any, b: Any, where: str) -> bool:
    if len(a) != len(b):
        raise Difference(f"{where}: length {len(a)} became {len(b)}")
    ca, cb = a.categories, b.categories
    if bool(a.ordered) != bool(b.ordered):
        raise Difference(f"{where}: ordered {bool(a.ordered)} became {bool(b.ordered)}")
    if len(ca) != len(cb) or ca.dtype != cb.dtype or not ca.equals(cb):
        raise Difference(f"{where}: categories {short(list(ca))} became {short(list(cb))}")
    np = sys.modules["numpy"]
    codes_a, codes_b = np.asarray(a.codes), np.asarray(b.codes)
    if not np.array_equal(codes_a, codes_b):
        i = int(np.argwhere(codes_a != codes_b)[0][0])
        raise Difference(f"{where}[{i}]: {short(a[i])} != {short(b[i])}")
    return True
