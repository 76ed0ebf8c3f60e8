"""The order of a Try's runs and how their outcomes fill a Comparison.

First run of each version: its values are compared and its peak memory measured (the original's
values decide what is compared). Then timed rounds, one run of each version, alternating A B, B A,
so that drift in the machine's load hits both sides alike: at most ``repeat`` rounds, fewer when the
next would take the Try past its budget (:mod:`.pace`). The timing rule (:mod:`.noise`) then says
whether the rewrite is faster beyond the runs' noise. The same schedule drives forked and
in-process trials.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from typing import Any, Protocol

from ..report import Comparison
from . import noise, observed
from .pace import Pace, Progress, side_of
from .trial import Outcome, Plan

MIN_TIMEOUT_S = 10.0
FIRST_LIMIT_S = 600.0  # the original's first trial, when its duration is not known in advance

__all__ = ["FIRST_LIMIT_S", "Progress", "Schedule", "describe_isolation", "planned_runs"]


class Runner(Protocol):
    isolation: str
    notes: list[str]

    def run(self, side: str, first: bool, limit: float | None) -> Outcome: ...

    def compare_fallback(self) -> Outcome: ...


def planned_runs(repeat: int) -> int:
    """The most times each version runs in a Try: exactly this many with ``--allow-io`` (announced
    before its trials); a long cell runs fewer within its budget (:mod:`.pace`)."""
    return max(1, int(repeat)) + 1


class Schedule:
    def __init__(
        self,
        runner: Runner,
        plan: Plan,
        result: Comparison,
        progress: Progress | None,
        expected_s: float | None = None,
        budget_s: float | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.runner = runner
        self.plan = plan
        self.result = result
        self.pace = Pace(progress, result.repeat, expected_s, budget_s, clock)
        if hasattr(runner, "tick"):  # forked trials: progress while the kernel waits on a long run
            runner.tick = self.pace.tick
        self.peak_how: list[str] = []
        self.times_b: list[float] = []
        self.times_a: list[float] = []
        self.waits: dict[str, list[float | None]] = {"before": [], "after": []}  # each run's wait for a CPU

    @property
    def done(self) -> int:
        return self.pace.done

    @property
    def total(self) -> int:
        return self.pace.total

    def say(self, text: str) -> None:
        self.pace.say(text)

    def _run(self, side: str, first: bool, limit: float | None) -> Outcome:
        self.pace.begin(side)
        out = self.runner.run(side, first, limit)
        self.pace.end(side)
        if side == "before":
            self.result.runs += 1
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
        counted = not self.plan.trace_first  # untraced first runs are timing samples too
        times_b, times_a = self.times_b, self.times_a
        if counted:
            times_b.append(first_b.seconds)
            times_a.append(first_a.seconds)
            self.waits["before"].append(first_b.cpu_wait_s)
            self.waits["after"].append(first_a.cpu_wait_s)
        self.pace.samples_start(first_b.seconds if counted else self.pace.expected_s or first_b.seconds, counted)
        self._pin_if_one_core(first_b, first_a)
        limits = {"before": max(MIN_TIMEOUT_S, 10 * first_b.seconds), "after": limit}
        rounds, most = 0, r.repeat
        again: list[Outcome] = []  # the original's timed runs: a second run of it masks what varies in its output
        while self.pace.round_fits(rounds, most, least=0 if times_b else 1):
            # A B, then B A: a drift in the machine's speed hits both versions alike
            for side in (side_of(2 + 2 * rounds), side_of(3 + 2 * rounds)):
                out = self._timed(side, limits[side])
                if out is None:
                    return
                (times_b if side == "before" else times_a).append(out.seconds)
                self.waits[side].append(out.cpu_wait_s)
                if side == "before":
                    again.append(out)
            rounds += 1
        observed.settle(r, first_b, first_a, again[0] if again else None)
        timings(r, times_b, times_a, self.waits["before"], self.waits["after"])
        cut = self.pace.cut_note(len(times_b), most, counted) if not r.faster else None
        if cut:
            r.notes.append(cut)

    def _pin_if_one_core(self, first_b: Outcome, first_a: Outcome) -> None:
        """Both versions' timed runs on the same CPU, when each used one core at most."""
        one_core = all(o.cpu_s is not None and o.cpu_s <= ONE_CORE * max(o.seconds, 1e-9) for o in (first_b, first_a))
        pin = getattr(self.runner, "pin_timed_runs", None)
        if one_core and pin is not None and pin():
            self.result.notes.append(
                "timing: the timed runs of both versions ran on the same CPU (a machine's CPUs can differ "
                "in speed, and each version's runs share one process)"
            )

    def _timed(self, side: str, limit: float) -> Outcome | None:
        """One timed run of ``side``; None when it failed (the Comparison then says how)."""
        out = self._run(side, False, limit)
        if side == "before":
            return None if self._stopped(out, "original", limit) else out
        if out.timed_out or out.error or out.blocked or out.crashed:  # a flaky rewrite: its failure, never a time
            self.result.timed_out = out.timed_out
            self._stopped(out, "rewrite", limit)
            return None
        return out

    def timing_how(self) -> str:
        """How the wall times were taken, for the Comparison's notes."""
        if self.plan.trace_first:
            return "wall time: median of the timed runs (the first run of each is for values and memory)"
        return (
            "wall time: median of the runs, the first of each included (for a cell this long its peak memory "
            "is not traced, so that run is not slowed)"
        )

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
            hint = (
                " (in a copy of the kernel, a thread, pool or connection made before the Try does not exist: "
                "the cell may be waiting on one that aiperf could not see)"
                if r.isolation == "process"
                else ""
            )
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
        self.pace.done += 2
        self.pace.extra += 2
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
            elif not self.plan.trace_first:
                self.peak_how.append(
                    "peak memory: not measured (tracing allocations would slow a cell this long up to 10x, and "
                    "this kernel's resident high-water mark cannot be read for one run)"
                )
            return
        r.before_peak_bytes, r.after_peak_bytes = b.peak_bytes, a.peak_bytes
        if b.peak_bytes:
            r.memory_ratio = a.peak_bytes / b.peak_bytes
        self.peak_how.append(
            {
                "tracemalloc": "peak memory: tracemalloc (Python and NumPy allocations) in the first run of each; "
                "other native allocators are not counted",
                "rss": "peak memory: growth of the trial process's resident memory in the first run of each "
                + (
                    "(torch's CPU allocator included)"
                    if uses_torch
                    else "(every allocator included; not traced, which would slow a cell this long up to 10x)"
                ),
                "cuda": "peak memory: torch.cuda.max_memory_allocated in the first run of each",
            }[b.peak_how]
        )


