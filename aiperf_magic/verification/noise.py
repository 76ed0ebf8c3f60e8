"""When a Try may say "faster": the rule that tells a real speedup from the runs' noise.

Each version's timing samples are its timed runs (and its first run, when that run was not slowed
by tracing its memory). The runs alternate, original first, B A A B B A ..., so that a drift in the
machine's speed hits both versions alike. The speedup is the ratio of the medians; its interval is
distribution-free: of the n x m ratios (a run of the original over a run of the rewrite), the k-th
smallest and the k-th largest, with k the largest rank whose chance of lying beyond the true ratio
is at most 1 % under the exact Mann-Whitney distribution, whatever the distribution of run times.

That interval is then widened by an *allowance* for what the runs cannot show: 10 % for differences
between the two trial copies, since each version's timed runs share one process (the core it was
placed on, a busy neighbour on that core, its memory layout); identical versions measured on a
shared 2-core machine differed that way by up to 9 % at the interval's end. When the runs are too
few for 1 % (fewer than five of each), the interval is the whole range of ratios and the allowance
grows with the chance that the runs fall apart by luck alone: x1.25 for four runs of each, x1.5 for
three, x3 for two (two runs of a 5 ms cell on that machine fell apart by up to 1.9x). "faster" when
the widened interval lies above 1.0, "slower" when it lies below, "no measurable difference"
otherwise; with fewer than two runs of either version, too few to tell.

A busy machine can make one trial copy wait for a CPU far more than the other (a neighbour on its
core): an identical rewrite once measured 1.8x "faster" that way, its interval 1.3x to 2.1x. So each
run also reads how long its thread waited, runnable, for a CPU held by another process (Linux's
scheduler statistics). When the runs waited 5 % of their time or more, the rule is applied again to
the times less those waits; a difference claimed by the wall times but not by the times the runs
had a CPU is not claimed: "no measurable difference", and a note says the machine was busy.
"""

from __future__ import annotations

import math
import statistics
from dataclasses import dataclass

ALPHA = 0.01  # each end of the interval is beyond the true ratio with at most this chance
WAIT_SHARE = 0.05  # runs that waited this share of their time for a CPU are judged without it too
MIN_EFFECT = 0.10  # the allowance with enough runs: differences between the trial copies
# (chance that the two versions' runs fall completely apart by luck, allowance) when it exceeds ALPHA
FEW_RUNS = ((1 / 70, 1.25), (1 / 20, 1.5), (1 / 6, 3.0))
ENOUGH_RUNS = next(n for n in range(1, 100) if 1 / math.comb(2 * n, n) <= ALPHA)  # 5: runs of each for ALPHA
MOST_RUNS = 200  # of each version, for the interval: beyond, every k-th run (in the order they ran)
EXACT_UP_TO = 2500  # n x m pairs; above, the normal approximation of the Mann-Whitney count
Z_ALPHA = 2.3263  # one-sided 1 % of the normal distribution


@dataclass
class Timing:
    """The rule's verdict on two lists of run times."""

    speedup: float | None  # median original / median rewrite
    low: float | None  # the widened interval; None when there are too few runs to tell
    high: float | None
    verdict: str  # "faster", "slower", "same" (no measurable difference) or "too few"
    runs: tuple[int, int]
    allowance: float = 1.0

    @property
    def faster(self) -> bool:
        return self.verdict == "faster"


def judge(times_b: list[float], times_a: list[float]) -> Timing:
    """Apply the rule to the original's and the rewrite's run times (seconds)."""
    n, m = len(times_b), len(times_a)
    med_b = statistics.median(times_b) if n else None
    med_a = statistics.median(times_a) if m else None
    speedup = med_b / med_a if med_b is not None and med_a else None
    if n < 2 or m < 2 or min(times_a) <= 0:
        return Timing(speedup, None, None, "too few", (n, m))
    step = math.ceil(max(n, m) / MOST_RUNS)  # a long --repeat: n x m ratios would not fit in memory
    times_b, times_a = times_b[::step], times_a[::step]
    k, allowance = rank_and_allowance(len(times_b), len(times_a))
    ratios = sorted(b / a for b in times_b for a in times_a)
    low, high = ratios[k - 1] / allowance, ratios[-k] * allowance
    verdict = "faster" if low > 1.0 else "slower" if high < 1.0 else "same"
    return Timing(speedup, low, high, verdict, (n, m), allowance)


