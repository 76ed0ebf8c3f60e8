"""Before/after proof of a rewrite: both versions run on copies of the user's data, timed side by
side, and their results compared.

``verify(before, after, namespace)`` never mutates ``namespace``; it returns a
:class:`~aiperf_magic.report.Comparison` whose ``better`` is True only when the results are equal
and the rewrite is faster.
"""

from __future__ import annotations

import statistics
import sys
from collections.abc import Iterable
from typing import Any

from ..cell.source import runnable
from ..report import Comparison
from .compare import TOLERANCES, first_difference
from .runner import RunResult, run
from .sandbox import Refused, data_names, missing, reads_and_writes, sandbox

__all__ = ["verify"]

MIN_TIMEOUT_S = 10.0


def verify(
    before: str,
    after: str,
    namespace: dict[str, Any],
    *,
    compare: Iterable[str] | None = None,
    repeat: int = 5,
    timeout_s: float | None = None,
) -> Comparison:
    """Run ``before`` and ``after`` on copies of their inputs from ``namespace`` and compare them.

    Each side runs once to warm up (those runs' results are compared), then ``repeat`` times,
    interleaved, for the timings; one more run of each under ``tracemalloc`` gives peak memory.
    ``compare`` names the values to compare (default: what the original cell writes, plus the
    data it reads, since a cell may change its inputs in place). A rewrite that runs past
    ``timeout_s`` (default 10x the original's time, at least 10 s) is stopped and reported.
    """
    repeat = max(1, int(repeat))
    result = Comparison(equal=False, repeat=repeat, notes=[])
    try:
        codes = [_compile(before, "before"), _compile(after, "after")]
    except SyntaxError as exc:
        result.error = f"{type(exc).__name__}: {exc}"
        return result
    reads_b, writes_b, loop_only = reads_and_writes(runnable(before))
    reads_a, writes_a, _ = reads_and_writes(runnable(after))
    inputs = list(dict.fromkeys(reads_b + reads_a))
    absent = missing(namespace, inputs, writes_b | writes_a)
    if absent:
        result.refused = (
            f"{', '.join(absent)} {'is' if len(absent) == 1 else 'are'} not defined yet: "
            "run the cells that define them first"
        )
        return result
    try:
        sandbox(namespace, inputs)  # refuse early, before anything runs
    except Refused as exc:
        result.refused = str(exc)
        return result

    # warm-up runs; their namespaces are the results compared
    ns_before, first = _once(namespace, inputs, codes[0], None)
    if first.error or first.timed_out:
        result.error = "the original cell raised:\n" + (first.error or "timeout")
        return result
    limit = timeout_s if timeout_s is not None else max(MIN_TIMEOUT_S, 10 * first.seconds)
    ns_after, second = _once(namespace, inputs, codes[1], limit)
    if second.timed_out:
        result.timed_out = True
        result.notes.append(f"the rewrite was stopped after {limit:.3g} s (the original took {first.seconds:.3g} s)")
        return result
    if second.error:
        result.error = second.error
        return result

    names = (
        list(compare)
        if compare is not None
        else data_names(ns_before, (writes_b - loop_only - {"_"}) | {n for n in reads_b if n in namespace})
    )
    result.compared = names
    result.equal, result.difference = _compare(ns_before, ns_after, names, result.notes)
    uses_torch = _holds_tensors(ns_before, [*names, *inputs])
    del ns_before, ns_after

    times_b, times_a = [], []
    for _ in range(repeat):  # interleaved, so that drift in the machine's load hits both sides alike
        times_b.append(_once(namespace, inputs, codes[0], None)[1].seconds)
        r = _once(namespace, inputs, codes[1], limit)[1]
        if r.timed_out or r.error:  # flaky rewrite: report the failure, never a time
            result.timed_out, result.error = r.timed_out, r.error
            return result
        times_a.append(r.seconds)
    _timings(result, times_b, times_a)

    memory_note = _peaks(result, namespace, inputs, codes, limit, uses_torch)
    result.notes += [
        f"wall time: median of {repeat} interleaved runs after one warm-up each"
        + (", CUDA-synchronised" if _cuda_used() else ""),
        memory_note,
        "printed output of the runs is discarded",
        "compared: " + (", ".join(names) if names else "nothing (the cell writes no data)") + "; " + TOLERANCES,
    ]
    return result