ONE_CORE = 1.1  # a first run whose process used at most this many cores is a one-core cell


def timings(
    result: Comparison,
    times_b: list[float],
    times_a: list[float],
    waits_b: list[float | None] | None = None,
    waits_a: list[float | None] | None = None,
) -> None:
    """Medians, p95, spread and the timing rule's verdict (``faster``, its interval) from the runs;
    with each run's wait for a CPU, a difference that waiting alone explains is not claimed."""
    result.repeat = len(times_b)
    result.before_s = statistics.median(times_b)
    result.after_s = statistics.median(times_a)
    result.before_p50_s, result.after_p50_s = result.before_s, result.after_s
    result.before_p95_s, result.after_p95_s = _p95(times_b), _p95(times_a)
    judged, busy = noise.busy_machine(noise.judge(times_b, times_a), times_b, times_a, waits_b or [], waits_a or [])
    result.speedup = judged.speedup
    result.speedup_low, result.speedup_high, result.faster = judged.low, judged.high, judged.faster
    spread_b = (max(times_b) - min(times_b)) / result.before_s if result.before_s else 0.0
    spread_a = (max(times_a) - min(times_a)) / result.after_s if result.after_s else 0.0
    result.notes.append(noise.sentence(judged))
    if busy:
        result.notes.append(busy)
    result.notes.append(f"spread (max-min)/median: before {spread_b:.0%}, after {spread_a:.0%}")


def _p95(values: list[float]) -> float:
    ordered = sorted(values)
    pos = 0.95 * (len(ordered) - 1)
    lo = int(pos)
    hi = min(lo + 1, len(ordered) - 1)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (pos - lo)


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
