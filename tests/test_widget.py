"""The panel's logic with a hand-made Report, a fake verify and a fake bridge."""

from __future__ import annotations

from typing import Any

import ipywidgets as widgets
import plotly.graph_objects as go
import pytest

from aiperf_magic.apply.bridge import Reply
from aiperf_magic.render import _with_panel
from aiperf_magic.render.frontend import WIDGET_MIME, can_render_widgets
from aiperf_magic.render.panel.timeline import time_axis, timeline_figure
from aiperf_magic.render.panel.view import build_panel, panel_bundle
from aiperf_magic.report import (
    ColumnProfile,
    Comparison,
    ErrorInfo,
    Finding,
    Fix,
    FrameProfile,
    GpuSeries,
    Hotspot,
    Report,
    Samples,
    Verdict,
)

XSS = "<script>alert('x')</script><img src=x onerror=alert(1)>"
BODY = "total = 0\nfor _, row in df.iterrows():\n    total += row['a']\n"
FIXED = "total = df['a'].sum()\n"


def make_report(**changes: Any) -> Report:
    samples = Samples(
        t=[0.0, 0.02, 0.04],
        cpu_percent=[90.0, 100.0, None],
        cpu_per_core=[[80.0, 10.0], [100.0, 0.0], None],
        rss_bytes=[100 << 20, 120 << 20, 130 << 20],
        gpus=[GpuSeries(index=0, util_percent=[0.0, 50.0, 99.0], mem_used_bytes=[1 << 30, 2 << 30, None])],
    )
    frame = FrameProfile(
        name="df",
        rows=100_000,
        memory_bytes=800_000,
        columns=[ColumnProfile(name=XSS, dtype="int64", memory_bytes=8000, suggested_dtype="int8", saving_bytes=7000)],
        saving_bytes=7000,
        fix_source="df = df.astype({'a': 'int8'})",
    )
    report = Report(
        source=BODY,
        cell_id="cell-1",
        magic_line="%%aiperf --interval 10",
        wall_s=1.5,
        cpu_s=1.4,
        samples=samples,
        hotspots=[Hotspot(line=2, seconds=1.2, share=0.8, callee="iterrows", text=XSS)],
        findings=[
            Finding(
                code="AIP301",
                message="Row loop over a DataFrame " + XSS,
                line=2,
                fix=Fix(title="Use a column sum", source=FIXED, diff=f"-{XSS}\n+{FIXED}"),
                fixable=True,
            ),
            Finding(code="AIP101", message="no fix", line=1, fix=Fix(title="none", reason="needs a human")),
            Finding(
                code="AIP303",
                message="smaller dtypes",
                fix=Fix(title="Convert df", source=BODY + "df = df.astype({'a': 'int8'})\n"),
                fixable=True,
            ),
        ],
        verdict=Verdict(code="AIP901", title="CPU-bound", sentence="One core busy " + XSS),
        frames=[frame],
        error=ErrorInfo(type="ValueError", message=XSS),
        notes=[XSS],
    )
    for key, value in changes.items():
        setattr(report, key, value)
    return report


class FakeBridge:
    def __init__(self) -> None:
        self.requests: list[dict[str, Any]] = []

    def request(self, op: str, cell_id: Any, source: Any, expect: str, on_done: Any) -> None:
        self.requests.append({"op": op, "cell_id": cell_id, "source": source, "expect": expect, "done": on_done})

    def answer(self, reply: Reply) -> None:
        self.requests[-1]["done"](reply)


def fake_verify(result: Comparison | Exception) -> Any:
    calls: list[tuple[str, str]] = []

    def verify(before: str, after: str, namespace: dict[str, Any], repeat: int = 5) -> Comparison:
        calls.append((before, after))
        if isinstance(result, Exception):
            raise result
        return result

    verify.calls = calls  # type: ignore[attr-defined]
    return verify


EQUAL = Comparison(
    equal=True,
    speedup=40.0,
    memory_ratio=0.5,
    before_s=0.4,
    after_s=0.01,
    repeat=5,
    before_p50_s=0.4,
    before_p95_s=0.45,
    after_p50_s=0.01,
    after_p95_s=0.012,
)


def all_html(widget: Any) -> str:
    """Every HTML string in a widget tree (what the browser would get as markup)."""
    out = []
    if isinstance(widget, widgets.HTML):
        out.append(widget.value)
    for child in getattr(widget, "children", ()):
        out.append(all_html(child))
    return "\n".join(out)


def first_fix(panel: Any) -> Any:
    return panel.findings[0].controls


def test_panel_renders_every_section() -> None:
    panel = build_panel(make_report(), verify=fake_verify(EQUAL), bridge=FakeBridge(), namespace={})
    html = all_html(panel.view)
    assert isinstance(panel.timeline, go.FigureWidget)
    assert {t.name for t in panel.timeline.data} >= {"process CPU (cores)", "RSS (GiB)", "GPU 0 util %"}
    for text in ("1. AIP301", "2. AIP101", "No rewrite: needs a human", "AIP901", "Findings (3)", "iterrows"):
        assert text in html
    assert [c.controls is not None for c in panel.findings] == [True, False, True]
    assert panel.frames[0].controls is not None and panel.frames[0].controls.try_button.description == "Try downcast"


