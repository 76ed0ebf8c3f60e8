"""Side-by-side timing for the trap benchmarks: interleaved repeats, medians, one printed ratio."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable


def compare(
    slow: Callable[[], object], fast: Callable[[], object], *, repeat: int = 5, warmup: int = 1
) -> tuple[float, float]:
    """Median seconds of ``slow`` and ``fast``, run alternately so drift affects both alike."""
    for _ in range(warmup):
        slow()
        fast()
    a: list[float] = []
    b: list[float] = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        slow()
        a.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        fast()
        b.append(time.perf_counter() - t0)
    return statistics.median(a), statistics.median(b)


def report(code: str, what: str, slow_name: str, fast_name: str, slow_s: float, fast_s: float) -> None:
    print(
        f"{code}: {what}: {slow_name} {_fmt(slow_s)}, {fast_name} {_fmt(fast_s)} "
        f"-> {slow_s / fast_s:.1f}x faster (median of interleaved repeats)"
    )


def _fmt(seconds: float) -> str:
    return f"{seconds * 1e3:.1f} ms" if seconds < 1 else f"{seconds:.2f} s"


def needs_cuda(code: str) -> bool:
    """True when a CUDA GPU is present; otherwise says so and the benchmark is skipped."""
    import torch

    if torch.cuda.is_available():
        return True
    print(f"{code}: skipped, needs a CUDA GPU (none on this machine)")
    return False
