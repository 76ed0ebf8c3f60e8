"""Human units shared by every view and note: seconds, sizes, percentages."""

from __future__ import annotations

from collections.abc import Iterable
from statistics import fmean


def seconds(value: float | None) -> str:
    if value is None:
        return "–"
    if value < 1e-3:
        return f"{value * 1e6:.0f} µs"
    if value < 1:
        return f"{value * 1e3:.1f} ms"
    if value < 120:
        return f"{value:.2f} s"
    minutes, secs = divmod(value, 60)
    return f"{int(minutes)} min {secs:04.1f} s"


def size(value: float | None, signed: bool = False) -> str:
    if value is None:
        return "–"
    sign = ("+" if value >= 0 else "-") if signed else ("-" if value < 0 else "")
    amount = abs(float(value))
    for unit in ("B", "KB", "MB", "GB", "TB"):
        if amount < 1024 or unit == "TB":
            return f"{sign}{amount:.0f} {unit}" if unit == "B" else f"{sign}{amount:.1f} {unit}"
        amount /= 1024
    return f"{sign}{amount:.1f} TB"


def percent(share: float) -> str:
    return f"{100 * share:.0f}%"


def mean_max(values: Iterable[float | None]) -> tuple[float, float] | None:
    present = [v for v in values if v is not None]
    if not present:
        return None
    return fmean(present), max(present)