def test_user_strings_are_escaped_everywhere() -> None:
    panel = build_panel(make_report(), verify=fake_verify(EQUAL), bridge=FakeBridge(), namespace={})
    html = all_html(panel.view)
    assert "<script>" not in html and "<img" not in html
    assert html.count("&lt;script&gt;") >= 6  # message, diff, verdict, error, notes, hotspot, column


def test_try_equal_enables_apply_and_shows_the_gain() -> None:
    verify = fake_verify(EQUAL)
    panel = build_panel(make_report(), verify=verify, bridge=FakeBridge(), namespace={"df": 1})
    fix = first_fix(panel)
    assert fix.edit.apply_button.disabled and fix.edit.undo_button.disabled
    fix.try_button.click()
    assert verify.calls == [(BODY, FIXED)]
    assert "✓ equal" in fix.result.value and "speedup ×40.00" in fix.result.value and "p95" in fix.result.value
    assert isinstance(fix.chart.children[0], go.FigureWidget)
    assert not fix.edit.apply_button.disabled and fix.progress.value == ""


@pytest.mark.parametrize(
    ("result", "shown"),
    [
        (Comparison(equal=False, speedup=3.0, difference="row 2: 1.0 != 1.5"), "row 2: 1.0 != 1.5"),
        (Comparison(equal=True, timed_out=True), "timed out"),
        (RuntimeError("boom " + XSS), "RuntimeError: boom &lt;script&gt;"),
    ],
)
def test_try_without_proof_keeps_apply_disabled(result: Any, shown: str) -> None:
    panel = build_panel(make_report(), verify=fake_verify(result), bridge=FakeBridge(), namespace={})
    fix = first_fix(panel)
    fix.try_button.click()
    assert shown in fix.result.value
    assert fix.edit.apply_button.disabled and not fix.try_button.disabled


def test_unsafe_fix_applies_after_explicit_confirmation() -> None:
    report = make_report()
    report.findings[0].fix.safety = "unsafe"  # type: ignore[union-attr]
    panel = build_panel(report, verify=fake_verify(EQUAL), bridge=FakeBridge(), namespace={})
    fix = first_fix(panel)
    assert fix.confirm.layout.display == "" and fix.edit.apply_button.disabled
    fix.confirm.value = True
    assert not fix.edit.apply_button.disabled


def test_apply_and_undo_send_exact_texts() -> None:
    bridge = FakeBridge()
    panel = build_panel(make_report(), verify=fake_verify(EQUAL), bridge=bridge, namespace={})
    fix = first_fix(panel)
    fix.try_button.click()
    fix.edit.apply_button.click()
    original = "%%aiperf --interval 10\n" + BODY
    rewritten = "%%aiperf --interval 10\n" + FIXED
    req = bridge.requests[0]
    assert (req["op"], req["cell_id"], req["source"], req["expect"]) == (
        "replace",
        "cell-1",
        rewritten,
        original,
    )
    assert fix.edit.apply_button.disabled and fix.try_button.disabled  # waiting for the reply
    bridge.answer(Reply(ok=True))
    assert fix.edit.apply_button.disabled and not fix.edit.undo_button.disabled
    assert "Applied" in fix.edit.status.value
    fix.edit.undo_button.click()
    req = bridge.requests[1]
    assert (req["op"], req["source"], req["expect"]) == ("undo", original, rewritten)
    bridge.answer(Reply(ok=True))
    assert not fix.edit.apply_button.disabled and fix.edit.undo_button.disabled
    assert "Undone" in fix.edit.status.value


def test_refusal_is_shown_and_apply_can_be_retried() -> None:
    bridge = FakeBridge()
    panel = build_panel(make_report(), verify=fake_verify(EQUAL), bridge=bridge, namespace={})
    fix = first_fix(panel)
    fix.try_button.click()
    fix.edit.apply_button.click()
    bridge.answer(Reply(ok=False, reason="The cell was edited after aiperf ran it " + XSS))
    assert "The cell was edited" in fix.edit.status.value and "<script>" not in fix.edit.status.value
    assert fix.edit.fallback.value == "" and not fix.edit.apply_button.disabled


def test_missing_extension_switches_to_copy_and_apply_n() -> None:
    bridge = FakeBridge()
    panel = build_panel(make_report(), verify=fake_verify(EQUAL), bridge=bridge, namespace={})
    fix = first_fix(panel)
    fix.try_button.click()
    fix.edit.apply_button.click()
    bridge.answer(Reply(ok=False, reason="no extension", missing_extension=True))
    assert "aiperf-copy" in fix.edit.fallback.value and "%aiperf apply 1" in fix.edit.fallback.value
    assert "df[&#x27;a&#x27;].sum()" in fix.edit.fallback.value  # the copied text, escaped