def busy_machine(
    wall: Timing, times_b: list[float], times_a: list[float], waits_b: list[float | None], waits_a: list[float | None]
) -> tuple[Timing, str | None]:
    """``wall`` (the rule on the run times) checked against the times the runs had a CPU: a speedup
    or slowdown that waiting for a CPU alone explains is not claimed. Returns the verdict to keep,
    and a note when the waits changed it."""
    if wall.verdict not in ("faster", "slower") or len(waits_b) != len(times_b) or len(waits_a) != len(times_a):
        return wall, None
    if any(w is None for w in waits_b) or any(w is None for w in waits_a):
        return wall, None
    had_b = [(t, float(w or 0.0)) for t, w in zip(times_b, waits_b, strict=True)]
    had_a = [(t, float(w or 0.0)) for t, w in zip(times_a, waits_a, strict=True)]
    waited = max(w / t for t, w in had_b + had_a if t > 0)
    if waited < WAIT_SHARE:
        return wall, None
    running = judge([max(t - w, 1e-9) for t, w in had_b], [max(t - w, 1e-9) for t, w in had_a])
    if running.verdict == wall.verdict or running.low is None or running.high is None:
        return wall, None
    # the speedup and interval shown are those of the times the runs had a CPU, which the note names
    kept = Timing(running.speedup, running.low, running.high, "same", wall.runs, running.allowance)
    return kept, (
        f"timing: the machine was busy: runs waited up to {waited:.0%} of their time for a CPU held by other "
        f"processes; by wall time {wall.speedup:.2f}x (interval {wall.low:.2f}x to {wall.high:.2f}x), but "
        f"by the time they had a CPU {running.speedup:.2f}x (interval {running.low:.2f}x to {running.high:.2f}x): "
        f"no {wall.verdict} is claimed"
    )


def rank_and_allowance(n: int, m: int) -> tuple[int, float]:
    """The rank k of the interval's ends among the n x m ratios, and the allowance it is widened by."""
    chance = 1 / math.comb(n + m, n)  # all runs of one version beyond all runs of the other, by luck
    if chance > ALPHA:
        allowance = next((a for bound, a in FEW_RUNS if chance <= bound * (1 + 1e-9)), math.inf)
        return 1, allowance
    if n * m > EXACT_UP_TO:
        mean, sd = n * m / 2, math.sqrt(n * m * (n + m + 1) / 12)
        return max(1, math.floor(mean - Z_ALPHA * sd + 0.5)), 1 + MIN_EFFECT
    counts = _u_counts(n, m)
    total = math.comb(n + m, n)
    below, k = 0, 0
    while below + counts[k] <= ALPHA * total:  # P(U <= k) <= ALPHA: rank k + 1 is still safe
        below += counts[k]
        k += 1
    return max(1, k), 1 + MIN_EFFECT


def _u_counts(n: int, m: int) -> list[int]:
    """How many orderings of n and m runs give each Mann-Whitney count U = 0 .. n*m.

    The coefficients of the Gaussian binomial [n+m choose n]: the product over i of
    (1 - q^(m+i)) / (1 - q^i), each division exact.
    """
    poly = [1]
    for i in range(1, n + 1):
        grown = poly + [0] * (m + i)
        for d, c in enumerate(poly):
            grown[d + m + i] -= c
        for d in range(i, len(grown)):
            grown[d] += grown[d - i]
        poly = grown
    return poly[: n * m + 1]


def sentence(t: Timing) -> str:
    """The rule's verdict in words, for the Comparison's notes."""
    n, m = t.runs
    runs = f"{n} run{'s' * (n != 1)} of each version" if n == m else f"{n} runs of the original, {m} of the rewrite"
    if t.low is None or t.high is None:
        return (
            f"timing: {runs}: too few to tell the times apart "
            f"(the rule needs at least 2 of each, and {ENOUGH_RUNS} of each to tell differences of {MIN_EFFECT:.0%})"
        )
    how = (
        f"{MIN_EFFECT:.0%} allowance for differences between the trial copies"
        if t.allowance <= 1 + MIN_EFFECT
        else f"with so few runs, a difference must exceed x{t.allowance:g} beyond every run"
    )
    unclear = "no measurable difference" if t.allowance <= 1 + MIN_EFFECT else "too few runs to tell"
    said = {"faster": "faster", "slower": "slower", "same": unclear}[t.verdict]
    return (
        f"timing: {runs}, interleaved; speedup {t.speedup:.2f}x, interval {t.low:.2f}x to {t.high:.2f}x "
        f"(distribution-free, {how}): {said}"
    )
