""""Faster" means beyond the runs' noise: the timing rule on numbers, then on real Tries.

An identical rewrite is tried 20 times with few runs and is never called faster; a rewrite 25x
faster is called faster with two runs of each; a much slower one is called slower.
"""

from __future__ import annotations

import itertools
import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from aiperf_magic import verify
from aiperf_magic.render.comparison import ENOUGH_RUNS, headline, render_comparison_html, render_comparison_text
from aiperf_magic.report import Comparison
from aiperf_magic.verification import noise
from aiperf_magic.verification.noise import MIN_EFFECT, _u_counts, judge, rank_and_allowance, sentence

LOOP = "s = 0\nfor i in range(N):\n    s += i * i\n"
COUNT = "r = sum(1 for _ in range(N)) > 0\n"
times = st.lists(st.floats(min_value=1e-4, max_value=10.0), min_size=2, max_size=8)


def _ns(**kw: object) -> dict:
    return {"__name__": "__main__", **kw}


def test_the_mann_whitney_counts_are_those_of_every_ordering() -> None:
    for n, m in itertools.product(range(1, 5), range(1, 5)):
        counts = [0] * (n * m + 1)
        for positions in itertools.combinations(range(n + m), n):  # where the original's runs fall
            u = sum(sum(1 for q in range(p) if q not in positions) for p in positions)
            counts[u] += 1
        assert _u_counts(n, m) == counts, (n, m)


def test_the_fewer_the_runs_the_larger_the_allowance() -> None:
    assert rank_and_allowance(2, 2) == (1, 3.0)
    assert rank_and_allowance(3, 3) == (1, 1.5)
    assert rank_and_allowance(4, 4) == (1, 1.25)
    assert rank_and_allowance(5, 5) == (2, 1 + MIN_EFFECT)  # P(U <= 1) = 2/252 <= 1 %, P(U <= 2) = 4/252 > 1 %
    assert rank_and_allowance(60, 60)[0] > rank_and_allowance(50, 50)[0]  # the normal approximation
    assert rank_and_allowance(ENOUGH_RUNS, ENOUGH_RUNS)[1] == 1 + MIN_EFFECT < rank_and_allowance(4, 4)[1]
    assert ENOUGH_RUNS == noise.ENOUGH_RUNS == 5  # the headline's "too few" is the rule's
    assert rank_and_allowance(1, 3)[1] == math.inf  # 1 in 4 by luck alone: nothing can be claimed


def test_too_few_runs_say_so_and_claim_nothing() -> None:
    t = judge([1.0], [0.01])
    assert t.verdict == "too few" and t.low is None and not t.faster and t.speedup == 100
    assert "too few to tell" in sentence(t)
    c = Comparison(equal=True, speedup=100.0, speedup_low=None, speedup_high=None, faster=False, repeat=1)
    assert not c.better and "too few timed runs to tell" in headline(c) and "1 timed run of each" in headline(c)


def test_two_runs_of_each_claim_only_a_large_gap() -> None:
    assert judge([1.0, 1.02], [0.05, 0.051]).faster  # 20x
    assert judge([1.0, 1.02], [0.5, 0.51]).verdict == "same"  # 2x: two runs cannot tell it from a burst of load
    assert judge([1.0, 1.02, 1.01, 0.99, 1.0], [0.5, 0.51, 0.5, 0.52, 0.5]).faster  # five each can


@given(times)
def test_an_identical_rewrite_is_never_faster(xs: list[float]) -> None:
    assert judge(xs, list(xs)).verdict == "same"


@given(times, times, st.floats(min_value=0.01, max_value=100.0))
def test_the_rule_is_symmetric_and_unit_free(b: list[float], a: list[float], scale: float) -> None:
    there, back = judge(b, a), judge(a, b)
    assert there.faster == (back.verdict == "slower") and (there.verdict == "same") == (back.verdict == "same")
    scaled = judge([x * scale for x in b], [x * scale for x in a])
    assert math.isclose(scaled.low or 0, there.low or 0, rel_tol=1e-9) and scaled.verdict == there.verdict