def test_frame_try_downcast_verifies_the_dtype_fix() -> None:
    verify = fake_verify(EQUAL)
    panel = build_panel(make_report(), verify=verify, bridge=FakeBridge(), namespace={})
    frame_fix = panel.frames[0].controls
    frame_fix.try_button.click()
    assert verify.calls == [(BODY, BODY + "df = df.astype({'a': 'int8'})\n")]
    assert not frame_fix.edit.apply_button.disabled


def test_empty_report_renders_placeholders() -> None:
    panel = build_panel(Report(source="x = 1\n"), verify=fake_verify(EQUAL), bridge=FakeBridge(), namespace={})
    html = all_html(panel.view)
    assert panel.timeline is None and "Too short to sample" in html
    assert "No known performance traps" in html and "No DataFrame" in html


@pytest.mark.parametrize(("end", "unit"), [(1.0, "seconds"), (600.0, "minutes"), (3 * 3600.0, "hours")])
def test_time_axis_suits_the_run_length(end: float, unit: str) -> None:
    x, name = time_axis([0.0, end / 2, end])
    assert name == unit and x[0] == 0.0 and 1.0 <= x[-1] <= 180


def test_timeline_needs_samples() -> None:
    assert timeline_figure(Samples()) is None
    assert timeline_figure(Samples(t=[0.0], cpu_percent=[None])) is None


def test_bundle_carries_the_widget_and_the_static_views() -> None:
    bundle = panel_bundle(make_report(), "text", "<b>html</b>", verify=fake_verify(EQUAL), bridge=FakeBridge())
    assert bundle["text/plain"] == "text" and bundle["text/html"] == "<b>html</b>"
    assert bundle[WIDGET_MIME]["version_major"] == 2 and bundle[WIDGET_MIME]["model_id"]


def test_outside_a_kernel_only_static_views_are_published() -> None:
    assert not can_render_widgets()
    bundle = {"text/plain": "t", "text/html": "h"}
    assert _with_panel(make_report(), dict(bundle), None) == bundle


def test_why_shows_the_rule_doc_sections(monkeypatch: pytest.MonkeyPatch) -> None:
    import sys
    import types

    from aiperf_magic.render.panel.findings import rule_doc

    rule = types.SimpleNamespace(
        doc="## What it does\nx", sections={"What it does": "x", "Why is this bad?": "Each row " + XSS}
    )
    fake = types.ModuleType("aiperf_magic.rules")
    fake.all_rules = lambda: {"AIP301": rule}  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "aiperf_magic.rules", fake)
    assert rule_doc("AIP301") == "Why is this bad?\nEach row " + XSS
    assert rule_doc("AIP999") is None
    panel = build_panel(make_report(), verify=fake_verify(EQUAL), bridge=FakeBridge(), namespace={})
    html = all_html(panel.view)
    assert "Each row &lt;script&gt;" in html and "<script>" not in html


def test_refused_try_says_why_and_keeps_apply_disabled() -> None:
    refused = Comparison(equal=False, refused="df is not defined yet")
    panel = build_panel(make_report(), verify=fake_verify(refused), bridge=FakeBridge(), namespace={})
    fix = first_fix(panel)
    fix.try_button.click()
    assert "not run" in fix.result.value and "df is not defined yet" in fix.result.value
    assert fix.edit.apply_button.disabled


def test_insert_below_and_its_undo_target_the_new_cell() -> None:
    from aiperf_magic.render.panel.actions import EditControls, PanelContext

    bridge = FakeBridge()
    edit = EditControls(
        PanelContext(make_report(), bridge=bridge, namespace={}), "df = df.astype('int8')\n", insert=True
    )
    edit.allowed = True
    edit.refresh()
    edit.apply_button.click()
    req = bridge.requests[0]
    assert (req["op"], req["cell_id"], req["source"]) == ("insert_below", "cell-1", "df = df.astype('int8')\n")
    assert req["expect"] == "%%aiperf --interval 10\n" + BODY
    bridge.answer(Reply(ok=True, new_cell_id="cell-2"))
    assert "new cell below" in edit.status.value
    edit.undo_button.click()
    req = bridge.requests[1]
    assert (req["op"], req["cell_id"], req["source"], req["expect"]) == (
        "undo",
        "cell-2",
        None,
        "df = df.astype('int8')\n",
    )


def test_try_uses_the_real_verify_by_default() -> None:
    from aiperf_magic.render.panel.actions import PanelContext

    ctx = PanelContext(make_report(), bridge=FakeBridge(), namespace={"n": 3})  # type: ignore[arg-type]
    c = ctx.run_verify("total = sum(range(n))\n", "total = n * (n - 1) // 2\n")
    assert c.equal and c.error is None and c.repeat == 5
