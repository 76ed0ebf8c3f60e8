"""A Try's cost fits the cell, and its progress shows from the first second.

The schedule is driven on a simulated clock by trials that take the time a long cell would (the
kernel's 50 ms polls included, as a forked trial's wait has them), so a 5 s cell costs no 5 s here;
one real forked Try of a 1.3 s cell checks that progress arrives while a run is in progress.
"""

from __future__ import annotations

import itertools
import time
from typing import Any

from aiperf_magic import verify
from aiperf_magic.render.comparison import headline
from aiperf_magic.render.panel.outcome import outcome
from aiperf_magic.report import Comparison
from aiperf_magic.verification.pace import estimate, kernel_note
from aiperf_magic.verification.schedule import Schedule
from aiperf_magic.verification.trial import Outcome, Plan


class Clock:
    def __init__(self) -> None:
        self.t = 0.0

    def __call__(self) -> float:
        return self.t


class Trials:
    """Each run takes its version's seconds (plus 20 ms of plumbing), polled every 50 ms like a fork."""

    isolation = "process"

    def __init__(self, clock: Clock, before_s: float, after_s: float) -> None:
        self.clock, self.seconds = clock, {"before": before_s, "after": after_s}
        self.notes: list[str] = []
        self.tick: Any = None
        self.runs: list[str] = []

    def run(self, side: str, first: bool, limit: float | None) -> Outcome:
        self.runs.append(side)
        end = self.clock.t + self.seconds[side] + 0.02
        while self.clock.t + 0.05 < end:
            self.clock.t += 0.05
            if self.tick is not None:
                self.tick()
        self.clock.t = end
        out = Outcome(seconds=self.seconds[side], peak_bytes=1 << 20, peak_how="rss", names=["x"])
        out.equal = True if first and side == "after" else None
        return out

    def compare_fallback(self) -> Outcome:
        raise AssertionError("every value travels here")


def _try(before_s: float, after_s: float, expected_s: float | None, budget_s: float | None = None) -> tuple:
    clock, said = Clock(), []
    trials = Trials(clock, before_s, after_s)
    plan = Plan(codes={}, namespace={}, inputs=[], candidates=set(), compare=None, trace_first=expected_s is None
                or expected_s < 0.4)
    result = Comparison(equal=False, repeat=5, notes=[], runs=0)
    schedule = Schedule(trials, plan, result, lambda d, n, text: said.append((clock.t, d, n, text)),
                        expected_s, budget_s, clock)
    clock.t += 0.1  # the template copy of the kernel starts
    schedule.execute(None, None)
    return result, clock.t, said, trials


def test_an_identical_5_s_cell_costs_at_most_3x_plus_1_s_and_says_it_cannot_tell() -> None:
    c, spent, said, _ = _try(5.0, 5.0, expected_s=5.0)
    assert spent <= 3 * 5 + 1 and c.runs == 1 and c.faster is False and c.speedup_low is None
    assert "too few timed runs to tell" in headline(c)
    first, *during = [s for s in said if s[1] == 0]
    assert first[0] <= 1.0 and first[3] == "run 1 of 2 (about 10 s left)"  # from the first second
    assert len(during) >= 4  # while the first 5 s run is in progress ...
    stamps = [s[0] for s in said]
    assert all(b - a >= 0.99 for a, b in itertools.pairwise(stamps) if b < 5.1)  # ... at most once a second
    assert during[-1][3].startswith("run 1 of 2 (about") and during[-1][3] != first[3]


def test_a_20x_rewrite_of_a_5_s_cell_is_proven_within_the_budget() -> None:
    c, spent, said, trials = _try(5.0, 0.25, expected_s=5.0)
    assert spent <= (3 * 5 + 1) * 1.05 and c.faster and c.speedup_low and c.speedup_low > 1
    assert trials.runs == ["before", "after", "after", "before", "before", "after"]  # A B, then B A
    assert c.repeat == 3  # the untraced first runs count: 3 samples of each
    assert said[-1][3] == "run 6 of 6"


def test_a_1_s_cell_and_a_short_one() -> None:
    c, spent, _, _ = _try(1.0, 0.5, expected_s=1.0)
    assert spent <= 3 * 1 + 1 and c.faster is False and c.repeat == 2  # two runs of each tell only 3x apart
    assert headline(c) == ("Results are equal; too few timed runs to tell the times apart (2.00x from 2 timed "
                           "runs of each; the runs allow 0.67x to 6.00x).")
    assert any("--repeat 4 runs 5 of each" in n and "(about 6 s)" in n for n in c.notes), c.notes
    c, spent, _, trials = _try(0.01, 0.01, expected_s=0.01)
    assert c.repeat == 5 and len(trials.runs) == 12 and "no measurable difference" in headline(c)
    c, spent, _, trials = _try(5.0, 5.0, expected_s=5.0, budget_s=float("inf"))  # --repeat N, --allow-io
    assert len(trials.runs) == 12 and c.repeat == 6


def test_the_estimate_says_the_budget() -> None:
    assert estimate(0.01, 5)[1] == "about 0 s: each version runs 6 times and the original took 0.01 s"
    seconds, text = estimate(5.0, 5)
    assert seconds == 16 and "kept near 3x its time plus 1 s" in text
    assert estimate(5.0, 5, fit=False)[0] == 60
    assert estimate(None, 5) == (None, "each version runs up to 6 times")


def test_the_before_differs_from_the_header_only_beyond_the_noise_and_the_panel_says_why() -> None:
    assert kernel_note(0.2, [0.19, 0.2, 0.21], []) is None
    note = kernel_note(0.1216, [0.2016, 0.2, 0.205], ["torch ran on one CPU thread here"])
    assert note and note.startswith("the original took 201.6 ms here and 121.6 ms in the %%aiperf run")
    assert "torch ran on one CPU thread here; a trial copy pays a page copy" in note
    c = Comparison(equal=True, speedup=4.0, before_s=0.2, after_s=0.05, speedup_low=3.1, speedup_high=5.0,
                   faster=True, repeat=5, notes=[note, "timing: ..."])
    shown = outcome(c)
    assert shown["notice"] == [note] and note not in shown["method"] and "timing: ..." in shown["method"]
    assert shown["facts"][0]["text"] == "speedup ×4.00 (200.0 ms → 50.0 ms; at least ×3.10)"
    same = outcome(Comparison(equal=True, speedup=1.02, before_s=0.2, after_s=0.196, speedup_low=0.9,
                              speedup_high=1.15, faster=False, repeat=5))
    assert same["headline"].startswith("Results are equal; no measurable difference")
    assert same["facts"][0]["text"].endswith("; the runs allow ×0.90 to ×1.15)")


def test_progress_arrives_while_a_forked_run_is_in_progress() -> None:
    said: list[tuple[float, int, str]] = []
    start = time.monotonic()
    c = verify("time.sleep(1.3)\nx = 1\n", "time.sleep(1.3)\nx = 1\n", {"__name__": "__main__", "time": time}, repeat=5,
               expected_s=1.3, progress=lambda d, n, text: said.append((time.monotonic() - start, d, text)))
    assert c.equal and c.isolation == "process" and c.faster is False
    during_first = [text for _, done, text in said if done == 0 and text.startswith("run 1 of")]
    assert len(during_first) >= 2, said  # when the run began, and again while it ran
    assert c.repeat >= 1 and any(n.startswith("wall time: median of the runs, the first of each included")
                                 for n in c.notes)