def _compile(source: str, label: str) -> Any:
    return compile(runnable(source), f"<aiperf {label}>", "exec", dont_inherit=True)


def _once(
    namespace: dict[str, Any], inputs: list[str], code: Any, limit: float | None, trace: bool = False
) -> tuple[dict[str, Any], RunResult]:
    ns = sandbox(namespace, inputs)
    return ns, run(code, ns, limit, trace_memory=trace)


def _compare(ns_b: dict[str, Any], ns_a: dict[str, Any], names: list[str], notes: list[str]) -> tuple[bool, str | None]:
    for name in names:
        if name not in ns_a:
            return False, f"{name}: set by the original, missing after the rewrite"
        if name not in ns_b:
            return False, f"{name}: missing after the original"
        diff = first_difference(ns_b[name], ns_a[name], name, notes)
        if diff is not None:
            return False, diff
    return True, None


def _timings(result: Comparison, times_b: list[float], times_a: list[float]) -> None:
    result.before_s = statistics.median(times_b)
    result.after_s = statistics.median(times_a)
    result.before_p50_s, result.after_p50_s = result.before_s, result.after_s
    result.before_p95_s, result.after_p95_s = _p95(times_b), _p95(times_a)
    if result.after_s > 0:
        result.speedup = result.before_s / result.after_s
    spread_b = (max(times_b) - min(times_b)) / result.before_s if result.before_s else 0.0
    spread_a = (max(times_a) - min(times_a)) / result.after_s if result.after_s else 0.0
    result.notes.append(f"spread (max-min)/median: before {spread_b:.0%}, after {spread_a:.0%}")


def _p95(values: list[float]) -> float:
    ordered = sorted(values)
    pos = 0.95 * (len(ordered) - 1)
    lo = int(pos)
    hi = min(lo + 1, len(ordered) - 1)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (pos - lo)


def _peaks(
    result: Comparison,
    namespace: dict[str, Any],
    inputs: list[str],
    codes: list[Any],
    limit: float | None,
    uses_torch: bool,
) -> str:
    """Fill the peak-memory fields from one extra run of each side; returns how they were measured."""
    torch = sys.modules.get("torch")
    if uses_torch and torch is not None and _cuda_used():
        peaks = []
        for code, lim in ((codes[0], None), (codes[1], limit)):
            torch.cuda.reset_peak_memory_stats()
            _once(namespace, inputs, code, lim)
            peaks.append(int(torch.cuda.max_memory_allocated()))
        how = "peak memory: torch.cuda.max_memory_allocated in one extra run each"
    elif uses_torch:
        # tensors live in torch's own allocator, which tracemalloc does not see: a ratio would mislead
        return "peak memory: not measured (CPU tensors are invisible to tracemalloc)"
    else:
        peaks = [
            _once(namespace, inputs, code, lim, trace=True)[1].peak_bytes or 0
            for code, lim in ((codes[0], None), (codes[1], limit))
        ]
        how = (
            "peak memory: tracemalloc (Python and NumPy allocations) in one extra run each; "
            "other native allocators are not counted"
        )
    result.before_peak_bytes, result.after_peak_bytes = peaks
    if peaks[0]:
        result.memory_ratio = peaks[1] / peaks[0]
    return how


def _holds_tensors(ns: dict[str, Any], names: list[str]) -> bool:
    torch = sys.modules.get("torch")
    if torch is None:
        return False
    for name in names:
        value = ns.get(name)
        items = value if isinstance(value, (list, tuple)) else [value]
        if any(isinstance(v, (torch.Tensor, torch.nn.Module)) for v in items[:100]):
            return True
    return False


def _cuda_used() -> bool:
    torch = sys.modules.get("torch")
    return bool(torch is not None and torch.cuda.is_available() and torch.cuda.is_initialized())
