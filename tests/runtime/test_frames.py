"""The pandas profiler on crafted frames with known answers; runs under pandas 2 and pandas 3."""

from __future__ import annotations

import sys
from typing import Any

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

from aiperf_magic.measure import frame_columns as frames_columns
from aiperf_magic.measure.frame_columns import smallest_int
from aiperf_magic.measure.frames import FramesStage, frame_finding, profile_frame, snapshot
from aiperf_magic.report import Report

N = 20_000
RNG = np.random.default_rng(7)


def known_frame() -> pd.DataFrame:
    return pd.DataFrame(
        {
            "small": RNG.integers(0, 100, N),
            "port": RNG.integers(0, 60_000, N),
            "delta": RNG.integers(-1_000, 1_000, N),
            "quarters": RNG.integers(0, 1_000, N) / 4,  # exact in float32
            "noise": RNG.random(N),  # float32 rounds it
            "huge": np.full(N, 1e300),  # float32 overflows
            "city": pd.Series(RNG.choice(["Paris", "Lyon", "Nice"], N), dtype=object),
            "uid": [f"user-{i}" for i in range(N)],
            "flag": np.array([True, False] * (N // 2), dtype=object),
            "already": pd.Categorical(RNG.choice(["a", "b"], N)),
            "nullable": pd.array(RNG.integers(0, 10, N), dtype="Int64"),
        }
    )


def by_name(prof: Any) -> dict[str, Any]:
    return {c.name: c for c in prof.columns}


def test_known_answers() -> None:
    prof = profile_frame("df", known_frame())
    cols = by_name(prof)
    expect = {
        "small": ("int8", True),
        "port": ("uint16", True),
        "delta": ("int16", True),
        "quarters": ("float32", True),
        "noise": ("float32", False),
        "city": ("category", True),
        "flag": ("bool", True),
        "nullable": ("Int8", True),
    }
    for name, (dtype, safe) in expect.items():
        assert (cols[name].suggested_dtype, cols[name].safe) == (dtype, safe), cols[name]
    for name in ("huge", "uid", "already"):
        assert cols[name].suggested_dtype is None and cols[name].reason, cols[name]
    assert "overflow" in cols["huge"].reason
    assert cols["already"].reason == "already categorical"
    assert cols["small"].saving_bytes == N * 7  # int64 -> int8, measured by converting
    assert all(c.measured_on == "full" for c in prof.columns)
    assert prof.rows == N and prof.saving_bytes == sum(c.saving_bytes for c in prof.columns)


def test_safe_suggestions_are_lossless_on_every_row() -> None:
    frame = known_frame()
    prof = profile_frame("df", frame)
    for c in prof.columns:
        if c.suggested_dtype and c.safe:
            original = frame[c.name]
            back = original.astype(c.suggested_dtype).astype(original.dtype)
            pd.testing.assert_series_equal(back, original, check_exact=True)


def test_fix_statement_runs_and_keeps_values() -> None:
    frame = known_frame()
    prof = profile_frame("df", frame)
    assert prof.fix_source is not None and prof.fix_source.startswith("df = df.astype({")
    ns = {"df": frame.copy()}
    exec(prof.fix_source, ns)
    assert str(ns["df"]["small"].dtype) == "int8" and str(ns["df"]["city"].dtype) == "category"
    assert "noise" not in prof.fix_source  # lossy float32 stays out of a safe fix
    assert ns["df"].memory_usage(deep=True).sum() < frame.memory_usage(deep=True).sum() / 2
    assert (ns["df"]["small"].astype("int64") == frame["small"]).all()


def test_finding_with_fix_and_line() -> None:
    source = "import pandas as pd\ndf = make()\nprint(len(df))\n"
    prof = profile_frame("df", known_frame())
    finding = frame_finding(prof, source)
    assert finding is not None and finding.code == "AIP303" and finding.line == 2
    assert finding.fix is not None and finding.fix.safety == "safe"
    assert finding.fix.source == source + prof.fix_source + "\n"
    assert "+df = df.astype(" in finding.fix.diff
    assert "noise" in finding.message  # the lossy option is still mentioned


def test_only_lossy_suggestions_give_an_unsafe_fix() -> None:
    prof = profile_frame("x", pd.DataFrame({"noise": RNG.random(100_000)}))
    finding = frame_finding(prof, "x = f()")
    assert finding is not None and finding.fix is not None and finding.fix.safety == "unsafe"


def test_small_savings_get_no_finding_but_the_frame_is_listed() -> None:
    prof = profile_frame("row", pd.Series([0.5, 2.0], index=["price", "qty"]))
    assert prof.columns and frame_finding(prof, "for _, row in df.iterrows(): pass") is None


def test_float_beyond_tolerance_is_not_suggested() -> None:
    prof = profile_frame("s", pd.Series([1e-40, 3e-41, 1.0] * 100, name="tiny"))
    (col,) = prof.columns
    assert col.suggested_dtype is None and "tolerance" in col.reason


def test_infinities_are_not_overflow_but_huge_values_are() -> None:
    lossy = pd.Series([np.inf, -np.inf, np.nan, 0.1, 2.0 / 3.0] * 40)
    (col,) = profile_frame("s", lossy).columns
    assert col.suggested_dtype == "float32" and not col.safe
    (col,) = profile_frame("s", pd.Series([np.inf, 1e39, 0.1] * 40)).columns
    assert col.suggested_dtype is None and "overflow" in col.reason


def test_series_and_multiindex() -> None:
    s = pd.Series(RNG.integers(0, 50, 1000))
    prof = profile_frame("s", s)
    assert prof.kind == "Series" and prof.fix_source == "s = s.astype('int8')"
    columns = pd.MultiIndex.from_tuples([("a", "x"), ("a", "y")])
    index = pd.MultiIndex.from_product([range(100), ["u", "v"]])
    frame = pd.DataFrame(RNG.integers(0, 9, (200, 2)), columns=columns, index=index)
    prof = profile_frame("m", frame)
    assert prof.fix_source is not None and "('a', 'x'): 'int8'" in prof.fix_source
    ns = {"m": frame}
    exec(prof.fix_source, ns)
    assert list(map(str, ns["m"].dtypes)) == ["int8", "int8"]


@pytest.mark.parametrize(
    "frame",
    [
        pd.DataFrame(),
        pd.DataFrame({"a": pd.Series([], dtype="int64"), "b": pd.Series([], dtype=object)}),
        pd.DataFrame({"nan": [np.nan] * 50, "none": [None] * 50}),
        pd.DataFrame({"mixed": [1, "a", 2.5, None] * 50, "lists": [[1], [2]] * 100}),
        pd.DataFrame({"d": {"k": 1}} for _ in range(10)),
        pd.DataFrame(
            {
                "tz": pd.date_range("2024", periods=60, tz="UTC"),
                "period": pd.period_range("2024", periods=60, freq="D"),
                "interval": pd.interval_range(0, 60),
                "sparse": pd.arrays.SparseArray([0] * 59 + [1]),
                "string": pd.array(["a", None] * 30, dtype="string"),
                "boolean": pd.array([True, None] * 30, dtype="boolean"),
                "allna": pd.array([None] * 60, dtype="Int64"),
            }
        ),
    ],
    ids=["no-columns", "no-rows", "all-missing", "mixed-objects", "dicts", "extension-dtypes"],
)
def test_odd_frames_never_crash(frame: pd.DataFrame) -> None:
    prof = profile_frame("odd", frame)
    assert len(prof.columns) == frame.shape[1]
    assert all(c.reason or c.suggested_dtype for c in prof.columns if len(frame))
    if prof.fix_source:
        exec(prof.fix_source, {"odd": frame.copy()})


def test_mixed_objects_become_category_losslessly() -> None:
    frame = pd.DataFrame({"mixed": [1, "a", 2.5, None] * 500})
    (col,) = profile_frame("f", frame).columns
    assert col.suggested_dtype == "category" and col.safe
    back = frame["mixed"].astype("category").astype(object)
    assert back.equals(frame["mixed"])


def test_duplicate_column_names_get_no_suggestion() -> None:
    frame = pd.DataFrame(RNG.integers(0, 9, (100, 2)), columns=["a", "a"])
    prof = profile_frame("d", frame)
    assert all(c.suggested_dtype is None for c in prof.columns) and prof.fix_source is None
    assert any("duplicate" in n for n in prof.notes)


def test_big_columns_are_sampled(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(frames_columns, "FULL_ROWS", 5_000)
    monkeypatch.setattr(frames_columns, "NUMERIC_FULL_ROWS", 5_000)
    monkeypatch.setattr(frames_columns, "SAMPLE_ROWS", 1_000)
    frame = pd.DataFrame(
        {
            "i": RNG.integers(0, 100, 50_000),
            "q": RNG.integers(0, 100, 50_000) / 2,
            "c": pd.Series(RNG.choice(["x", "y"], 50_000), dtype=object),
        }
    )
    cols = by_name(profile_frame("big", frame))
    assert all(c.measured_on == "sample of 1000 rows" for c in cols.values())
    assert cols["i"].suggested_dtype == "int8" and cols["i"].safe  # range checked on every row
    assert cols["q"].suggested_dtype == "float32" and not cols["q"].safe  # exact only in the sample
    assert cols["i"].saving_bytes == 50_000 * 7
    assert cols["c"].memory_bytes > 50_000 * 8  # deep memory, scaled up from the sample


def test_time_budget_stops_taking_columns() -> None:
    ticks = iter(np.arange(0.0, 100.0, 0.6))
    frame = pd.DataFrame({f"c{i}": RNG.integers(0, 9, 10) for i in range(10)})
    prof = profile_frame("wide", frame, budget_s=1.0, clock=lambda: float(next(ticks)))
    assert 0 < len(prof.columns) < 10
    assert any("budget" in n for n in prof.notes)


@given(st.integers(-(2**31), 2**32 - 1), st.integers(0, 2**31))
def test_smallest_int_holds_the_range(lo: int, width: int) -> None:
    hi = lo + width
    name = smallest_int(lo, hi, nullable=False)
    if name is None:
        assert lo < -(2**31) or hi > 2**32 - 1 or (lo < 0 and hi > 2**31 - 1)
        return
    info = np.iinfo(name)
    assert info.min <= lo and hi <= info.max
    assert smallest_int(lo, hi, nullable=True) == name.capitalize().replace("Uint", "UInt")


class FakeRun:
    def __init__(self, ns: dict[str, Any]) -> None:
        self.user_ns = ns
        self.state: dict[str, Any] = {}


def test_stage_profiles_only_new_or_changed_frames() -> None:
    old = pd.DataFrame({"a": RNG.integers(0, 9, 100_000)})
    changed = pd.DataFrame({"b": RNG.integers(0, 9, 100_000)})
    ns: dict[str, Any] = {"old": old, "changed": changed, "_": pd.DataFrame({"z": [1]})}
    run = FakeRun(ns)
    stage = FramesStage()
    stage.before(run)  # type: ignore[arg-type]
    ns["changed"] = changed.assign(c=1)
    ns["new"] = pd.Series(RNG.integers(0, 9, 100_000))
    report = Report(source="changed = changed.assign(c=1)\nnew = make()\n")
    stage.after(run, report)  # type: ignore[arg-type]
    assert sorted(f.name for f in report.frames) == ["changed", "new"]
    lines = {f.message.split("`")[1]: f.line for f in report.findings if f.code == "AIP303"}
    assert lines == {"changed": 1, "new": 2}


def test_stage_does_nothing_without_pandas(monkeypatch: pytest.MonkeyPatch) -> None:
    run = FakeRun({"df": pd.DataFrame({"a": [1, 2]})})
    monkeypatch.delitem(sys.modules, "pandas")
    stage = FramesStage()
    stage.before(run)  # type: ignore[arg-type]
    assert snapshot(run.user_ns) == {}
    report = Report(source="")
    stage.after(run, report)  # type: ignore[arg-type]
    assert report.frames == [] and report.findings == []


def test_frames_through_the_magic(measure: Any, ip: Any) -> None:
    ip.run_cell("import pandas as pd, numpy as np\nkept = pd.DataFrame({'k': np.arange(1000)})")
    report = measure(
        "sales = pd.DataFrame({'qty': np.arange(5000) % 7,\n                      'shop': ['north', 'south'] * 2500})"
    )
    assert [f.name for f in report.frames] == ["sales"]
    cols = by_name(report.frames[0])
    assert cols["qty"].suggested_dtype == "int8" and cols["shop"].suggested_dtype == "category"
    finding = report.finding("AIP303")
    assert finding is not None and finding.line == 1 and finding.fix is not None
    assert Report.from_json(report.to_json()).frames == report.frames
