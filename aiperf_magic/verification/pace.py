"""How long a Try runs, and what its progress line says while it runs.

Cost fits the cell. A Try stops adding timed rounds (one run of each version) once the next one
would take it past its budget: 3x the original's time plus 1 s, and never under 4 s, so that a cell
of up to 0.4 s still gets the five rounds the timing rule needs (:mod:`.noise`). ``repeat`` is the most rounds;
``--allow-io`` runs exactly ``repeat`` (the count was announced), and so does a budget of ``inf``.

The first run of each version also gives its values and peak memory. For an original of 0.4 s or
more (the time of the ``%%aiperf`` run, ``expected_s``) the peak is the growth of the fresh trial
copy's resident high-water mark instead of ``tracemalloc``, which slows allocation-heavy code up to
10x; untraced, that first run is a timing sample like the others and the budget counts from the
start. Otherwise the first runs are traced, are not samples, and the budget counts from their end.

``expected_s`` itself is never a sample: it ran in the kernel, under ``%%aiperf``'s sampler, maybe
as the cell's first run (imports, caches, compilation), with torch's whole thread pool, not in a
copy. It sizes the plan, and :func:`kernel_note` says when the trials' median differs from it.

Progress says "run k of n" and the time left from the first second on, then again at most once a
second while a run is in progress (``ForkRunner.tick`` calls :meth:`Pace.tick` while the kernel
waits on a forked trial). In-process trials run on the kernel's own thread and are reported between
runs only: a reporting thread would take the GIL from the timed run and send messages to the
notebook while the audit guard is active.
"""

from __future__ import annotations

import math
import statistics
import time
from collections.abc import Callable

from .. import units as fmt
from .noise import ENOUGH_RUNS, MIN_EFFECT

LONG_S = 0.4  # from this original time on, first runs are untraced and count as timing samples
BUDGET_FACTOR = 3.0
BUDGET_EXTRA_S = 1.0
MIN_BUDGET_S = 4.0  # five rounds of a 0.4 s cell
SLACK = 1.05  # a round that ends within 5 % of the budget still runs
TICK_S = 1.0  # at most one progress update a second while a run is in progress
KERNEL_TOLERANCE = 0.10  # the %%aiperf run's time is "the same" within the trials' range +- 10 %

Progress = Callable[[int, int, str], None]


def traces_first(expected_s: float | None) -> bool:
    """True when the first run of each version traces allocations for its peak (short or unknown cells)."""
    return not (expected_s and expected_s >= LONG_S)


def budget(cell_s: float) -> float:
    """The most a Try's samples may take, for an original of ``cell_s`` seconds."""
    return max(BUDGET_FACTOR * cell_s + BUDGET_EXTRA_S, MIN_BUDGET_S)


def estimate(expected_s: float | None, repeat: int, fit: bool = True) -> tuple[float | None, str]:
    """(seconds, sentence) for the cost of a Try, from the original's measured time."""
    runs = max(1, int(repeat)) + 1
    if not expected_s:
        return None, f"each version runs up to {runs} times"
    full = 2 * runs * expected_s
    if not fit or full <= budget(expected_s):
        return full, f"about {full:.0f} s: each version runs {runs} times and the original took {expected_s:.2g} s"
    total = budget(expected_s) + (0.0 if not traces_first(expected_s) else 2 * expected_s)
    return total, (
        f"about {total:.0f} s: the original took {expected_s:.2g} s, and a Try is kept near "
        f"{BUDGET_FACTOR:g}x its time plus {BUDGET_EXTRA_S:g} s (each version runs up to {runs} times)"
    )


