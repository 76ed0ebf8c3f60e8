"""One pandas column: its memory, the smallest dtype that holds it, and the saving, measured.

Called only when pandas is already imported. Big columns are measured on a fixed sample
(``SAMPLE_ROWS`` rows) and the result scaled, and the ColumnProfile says so in ``measured_on``;
cheap exact checks (integer range) always use every row. A suggestion is ``safe`` only when it was
shown lossless on every row; otherwise it is offered as unsafe, with the reason.
"""

from __future__ import annotations

from typing import Any

import numpy as np  # only imported together with pandas (frames.py checks sys.modules first)

from ..report import ColumnProfile

# Object and string columns cost a Python call per value (deep memory, distinct values, category
# conversion): above FULL_ROWS rows a fixed-seed sample of SAMPLE_ROWS rows stands for them.
# Numeric checks are vectorised (about 30 ms per 10 million floats), so they use every row up to
# NUMERIC_FULL_ROWS.
FULL_ROWS = 200_000
NUMERIC_FULL_ROWS = 20_000_000
SAMPLE_ROWS = 100_000
# When the after-cell budget cannot cover every column of a frame, text/object columns are measured
# on this many rows instead (about ten times faster at 20,000 rows), so more columns get a look.
QUICK_SAMPLE_ROWS = 2_000
FLOAT32_RTOL = 1e-6  # float64 -> float32 is offered (as unsafe) when every value keeps this precision
CATEGORY_MAX_UNIQUE_SHARE = 0.5  # object/str -> category only when at most this share of values differ
MIN_SAVING_SHARE = 0.10  # suggestions that save less than this share of the column are not shown

_INTS = ("int8", "int16", "int32")
_UINTS = ("uint8", "uint16", "uint32")


def _pd() -> Any:
    import pandas as pd

    return pd


def _is_numeric(dtype: Any) -> bool:
    return getattr(dtype, "kind", "O") in "iufb" and (_is_plain(dtype) or str(dtype).startswith(("Int", "UInt")))


def _sample(col: Any, quick: bool = False) -> tuple[Any, str]:
    n = len(col)
    numeric = _is_numeric(col.dtype)
    size = SAMPLE_ROWS if numeric or not quick else QUICK_SAMPLE_ROWS
    if n <= (NUMERIC_FULL_ROWS if numeric else min(FULL_ROWS, size)):
        return col, "full"
    positions = np.sort(np.random.default_rng(0).choice(n, size, replace=False))
    return col.iloc[positions], f"sample of {size} rows"


def _deep_bytes(col: Any) -> int:
    return int(col.memory_usage(index=False, deep=True))


def _scaled_bytes(part: Any, rows: int) -> int:
    """Deep memory of a column estimated from ``part`` (the column itself or a sample of it)."""
    if len(part) in (0, rows):
        return _deep_bytes(part)
    return int(_deep_bytes(part) * rows / len(part))


def smallest_int(lo: int, hi: int, nullable: bool) -> str | None:
    """The narrowest integer dtype holding [lo, hi]; signed when it is as small as unsigned.

    Signed is preferred at equal size because unsigned columns wrap on subtraction (``a - b < 0``).
    """
    for signed, unsigned in zip(_INTS, _UINTS, strict=True):
        if np.iinfo(signed).min <= lo and hi <= np.iinfo(signed).max:
            name = signed
            break
        if lo >= 0 and hi <= np.iinfo(unsigned).max:
            name = unsigned
            break
    else:
        return None
    return name.capitalize().replace("Uint", "UInt") if nullable else name


def _is_plain(dtype: Any) -> bool:
    return isinstance(dtype, np.dtype)


def profile_column(name: Any, col: Any, *, quick: bool = False) -> ColumnProfile:
    """Profile one column (a Series); never raises for odd data: the reason says what was skipped.

    ``quick``: measure a text/object column on ``QUICK_SAMPLE_ROWS`` rows (the budget is short).
    """
    dtype = col.dtype
    rows = len(col)
    part, measured_on = _sample(col, quick)
    memory = _scaled_bytes(part, rows)
    prof = ColumnProfile(name=str(name), dtype=str(dtype), memory_bytes=memory, measured_on=measured_on)
    if rows == 0:
        prof.reason = "empty"
        return prof
    suggestion = _suggest(col, part, prof)
    if suggestion is None:
        return prof
    target, safe, reason = suggestion
    try:
        converted = part.astype(target)
    except (TypeError, ValueError) as exc:
        prof.reason = f"{target} conversion failed: {exc}"
        return prof
    after = _scaled_bytes(converted, rows)
    saving = memory - after
    if saving <= MIN_SAVING_SHARE * memory:
        prof.reason = f"{target} would save {max(saving, 0)} bytes only"
        return prof
    prof.suggested_dtype, prof.safe, prof.reason, prof.saving_bytes = target, safe, reason, saving
    return prof


