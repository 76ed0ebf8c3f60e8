"""Strict, type-aware equality of two runs' results, with the first difference spelled out.

"Equal" means equal in everything a user can observe of a value: its type (a ``dict`` that became a
``defaultdict``, a list that became an array, an int that became a float are differences), NumPy,
pandas and torch metadata (:mod:`.compare_arrays`), its state where it has no ``__eq__`` of its own
(:mod:`.state`), and its contents. :data:`.differences.TOLERANCES` is the one statement of what is
not exact; every Try's notes quote it.
"""

from __future__ import annotations

import array
import collections
import datetime
import decimal
import io
import sys
import types
from dataclasses import dataclass, field, is_dataclass
from typing import Any

from .compare_arrays import compare_data, equiv_types
from .differences import (
    ATOL32,
    ATOL64,
    FAST,
    RTOL32,
    RTOL64,
    TOLERANCES,
    Difference,
    numbers,
    short,
    trim,
    type_name,
)
from .state import rng_state, state_of

__all__ = ["TOLERANCES", "Difference", "Drained", "first_difference", "is_handle", "short", "trim", "type_name"]

EXACT = (str, bytes, bytearray, bool, type(None), range, slice, type(Ellipsis), type(NotImplemented))
BY_REPR = (datetime.date, datetime.time, datetime.timedelta, datetime.tzinfo, decimal.Decimal)


@dataclass(eq=False)
class Drained:
    """An iterator's items, read in a disposable copy after the cell ran.

    ``complete``: it ran out (or raised ``error``); otherwise reading stopped at a bound, and only
    the items read are compared.
    """

    kind: str
    items: list[Any] = field(default_factory=list)
    complete: bool = True
    error: str | None = None


def first_difference(before: Any, after: Any, name: str, notes: list[str]) -> str | None:
    """None when equal, else a sentence naming the value, the position and both values. Never raises."""
    try:
        Comparer(notes).eq(before, after, name)
    except Difference as d:
        return str(d)
    except RecursionError:
        return f"{name}: nested too deeply to compare"
    except BaseException as exc:  # a value's own methods may raise anything (or be refused): not equal, say why
        if isinstance(exc, KeyboardInterrupt):
            raise
        return f"{name}: could not be compared ({type(exc).__name__}: {trim(str(exc))})"
    return None


