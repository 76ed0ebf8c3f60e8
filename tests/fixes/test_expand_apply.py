"""AIP302 for ``col.apply(pd.Series)``: a Series built from each element, then a frame of them, becomes
``pd.DataFrame(col.tolist(), index=col.index)``, the same frame (columns, dtypes, index) made at once;
found from the run on the line that costs; refused on a computed receiver."""

from __future__ import annotations

from typing import Any

import pytest

from aiperf_magic.report import Report
from aiperf_magic.rules import analyze_cell
from tests.fixes.fixer_output import rewritten

pd = pytest.importorskip("pandas")


def _apply_call(analysis: Any) -> Any:
    return next(c.node for c in analysis.facts.calls if c.method == "apply")


def _records(n: int) -> Any:
    users = [{"id": i, "followers": i * 7 % 5_000, "verified": i % 20 == 0, "lang": ["en", "fr", "de"][i % 3]}
             for i in range(n)]
    return pd.DataFrame({"tweet_id": range(n), "user": users}, index=[f"t{i}" for i in range(n)])


@pytest.mark.parametrize("cell", [
    "import pandas as pd\nexpanded = tweets['user'].apply(pd.Series)\n",
    "import pandas\nexpanded = tweets.user.apply(pandas.Series)\n",
])
def test_a_series_per_element_becomes_one_frame_of_the_elements(cell: str) -> None:
    tweets = _records(50)
    out = rewritten(analyze_cell(cell), "AIP302", _apply_call(analyze_cell(cell)))
    assert ".apply(" not in out and ".DataFrame(" in out and ".tolist(), index=" in out, out
    before: dict[str, Any] = {"tweets": tweets}
    after: dict[str, Any] = {"tweets": tweets}
    exec(cell, before)
    exec(out, after)
    pd.testing.assert_frame_equal(before["expanded"], after["expanded"])  # columns, dtypes and index alike


def test_lists_expand_by_position_alike() -> None:
    cell = "import pandas as pd\nparts = s.apply(pd.Series)\n"
    out = rewritten(analyze_cell(cell), "AIP302", _apply_call(analyze_cell(cell)))
    s = pd.Series([[1, 2.5, "a"], [3, 4.5, "b"]], index=[10, 11])
    before: dict[str, Any] = {"s": s}
    after: dict[str, Any] = {"s": s}
    exec(cell, before)
    exec(out, after)
    pd.testing.assert_frame_equal(before["parts"], after["parts"])


def test_a_computed_receiver_is_refused() -> None:
    cell = "import pandas as pd\nparts = df['a'].dropna().apply(pd.Series)\n"
    analysis = analyze_cell(cell)
    assert rewritten(analysis, "AIP302", _apply_call(analysis)) == (
        "apply is called on a computed value; assign it to a name first")


def test_the_run_finds_it_on_the_line_that_costs_and_its_rewrite_is_the_same_frame(ip: Any) -> None:
    from aiperf_magic.verification import verify

    ip.user_ns.update(pd=pd, tweets=_records(4_000))
    cell = "expanded = tweets['user'].apply(pd.Series)\nby_lang = expanded.groupby('lang')['followers'].median()\n"
    assert ip.run_cell("%%aiperf --var rep --text --no-gpu\n" + cell).success
    report = ip.user_ns["rep"]
    assert isinstance(report, Report)
    (found,) = [f for f in report.findings if f.code == "AIP302" and f.shown]
    assert found.line == 1 and "apply built a Series from each of the 4,000 elements of tweets['user']" in found.message
    assert found.fixable and found.fix is not None and found.fix.source is not None
    c = verify(cell, found.fix.source, ip.user_ns, repeat=3)
    assert c.equal, c.difference