class Pace:
    """The Try's clock: its budget, its planned runs, and its progress line."""

    def __init__(
        self,
        progress: Progress | None,
        repeat: int,
        expected_s: float | None,
        budget_s: float | None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.progress = progress
        self.clock = clock
        self.expected_s = expected_s
        self.budget_s = budget_s
        self.budget_from = self.clock()
        self.rounds = self._first_guess(repeat)  # timed rounds still expected, revised as the budget binds
        self.cell_s = expected_s or 0.0
        self.walls: dict[str, list[float]] = {"before": [], "after": []}
        self.done = 0
        self.extra = 0
        self.current: tuple[str, float] | None = None
        self.said = -math.inf

    def _first_guess(self, repeat: int) -> int:
        """The rounds a Try of an original of ``expected_s`` will run, before anything ran."""
        e = self.expected_s
        if not e or self.budget_s is not None:
            return repeat
        counted = not traces_first(e)  # untraced first runs are inside the budget
        fit = int((budget(e) * SLACK - (2 * e if counted else 0.0)) // (2 * e))
        return max(0 if counted else 1, min(repeat, fit))

    @property
    def total(self) -> int:
        return 2 + 2 * self.rounds + self.extra

    def say(self, text: str) -> None:
        self.said = self.clock()
        if self.progress is not None:
            self.progress(self.done, self.total, text)

    def begin(self, side: str) -> None:
        self.current = (side, self.clock())
        self.say(self.line())

    def end(self, side: str) -> None:
        if self.current is not None:
            self.walls[side].append(self.clock() - self.current[1])
        self.current = None
        self.done += 1

    def tick(self) -> None:
        """Called about every 50 ms while the kernel waits on a trial: an update at most once a second."""
        if self.current is not None and self.clock() - self.said >= TICK_S:
            self.say(self.line())

    def samples_start(self, cell_s: float, from_start: bool) -> None:
        """The timed rounds begin: ``cell_s`` is the original's time the budget is sized by."""
        self.cell_s = cell_s
        if not from_start:
            self.budget_from = self.clock()

    def round_fits(self, done_rounds: int, most: int, least: int = 0) -> bool:
        """Whether one more timed round fits the budget (always, below ``least`` rounds); revises the
        planned rounds either way."""
        if self.budget_s is not None and math.isinf(self.budget_s):
            self.rounds = most
            return done_rounds < most
        limit = self.budget_s if self.budget_s is not None else budget(self.cell_s)
        per_round = self._predict("before") + self._predict("after")
        spent = self.clock() - self.budget_from
        room = max(0.0, limit * SLACK - spent) if limit > 0 else 0.0  # a budget of 0 or NaN: none
        more = int(room // per_round) if per_round > 0 else most
        self.rounds = max(least, done_rounds + max(0, min(most - done_rounds, more)))
        return self.rounds > done_rounds

    def cut_note(self, samples: int, most: int, counted: bool) -> str | None:
        """When the budget left too few runs for the timing rule: how to ask for enough, and its cost."""
        rounds = samples - (1 if counted else 0)
        if samples >= ENOUGH_RUNS or rounds >= most or (self.budget_s is not None and math.isinf(self.budget_s)):
            return None
        need = ENOUGH_RUNS - (1 if counted else 0)
        cost = need * (self._predict("before") + self._predict("after"))
        return (
            f"a Try is kept near {BUDGET_FACTOR:g}x the original's time plus {BUDGET_EXTRA_S:g} s, which left "
            f"{samples} timed run{'s' * (samples != 1)} of each; %aiperf try with --repeat {need} runs "
            f"{ENOUGH_RUNS} of each, enough to tell differences of {MIN_EFFECT:.0%} (about {cost:.0f} s)"
        )

    def _predict(self, side: str) -> float:
        walls = self.walls[side] or self.walls["before"]
        if walls:
            return statistics.median(walls[1:] or walls)  # a side's first run is a fresh copy: slower
        return self.expected_s or 0.0

    def line(self) -> str:
        text = f"run {self.done + 1} of {self.total}"
        left = self._left()
        if left is not None and left >= 2:
            return f"{text} (about {left:.0f} s left)"
        if self.current is not None and self.clock() - self.current[1] >= 2:
            return f"{text} ({self.clock() - self.current[1]:.0f} s so far)"
        return text

    def _left(self) -> float | None:
        """Seconds left: the runs to come at their versions' typical times, less the running one's time so far."""
        if not (self.walls["before"] or self.expected_s):
            return None
        guess = {side: self._predict(side) for side in ("before", "after")}
        left = sum(guess[side_of(i)] for i in range(self.done, self.total - self.extra))
        if self.current is not None:
            side, since = self.current
            left -= min(guess[side], self.clock() - since)
        return max(0.0, left)


def side_of(i: int) -> str:
    """The version the i-th run of a Try runs: the first of each, then rounds A B, B A, A B ..."""
    if i < 2:
        return ("before", "after")[i]
    first, second = ("after", "before") if (i - 2) // 2 % 2 == 0 else ("before", "after")
    return first if (i - 2) % 2 == 0 else second


def kernel_note(expected_s: float | None, times_b: list[float], reasons: list[str]) -> str | None:
    """A note when the original's time in the trials and in the ``%%aiperf`` run differ beyond the noise."""
    if not expected_s or not times_b:
        return None
    low, high = min(times_b) / (1 + KERNEL_TOLERANCE), max(times_b) * (1 + KERNEL_TOLERANCE)
    if low <= expected_s <= high:
        return None
    here = statistics.median(times_b)
    why = reasons + (
        ["the %%aiperf run may have paid first-time costs (imports, caches, compilation) and its own sampling"]
        if expected_s > here
        else ["a trial copy pays a page copy on its first write to each page it shares with the kernel"]
    )
    return (
        f"the original took {fmt.seconds(here)} here and {fmt.seconds(expected_s)} in the %%aiperf run "
        f"(the report's header): {'; '.join(why)}. Both versions ran alike here, so the speedup compares "
        "like with like"
    )
