"""Runtime evidence in ``%%aiperf``: each finding says what made it matter, or is kept out of view."""

from __future__ import annotations

from typing import Any

import libcst as cst

from aiperf_magic.render.html import render_html
from aiperf_magic.render.text import render_text
from aiperf_magic.report import Finding, Hotspot, Report
from aiperf_magic.rules.evidence import LARGE, MIN_SHARE, line_time, measure, sizes, weigh


def hot(line: int, share: float) -> Hotspot:
    return Hotspot(line=line, seconds=share * 2.0, share=share)


def finding(preview: bool = False) -> Finding:
    return Finding(code="AIP301", message="Row loop", line=2, end_line=3, preview=preview)


def test_line_time_sums_the_finding_lines() -> None:
    spots = [hot(1, 0.1), hot(2, 0.3), hot(3, 0.4), hot(5, 0.2)]
    share, seconds = line_time(spots, 2, 3)
    assert round(share, 6) == 0.7 and round(seconds, 6) == 1.4
    assert line_time(spots, None, None) == (0.0, 0.0)


def test_sizes_read_the_live_objects_named_in_the_code() -> None:
    node = cst.parse_expression("f(rows, table[0], n)")
    found = sizes(node, {"rows": list(range(50)), "table": {"a": 1}, "n": 3})
    assert found == {"items": 50}
    assert measure(object()) == (None, 0)
    assert measure((1, 2)) == ("items", 2)


def test_hot_finding_is_shown_with_its_evidence() -> None:
    f = finding()
    weigh(f, None, [hot(2, 0.6)], {}, sampled=True, wall_s=2.0)
    assert f.shown and f.hidden_reason is None and f.evidence["share"] == 0.6


def test_negligible_finding_on_small_data_is_kept_but_hidden() -> None:
    f = finding()
    weigh(f, cst.parse_expression("rows"), [hot(7, 0.9)], {"rows": [1, 2, 3]}, sampled=True, wall_s=0.01)
    assert not f.shown and f.evidence["items"] == 3
    assert f.hidden_reason is not None and "negligible" in f.hidden_reason and "3 items" in f.hidden_reason


def test_large_data_keeps_a_cold_finding_in_view() -> None:
    f = finding()
    data = {"rows": list(range(LARGE["items"]))}
    weigh(f, cst.parse_expression("rows"), [], data, sampled=True, wall_s=0.01)
    assert f.shown and f.evidence["share"] < MIN_SHARE


def test_preview_findings_need_evidence() -> None:
    quiet, hot_one = finding(preview=True), finding(preview=True)
    weigh(quiet, None, [], {}, sampled=True, wall_s=1.0)
    weigh(hot_one, None, [hot(3, 0.5)], {}, sampled=True, wall_s=1.0)
    assert not quiet.shown and "preview rule" in (quiet.hidden_reason or "")
    assert hot_one.shown
    unsampled_default, unsampled_preview = finding(), finding(preview=True)
    weigh(unsampled_default, None, [], {}, sampled=False, wall_s=1.0)
    weigh(unsampled_preview, None, [], {}, sampled=False, wall_s=1.0)
    assert unsampled_default.shown and not unsampled_preview.shown


def test_views_skip_hidden_findings_with_a_note() -> None:
    shown = Finding(code="AIP101", message="loader without workers", line=1)
    hidden = Finding(code="AIP301", message="Row loop", line=2, shown=False, hidden_reason="negligible")
    report = Report(source="a\nb\n", wall_s=1.0, findings=[shown, hidden])
    text = render_text(report)
    assert "AIP101" in text and "Row loop" not in text and "1 finding hidden (AIP301)" in text
    html = render_html(report)
    assert "loader without workers" in html and "Row loop" not in html and "1 finding hidden" in html


def test_cell_magic_hides_a_trap_that_did_not_matter(ip: Any) -> None:
    ip.run_cell("import pandas as pd")
    cell = (
        "%%aiperf --var rep --text --no-gpu\n"
        "small = pd.DataFrame({'a': range(3), 'b': range(3)})\n"
        "for i, row in small.iterrows():\n"
        "    small.loc[i, 'c'] = row['a'] * row['b']\n"
    )
    result = ip.run_cell(cell)
    report = ip.user_ns["rep"]
    (loop,) = [f for f in report.findings if f.code == "AIP301"]
    assert result.success
    assert not loop.shown and loop.hidden_reason and loop.evidence.get("rows") == 3
    assert "finding hidden" in render_text(report)