class Comparer:
    """One comparison: the pairs in progress (cycles compare equal where they close) and those done."""

    def __init__(self, notes: list[str]) -> None:
        self.notes = notes
        self.active: set[tuple[int, int]] = set()
        self.done: set[tuple[int, int]] = set()

    def same(self, a: Any, b: Any) -> bool:
        try:
            self.eq(a, b, "")
        except Difference:
            return False
        return True

    def eq(self, a: Any, b: Any, where: str) -> None:
        if a is b:
            return
        if type(a) is not type(b):
            self.type_changed(a, b, where)
        if isinstance(a, EXACT):
            if a != b:
                raise Difference(f"{where}: {short(a)} != {short(b)}")
            return
        if isinstance(a, (int, float, complex)):
            return numbers(a, b, where, narrow=False)
        key = (id(a), id(b))
        if key in self.active or key in self.done:
            return
        self.active.add(key)
        try:
            self._container(a, b, where)
        finally:
            self.active.discard(key)
        self.done.add(key)

    def type_changed(self, a: Any, b: Any, where: str) -> None:
        if equiv_types(a, b):
            return
        if a is None or b is None:
            raise Difference(f"{where}: {short(a)} became {short(b)}")
        na, nb = type_name(a), type_name(b)
        if na == nb:  # same name, other class (torch.cuda.amp.GradScaler vs torch.amp.GradScaler)
            na, nb = (f"{type(v).__module__}.{type(v).__qualname__}" for v in (a, b))
        if isinstance(a, int) and not isinstance(a, bool) and isinstance(b, float):
            raise Difference(f"{where}: int became float ({short(a)} vs {short(b)})")
        hint = ""
        try:
            same = a == b
            if bool(same.all() if hasattr(same, "all") else same):
                scalar = isinstance(a, (int, float, complex)) or getattr(a, "ndim", None) == 0
                hint = " (same value)" if scalar else " (same values)"
        except Exception:
            pass
        raise Difference(f"{where}: {na} became {nb}{hint}")

    def _container(self, a: Any, b: Any, where: str) -> None:
        if compare_data(self, a, b, where):
            return
        if isinstance(a, (list, tuple, collections.deque, array.array)):
            if getattr(a, "maxlen", None) != getattr(b, "maxlen", None) or getattr(a, "typecode", 0) != getattr(
                b, "typecode", 0
            ):
                raise Difference(f"{where}: {short(a)} became {short(b)}")
            return self.sequence(a, b, where)
        if isinstance(a, dict):
            return self.mapping(a, b, where)
        if isinstance(a, (set, frozenset)):
            return self.sets(a, b, where)
        if isinstance(a, Drained):
            return self.drained(a, b, where)
        if isinstance(a, BY_REPR):
            if repr(a) != repr(b):
                raise Difference(f"{where}: {short(a)} != {short(b)}")
            return None
        if isinstance(a, (types.FunctionType, type, types.ModuleType)):
            return functions(a, b, where)
        state = rng_state(a)
        if state is not None:
            if not self.same(state, rng_state(b)):
                drew = "it drew other numbers"
                raise Difference(f"{where}: the {type_name(a)} is at another point of its stream ({drew})")
            return None
        if is_handle(a):  # a lock, file or connection compares by identity: its state is not the result
            return None
        return self.objects(a, b, where)

    def sequence(self, a: Any, b: Any, where: str) -> None:
        if len(a) != len(b):
            raise Difference(f"{where}: length {len(a)} became {len(b)}")
        kinds_a, kinds_b = list(map(type, a)), list(map(type, b))
        start = 0
        if kinds_a == kinds_b and FAST.issuperset(kinds_a) and a == b:
            return None  # fast path in C: the same types, whose == is exact
        if kinds_a == kinds_b and len(a) > 64 and len(set(kinds_a)) == 1:
            start = _floats_agree_until(a, b, kinds_a[0])  # many floats of one type: compared as an array
        for i in range(start, len(a)):
            self.eq(a[i], b[i], f"{where}[{i}]")
        if hasattr(a, "__dict__"):  # a subclass may carry attributes
            self.eq(vars(a), vars(b), f"{where}.__dict__")
        return None

    def mapping(self, a: dict, b: dict, where: str) -> None:
        keys_a, keys_b = list(a), list(b)
        try:
            same_keys = bool(keys_a == keys_b)
        except Exception:  # keys whose == is not a bool (arrays, tensors): compared one by one below
            same_keys = True
        if not same_keys:
            extra = [k for k in keys_a if k not in b] + [k for k in keys_b if k not in a]
            if extra:
                raise Difference(f"{where}: keys differ ({short(sorted(map(repr, extra))[:5])})")
            raise Difference(f"{where}: the same keys in another order ({short(keys_b[:5])})")
        self.eq(keys_a, keys_b, f"{where} keys")  # 1 and 1.0 are the same key, not the same value
        for (k, x), y in zip(a.items(), b.values(), strict=True):
            self.eq(x, y, f"{where}[{short(k)}]")
        if isinstance(a, collections.defaultdict):
            self.eq(a.default_factory, getattr(b, "default_factory", None), f"{where}.default_factory")
        if hasattr(a, "__dict__"):
            self.eq(vars(a), vars(b), f"{where}.__dict__")

    def sets(self, a: Any, b: Any, where: str) -> None:
        by_value = {y: y for y in b}
        for x in a:
            if x not in by_value:
                raise Difference(f"{where}: {short(x)} is missing after the rewrite")
            self.eq(x, by_value[x], f"{where} item {short(x)}")
        if len(a) != len(b):
            extra = [y for y in b if y not in a]
            raise Difference(f"{where}: {short(extra[0])} was added by the rewrite")

    def drained(self, a: Drained, b: Drained, where: str) -> None:
        if a.kind != b.kind:
            raise Difference(f"{where}: {a.kind} became {b.kind}")
        for i in range(min(len(a.items), len(b.items))):
            self.eq(a.items[i], b.items[i], f"{where} (iterator) item {i}")
        na, nb = len(a.items), len(b.items)
        if (a.complete and b.complete and na != nb) or (a.complete and nb > na) or (b.complete and na > nb):
            raise Difference(f"{where} (iterator): {na} items became {nb}")
        if a.complete and b.complete and a.error != b.error:
            raise Difference(f"{where} (iterator): raised {a.error or 'nothing'}, then {b.error or 'nothing'}")

    def objects(self, a: Any, b: Any, where: str) -> None:
        if not is_dataclass(a) and type(a).__eq__ is not object.__eq__:
            try:
                same = a == b
            except Exception:
                same = None
            if isinstance(same, bool) or type(same).__name__ == "bool_":
                if not same:
                    raise Difference(f"{where}: {short(a)} != {short(b)}")
                return None
        sa, sb = state_of(a), state_of(b)
        if sa is None or sb is None:
            raise Difference(f"{where}: values of type {type_name(a)} cannot be compared")
        if is_loader(a) and is_loader(b):  # how a DataLoader loads is not what it yields
            sa, sb = ({k: v for k, v in s.items() if k not in LOADING} for s in (sa, sb))
        if set(sa) != set(sb):  # their order is how the object was built, not what it holds
            gone, new = sorted(set(sa) - set(sb)), sorted(set(sb) - set(sa))
            raise Difference(f"{where}: attributes {gone} became {new}")
        for k in sa:
            self.eq(sa[k], sb[k], f"{where}.{k}" if k.isidentifier() else f"{where} ({k})")
        return None


