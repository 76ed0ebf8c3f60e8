"""The work after a cell is bounded: one budget shared by the stages, frames and columns sampled
past it (and said so), Ctrl-C stops it quietly."""

from __future__ import annotations

import itertools
import time
from typing import Any

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st
from IPython.utils.capture import capture_output

from aiperf_magic.ipython.hook import CellHook
from aiperf_magic.measure.frame_budget import spread_order
from aiperf_magic.measure.frames import FramesStage, profile_frame
from aiperf_magic.measure.stages import budget_for, run_after
from aiperf_magic.report import Report

WORDS = np.array(["north", "south", "east", "west"], dtype=object)


def wide_frame(columns: int, rows: int = 20_000, seed: int = 0) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    return pd.DataFrame({f"c{j}": pd.Series(WORDS[rng.integers(0, 4, rows)], dtype=object) for j in range(columns)})


def test_default_budget_is_half_a_second_or_a_quarter_of_the_cell() -> None:
    assert budget_for(0.1) == 0.5
    assert budget_for(10.0) == 2.5
    assert budget_for(10.0, asked_s=0.1) == 0.1
    assert budget_for(float("nan")) == 0.5


@given(st.integers(0, 600))
def test_spread_order_is_a_permutation_spread_at_every_prefix(n: int) -> None:
    order = spread_order(n)
    assert sorted(order) == list(range(n))
    if n >= 4:
        assert order[:2] == [0, n // 2]
        # any first k columns leave no gap wider than about n / (k / 2)
        k = 8 if n >= 8 else n
        head = [*sorted(order[:k]), n]
        assert max(b - a for a, b in itertools.pairwise(head)) <= 2 * n // k + 1


def test_a_frame_past_its_budget_is_sampled_and_its_memory_estimated() -> None:
    frame = wide_frame(40)
    ticks = iter(np.arange(0.0, 100.0, 0.1))
    prof = profile_frame("wide", frame, budget_s=0.45, clock=lambda: float(next(ticks)))
    names = [c.name for c in prof.columns]
    assert 3 <= len(names) < 40 and names == sorted(names, key=lambda n: int(n[1:]))
    assert set(names) == {f"c{i}" for i in spread_order(40)[: len(names)]}  # c0, c20, c10, c30, c5...
    assert any("profiled" in n and "of 40 columns, spread across the frame" in n for n in prof.notes)
    # the budget could not cover 40 columns: text columns were measured on fewer rows each
    assert {c.measured_on for c in prof.columns} == {"sample of 2000 rows"}
    assert all(c.suggested_dtype == "category" and c.safe for c in prof.columns)
    real = int(frame.memory_usage(deep=True).sum())
    assert abs(prof.memory_bytes - real) < 0.05 * real
    full = profile_frame("wide", frame.iloc[:, :3])  # with time enough, every row is measured
    assert {c.measured_on for c in full.columns} == {"full"} and len(full.columns) == 3


class FakeRun:
    def __init__(self, ns: dict[str, Any], deadline: float | None, clock: Any) -> None:
        self.user_ns, self.state, self.deadline, self.clock = ns, {}, deadline, clock


def test_frames_biggest_first_and_the_rest_named_when_the_budget_is_spent() -> None:
    now = [0.0]

    def clock() -> float:
        now[0] += 0.05  # every reading of the clock costs 50 ms
        return now[0]

    ns: dict[str, Any] = {"small": wide_frame(2, 1000), "big": wide_frame(8, 5000), "mid": wide_frame(4, 2000)}
    run = FakeRun({}, deadline=None, clock=clock)
    stage = FramesStage()
    stage.before(run)  # type: ignore[arg-type]
    run.user_ns.update(ns)
    run.deadline = 0.6
    report = Report(source="")
    stage.after(run, report)  # type: ignore[arg-type]
    assert [f.name for f in report.frames][:1] == ["big"]
    assert len(report.frames) < 3
    (note,) = [n for n in report.notes if "frames not profiled" in n]
    assert "after-cell budget was spent" in note and "--budget" in note and "small" in note


def test_stages_after_ctrl_c_are_cancelled_and_the_report_says_so() -> None:
    calls: list[str] = []

    class Stage:
        def __init__(self, name: str, fail: type[BaseException] | None = None) -> None:
            self.name, self.fail = name, fail

        def before(self, run: Any) -> None: ...

        def after(self, run: Any, report: Report) -> None:
            calls.append(f"after {self.name}")
            if self.fail is not None:
                raise self.fail("boom")

        def cancel(self, run: Any) -> None:
            calls.append(f"cancel {self.name}")

    report = Report(source="")
    stages = [Stage("a", ValueError), Stage("b", KeyboardInterrupt), Stage("c"), Stage("d")]
    run_after(stages, None, report)  # type: ignore[arg-type]
    assert calls == ["after a", "after b", "cancel c", "cancel d"]
    assert report.notes == [
        "a failed: ValueError: boom",
        "Stopped by Ctrl-C during b: the report shows what was done before; not run: c, d.",
    ]


def test_budget_option_bounds_the_work_after_the_cell(ip: Any) -> None:
    ip.run_cell("import numpy as np, pandas as pd")
    ip.user_ns["make"] = wide_frame
    body = "frames = [make(60, seed=i) for i in range(6)]\nf0, f1, f2, f3, f4, f5 = frames\n"
    with capture_output():
        t0 = time.perf_counter()
        ip.run_cell(f"%%aiperf --text --no-gpu --var rep --budget 0.2\n{body}")
        whole = time.perf_counter() - t0
    rep = ip.user_ns["rep"]
    assert whole - rep.wall_s < 0.2 + 1.0  # the budget, plus the analysis' first parse and the display
    notes = rep.notes + [n for f in rep.frames for n in f.notes]
    assert any("of 60 columns, spread across the frame" in n for n in notes) or any(
        "frames not profiled" in n for n in notes
    )


@pytest.mark.parametrize("budget", ["-1", "nan", "inf", "x"])
def test_a_bad_budget_is_a_usage_error(ip: Any, budget: str) -> None:
    with capture_output() as out:
        result = ip.run_cell(f"%%aiperf --budget {budget}\nran = True\n")
    assert not result.success and "ran" not in ip.user_ns
    assert "budget" in out.stdout + out.stderr and "Traceback" not in out.stdout + out.stderr


def test_ctrl_c_in_a_measurer_never_reaches_ipython(ip: Any) -> None:
    class Interrupted:
        cancelled = False

        def begin(self, raw: Any, cell_id: Any, count: Any) -> Any:
            return self

        def end(self, handle: Any, result: Any) -> None:
            raise KeyboardInterrupt

        def cancel(self) -> None:
            self.cancelled = True

    measurer = Interrupted()
    hook = CellHook(ip, measurer, lambda: measurer)  # type: ignore[arg-type]
    hook.register()
    try:
        with capture_output() as out:
            result = ip.run_cell("x = 1")
    finally:
        hook.unregister()
    assert result.success and measurer.cancelled
    assert "Error in callback" not in out.stdout + out.stderr and "Traceback" not in out.stdout + out.stderr
    assert "stopped by Ctrl-C" in out.stdout
