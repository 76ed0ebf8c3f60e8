"""What a difference is: the tolerances (the one place they are stated), the exception that carries
the first difference found, and how values and types are quoted in it."""

from __future__ import annotations

import math
from typing import Any

RTOL64, ATOL64 = 1e-7, 1e-12
RTOL32, ATOL32 = 1e-6, 1e-7
TOLERANCES = (
    f"floats of the same type: rtol={RTOL64:g}, atol={ATOL64:g} (float64); rtol={RTOL32:g}, atol={ATOL32:g} "
    "(float32, float16, bfloat16); NaN equals NaN; everything else exact: types, dtypes, ints, strings, "
    "key order of dicts, pandas names, index and column dtypes, time zones, categories; a RangeIndex "
    "equals an int64 Index of the same labels"
)
FAST = frozenset({int, str, bytes, bool, type(None)})  # types whose == is exactly "the same value"


class Difference(Exception):
    pass


def short(v: Any) -> str:
    """``repr(v)``, cut to 80 characters; NumPy scalars (also in a tuple) as the numbers they hold."""
    return trim(repr(tuple(map(_plain, v)) if type(v) is tuple else _plain(v)))


def _plain(v: Any) -> Any:
    item = getattr(v, "item", None)
    if type(v).__module__ == "numpy" and callable(item) and getattr(v, "ndim", 1) == 0:
        return item()
    return v


def trim(text: str) -> str:
    return text if len(text) <= 80 else text[:77] + "..."


def type_name(v: Any) -> str:
    t = type(v)
    top = t.__module__.split(".")[0]
    name = t.__name__ if "<locals>" in t.__qualname__ else t.__qualname__
    return name if top in ("builtins", "__main__") else f"{top}.{name}"


def numbers(a: Any, b: Any, where: str, narrow: bool) -> None:
    """Two numbers of the same type: ints and bools exact, floats within the tolerance."""
    if isinstance(a, complex) or isinstance(b, complex):
        numbers(a.real, b.real, where + " (real part)", narrow)
        return numbers(a.imag, b.imag, where + " (imaginary part)", narrow)
    if not isinstance(a, float) or not isinstance(b, float):
        if a != b:
            raise Difference(f"{where}: {a!r} != {b!r}")
        return None
    if math.isnan(a) and math.isnan(b):
        return None
    rtol, atol = (RTOL32, ATOL32) if narrow else (RTOL64, ATOL64)
    if not abs(a - b) <= atol + rtol * abs(b):
        raise Difference(f"{where}: {a!r} != {b!r} (beyond rtol={rtol:g}, atol={atol:g})")
    return None