# A torch DataLoader's options for how it loads (worker processes, pinned memory, prefetching) and
# its live worker iterator: a rewrite that gives it workers changes these and nothing it yields; its
# dataset, batch size, sampler, collate function and generator are compared.
LOADING = frozenset({"num_workers", "pin_memory", "pin_memory_device", "timeout", "worker_init_fn",
                     "prefetch_factor", "persistent_workers", "_iterator", "_DataLoader__multiprocessing_context",
                     "multiprocessing_context"})


def is_loader(value: Any) -> bool:
    return any(c.__name__ == "DataLoader" and c.__module__ == "torch.utils.data.dataloader"
               for c in type(value).__mro__)


def _floats_agree_until(a: Any, b: Any, kind: type) -> int:
    """How many leading items of two sequences of floats of one type agree (all of them: ``len(a)``)."""
    np = sys.modules.get("numpy")
    if np is None or not issubclass(kind, (float, np.floating)):
        return 0
    narrow = issubclass(kind, np.floating) and np.dtype(kind).itemsize < 8
    rtol, atol = (RTOL32, ATOL32) if narrow else (RTOL64, ATOL64)
    ok = np.isclose(np.asarray(a, dtype=float), np.asarray(b, dtype=float), rtol=rtol, atol=atol, equal_nan=True)
    return len(a) if ok.all() else int(np.argmin(ok))


def functions(a: Any, b: Any, where: str) -> None:
    """Functions, classes and modules made in each run: the same name (and, for functions, code)."""
    same = getattr(a, "__qualname__", getattr(a, "__name__", None)) == getattr(
        b, "__qualname__", getattr(b, "__name__", None)
    )
    if same and isinstance(a, types.FunctionType):
        same = a.__code__.co_code == b.__code__.co_code
    if not same:
        raise Difference(f"{where}: {short(a)} != {short(b)}")


HANDLE_MODULES = frozenset(
    {"_thread", "threading", "socket", "_socket", "sqlite3", "_sqlite3", "multiprocessing", "logging"}
    | {"concurrent", "distributed", "ray", "queue", "selectors", "asyncio", "ctypes", "mmap"}  # workers, loops
    | {"requests", "urllib3", "httpx", "aiohttp"}  # HTTP sessions and their connection pools, responses
    | {"ipywidgets", "matplotlib", "plotly", "IPython", "tqdm"}  # what a cell shows, not what it computes
)


def is_handle(value: Any) -> bool:
    """Files, iterators, locks, connections, loggers, widgets, figures: not the values a rewrite must keep."""
    if isinstance(value, (io.IOBase, types.GeneratorType, types.CoroutineType, types.AsyncGeneratorType)):
        return True
    if type(value).__module__.split(".")[0] in HANDLE_MODULES:
        return True
    return is_iterator(value)


def is_iterator(value: Any) -> bool:
    try:
        return iter(value) is value  # an iterator: consumed, not compared as a value
    except Exception:
        return False