@given(times, st.floats(min_value=1.0, max_value=1000.0))
def test_a_rewrite_faster_than_every_run_by_the_allowance_is_faster(b: list[float], gap: float) -> None:
    allowance = rank_and_allowance(len(b), len(b))[1]
    factor = allowance * (max(b) / min(b)) * (1 + 1e-6) * gap
    assert judge(b, [x / factor for x in b]).faster


def test_an_identical_rewrite_tried_20_times_is_never_called_faster() -> None:
    ns = _ns(N=30_000)  # a few ms
    seen = []
    for i in range(20):
        c = verify(LOOP, LOOP, ns, repeat=2 + i % 4)  # 2, 3, 4 and 5 runs of each: every allowance
        assert c.equal and c.faster is False and not c.better, c
        assert "faster" not in headline(c)
        seen.append(c.speedup or 0.0)
    assert len(seen) == 20


def test_a_rewrite_25x_faster_is_faster_with_two_runs_and_a_slower_one_is_slower() -> None:
    ns = _ns(N=600_000, M=24_000)
    slow, quick = COUNT, COUNT.replace("N", "M")  # the same value, 25 times less work
    faster = verify(slow, quick, ns, repeat=2)
    assert faster.equal and faster.faster and faster.better and faster.speedup_low and faster.speedup_low > 1
    text = render_comparison_text(faster)
    assert "faster (at least" in text and "interval" in text and "2 timed runs each" in text
    assert "beyond the runs&#x27; noise" in render_comparison_html(faster)
    slower = verify(quick, slow, ns, repeat=5)
    assert slower.equal and slower.faster is False and slower.speedup_high and slower.speedup_high < 1
    assert "the rewrite is slower" in headline(slower) and not slower.better
    assert any(n.startswith("timing: 5 runs of each version") for n in slower.notes)


def test_no_measurable_difference_is_said_as_such() -> None:
    c = Comparison(equal=True, speedup=1.04, speedup_low=0.9, speedup_high=1.2, faster=False, repeat=5, runs=6)
    assert headline(c) == (
        "Results are equal; no measurable difference in time (1.04x; the runs allow 0.90x to 1.20x)."
    )
    legacy = Comparison(equal=True, speedup=1.04, repeat=5)  # made without the rule: judged as before
    assert legacy.better and headline(legacy) == "Results are equal and the rewrite is 1.0x faster."


def test_a_difference_that_waiting_for_a_cpu_alone_explains_is_not_claimed() -> None:
    from aiperf_magic.verification.noise import busy_machine

    b = [0.0050, 0.0051, 0.0049, 0.0050, 0.0052, 0.0050]
    a = [0.0030, 0.0031, 0.0029, 0.0030, 0.0031, 0.0030]  # 1.7x "faster" by wall time ...
    waits_b = [t - 0.003 for t in b]  # ... all of it the original's copy waiting for a CPU
    waits_a = [0.0] * len(a)
    wall = judge(b, a)
    assert wall.faster
    kept, note = busy_machine(wall, b, a, waits_b, waits_a)
    assert not kept.faster and kept.verdict == "same" and note is not None
    assert "the machine was busy" in note and "no faster is claimed" in note
    # a real speedup that also waited is still claimed, and runs that did not wait are judged as before
    quick = [t / 5 for t in b]
    assert busy_machine(judge(b, quick), b, quick, waits_b, [0.0] * len(quick))[0].faster
    assert busy_machine(wall, b, a, [0.0] * len(b), waits_a) == (wall, None)
    assert busy_machine(wall, b, a, [None] * len(b), waits_a) == (wall, None)  # not measured: as before


def test_each_run_reads_its_wait_for_a_cpu() -> None:
    from aiperf_magic.verification.runner import run, run_queue_wait

    if run_queue_wait() is None:
        pytest.skip("no scheduler statistics on this system")
    result = run(compile("sum(range(100_000))", "<cell>", "exec"), {}, None)
    assert result.cpu_wait_s is not None and 0.0 <= result.cpu_wait_s <= result.seconds + 0.01
