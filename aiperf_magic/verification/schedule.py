"""The order of a Try's runs and how their outcomes fill a Comparison.

First run of each version: its values are compared and its peak memory measured (the original's
values decide what is compared). Then ``repeat`` timed runs of each, interleaved, so that drift in
the machine's load hits both sides alike. The same schedule drives forked and in-process trials.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from typing import Any, Protocol

from ..report import Comparison
from .trial import Outcome, Plan

MIN_TIMEOUT_S = 10.0
FIRST_LIMIT_S = 600.0  # the original's first trial, when its duration is not known in advance

Progress = Callable[[int, int, str], None]


class Runner(Protocol):
    isolation: str
    notes: list[str]

    def run(self, side: str, first: bool, limit: float | None) -> Outcome: ...

    def compare_fallback(self) -> Outcome: ...


def planned_runs(repeat: int) -> int:
    """How many times each version runs in a Try (announced before ``--allow-io`` trials)."""
    return max(1, int(repeat)) + 1


class Schedule:
    def __init__(self, runner: Runner, plan: Plan, result: Comparison, progress: Progress | None) -> None:
        self.runner = runner
        self.plan = plan
        self.result = result
        self.progress = progress
        self.total = 2 * planned_runs(result.repeat)
        self.done = 0
        self.started = time.monotonic()
        self.peak_how: list[str] = []

    def say(self, text: str) -> None:
        if self.progress is not None:
            self.progress(self.done, self.total, text)

    def _run(self, side: str, first: bool, limit: float | None) -> Outcome:
        out = self.runner.run(side, first, limit)
        self.done += 1
        if side == "before":
            self.result.runs += 1
        elapsed = time.monotonic() - self.started
        left = elapsed / self.done * (self.total - self.done)
        tail = f" (about {left:.0f} s left)" if left >= 2 else ""
        self.say(f"run {self.done} of {self.total}{tail}")
        return out

    def execute(self, timeout_s: float | None, first_limit: float | None) -> None:
        r = self.result
        first_b = self._run("before", True, first_limit)
        if self._stopped(first_b, "original", first_limit):
            return
        limit = timeout_s if timeout_s is not None else max(MIN_TIMEOUT_S, 10 * first_b.seconds)
        first_a = self._run("after", True, limit)
        if first_a.timed_out:
            r.timed_out = True
            r.notes.append(f"the rewrite was stopped after {limit:.3g} s (the original took {first_b.seconds:.3g} s)")
            return
        if self._stopped(first_a, "rewrite", limit):
            return
        r.compared = list(first_b.names or [])
        r.notes += first_b.notes + [n for n in first_a.notes if n not in first_b.notes]
        if first_a.equal is None and first_a.uncomparable:
            self._compare_elsewhere(first_a.uncomparable)
        else:
            r.equal, r.difference = bool(first_a.equal), first_a.difference
        if r.error or r.blocked:
            return
        self._peaks(first_b, first_a, first_b.uses_torch)
        limit_b = max(MIN_TIMEOUT_S, 10 * first_b.seconds)
        times_b, times_a = [], []
        for _ in range(r.repeat):
            b = self._run("before", False, limit_b)
            if self._stopped(b, "original", limit_b):
                return
            a = self._run("after", False, limit)
            if a.timed_out or a.error or a.blocked or a.crashed:  # a flaky rewrite: its failure, never a time
                r.timed_out = a.timed_out
                self._stopped(a, "rewrite", limit)
                return
            times_b.append(b.seconds)
            times_a.append(a.seconds)
        timings(r, times_b, times_a)

    def _stopped(self, out: Outcome, who: str, limit: float | None) -> bool:
        r = self.result
        if out.blocked:
            r.blocked = out.blocked
            r.notes = [n for n in out.notes if n not in r.notes] + r.notes
            return True
        if out.crashed:
            r.error = f"the {who} could not be tried: {out.crashed}"
            return True
        if out.timed_out:
            hint = " (libraries with OpenMP thread pools can hang in a forked copy)" if r.isolation == "process" else ""
            r.error = f"the {who} did not finish within {limit or 0:.3g} s in its trial{hint}"
            return True
        if out.error:
            r.error = out.error if who == "rewrite" else "the original cell raised:\n" + out.error
            return True
        return False

    def _compare_elsewhere(self, names: list[str]) -> None:
        r = self.result
        what = ", ".join(names)
        if self.plan.allow_io:
            r.equal = False
            r.difference = f"{what} could not be compared: the values cannot leave a trial (pickle)"
            r.notes.append("with --allow-io the extra run that compares such values in one trial is skipped")
            return
        out = self.runner.compare_fallback()
        self.done += 2
        self.total += 2
        r.runs += 1
        if out.blocked or out.error or out.crashed:
            self._stopped(out, "comparison", None)
            return
        r.equal, r.difference = bool(out.equal), out.difference
        r.notes += out.notes
        r.notes.append(
            f"{what} cannot be pickled: both versions ran once more in one trial copy, on copies of the "
            "inputs with RNG states and functions' globals restored in between, to compare them"
        )

    def _peaks(self, b: Outcome, a: Outcome, uses_torch: bool) -> None:
        r = self.result
        if b.peak_bytes is None or a.peak_bytes is None or b.peak_how != a.peak_how:
            if uses_torch:
                self.peak_how.append("peak memory: not measured (CPU tensors are invisible to tracemalloc)")
            return
        r.before_peak_bytes, r.after_peak_bytes = b.peak_bytes, a.peak_bytes
        if b.peak_bytes:
            r.memory_ratio = a.peak_bytes / b.peak_bytes
        self.peak_how.append(
            {
                "tracemalloc": "peak memory: tracemalloc (Python and NumPy allocations) in the first run of each; "
                "other native allocators are not counted",
                "rss": "peak memory: growth of the trial process's resident memory in the first run of each "
                "(torch's CPU allocator included)",
                "cuda": "peak memory: torch.cuda.max_memory_allocated in the first run of each",
            }[b.peak_how]
        )


def timings(result: Comparison, times_b: list[float], times_a: list[float]) -> None:
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


def estimate(expected_s: float | None, repeat: int) -> tuple[float | None, str]:
    """(seconds, sentence) for the cost of a Try, from the original's measured time."""
    runs = planned_runs(repeat)
    if not expected_s:
        return None, f"each version runs {runs} times"
    total = 2 * runs * expected_s
    return total, f"about {total:.0f} s: each version runs {runs} times and the original took {expected_s:.2g} s"


def describe_isolation(result: Comparison, plan: Plan, extra: Any = None) -> str:
    runs = result.runs
    if result.isolation == "process":
        where = (
            f"each version ran {runs} times in forked copies of this kernel (nothing reached it): its first run "
            "in a fresh copy, the timed runs in one copy per version, on fresh copies of the inputs"
        )
    else:
        where = f"each version ran {runs} times in this kernel, on copies of its inputs"
    if plan.allow_io:
        return where + "; --allow-io: the cell's writes, connections and commands ran for real in every run"
    return where + "; file writes, network, commands and SQLite files were refused"