def _suggest(col: Any, part: Any, prof: ColumnProfile) -> tuple[str, bool, str] | None:
    """(target dtype, lossless on every row, why) or None with ``prof.reason`` set."""
    pd = _pd()
    dtype = col.dtype
    if isinstance(dtype, pd.CategoricalDtype):
        prof.reason = "already categorical"
        return None
    kind = getattr(dtype, "kind", "O")
    # numpy ints and pandas' nullable ones ("Int64", "UInt16"); not Sparse or Arrow-backed ints
    if kind in "iu" and (_is_plain(dtype) or str(dtype).startswith(("Int", "UInt"))):
        return _suggest_int(col, prof)
    if kind == "f" and dtype == np.float64:
        return _suggest_float32(part, prof)
    if (_is_plain(dtype) and kind == "O") or isinstance(dtype, pd.StringDtype):
        return _suggest_for_objects(part, prof)
    small = kind in "fc" and getattr(dtype, "itemsize", 8) <= 4
    prof.reason = "already compact" if kind in "bmM" or small else f"{dtype} left as is"
    return None


def _suggest_int(col: Any, prof: ColumnProfile) -> tuple[str, bool, str] | None:
    if getattr(col.dtype, "itemsize", 8) == 1:
        prof.reason = "already compact"
        return None
    # min/max over every row: exact, and cheap even at 10 million rows
    lo, hi = col.min(), col.max()
    if lo is None or hi is None or _pd().isna(lo):
        prof.reason = "all values missing"
        return None
    nullable = not _is_plain(col.dtype)
    target = smallest_int(int(lo), int(hi), nullable)
    if target is None or np.dtype(target.lower()).itemsize >= col.dtype.itemsize:
        prof.reason = f"values span {lo}..{hi}: no smaller integer type"
        return None
    return target, True, f"values span {lo}..{hi}"


def _suggest_float32(part: Any, prof: ColumnProfile) -> tuple[str, bool, str] | None:
    values = part.to_numpy(dtype=np.float64, na_value=np.nan)  # a view for a plain float64 column
    with np.errstate(over="ignore", under="ignore", invalid="ignore"):
        # compared in float64, one pass and no round-trip copy; NaN never equals itself, so the
        # column is exact when the only differences are its NaNs
        differs = np.count_nonzero(values.astype(np.float32) != values)
        if differs and differs != np.count_nonzero(np.isnan(values)):
            return _lossy_float32(values, prof)
    full = prof.measured_on == "full"
    where = "every value" if full else f"every value of a {len(part)}-row sample"
    return "float32", full, f"{where} is exact in float32"


def _finite_span(values: Any) -> float:
    """Largest finite magnitude (infinities stay infinite in float32, so they do not count)."""
    if not values.size or np.isnan(values).all():
        return 0.0
    hi, lo = np.nanmax(values), np.nanmin(values)  # two reductions, no copy
    if not (np.isfinite(hi) and np.isfinite(lo)):
        finite = values[np.isfinite(values)]
        hi, lo = (finite.max(), finite.min()) if finite.size else (0.0, 0.0)
    return float(max(abs(hi), abs(lo)))


def _lossy_float32(values: Any, prof: ColumnProfile) -> tuple[str, bool, str] | None:
    """float32 as an unsafe suggestion when the values keep FLOAT32_RTOL relative precision."""
    f32 = np.finfo(np.float32)
    if _finite_span(values) > f32.max:
        prof.reason = "float32 would overflow: values beyond ±3.4e38"
        return None
    # lossy either way: the size of the error is measured on a sample of the rows
    if values.size > SAMPLE_ROWS:
        values = values[np.random.default_rng(0).integers(0, values.size, SAMPLE_ROWS)]
    values = values[np.isfinite(values) & (values != 0)]
    if np.any(np.abs(values) < f32.tiny):  # subnormal in float32: precision collapses
        prof.reason = f"float32 would flush values below {f32.tiny:.1e} (tolerance {FLOAT32_RTOL:.0e})"
        return None
    back = values.astype(np.float32).astype(np.float64)
    worst = float(np.max(np.abs(back - values) / np.abs(values))) if values.size else 0.0
    if worst > FLOAT32_RTOL:
        prof.reason = f"float32 would change values by up to {worst:.1e} (tolerance {FLOAT32_RTOL:.0e})"
        return None
    return "float32", False, f"rounds to ~7 significant digits: max relative error {worst:.1e}"


def _suggest_for_objects(part: Any, prof: ColumnProfile) -> tuple[str, bool, str] | None:
    pd = _pd()
    present = part.dropna()
    if len(present) == 0:
        prof.reason = "all values missing"
        return None
    kind = pd.api.types.infer_dtype(present, skipna=True)
    full = prof.measured_on == "full"
    if kind == "boolean" and _is_plain(part.dtype):
        # astype(bool) keeps True/False exactly; with missing values the nullable "boolean" keeps them
        target = "bool" if len(present) == len(part) else "boolean"
        return target, full, "every value is True or False" + ("" if full else " (in the sample)")
    try:
        unique = present.nunique()
    except TypeError:
        prof.reason = "unhashable values (lists, dicts): no suggestion"
        return None
    if unique > CATEGORY_MAX_UNIQUE_SHARE * len(present):
        prof.reason = f"{unique} distinct values in {len(present)}: too many for category"
        return None
    # category keeps every value (any hashable object) and its missing values: lossless by construction
    return "category", True, f"{unique} distinct values in {len(present)} rows"
