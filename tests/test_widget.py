"""The panel's state and logic with a hand-made Report, a fake verify and a fake bridge.

The panel is one anywidget: ``data`` (the report as JSON) and ``ui`` (what the buttons changed).
Clicks arrive as custom messages; ``Panel.handle`` is what the widget's message handler calls.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from aiperf_magic.apply.bridge import Reply
from aiperf_magic.render import _with_panel, report_outputs
from aiperf_magic.render.frontend import WIDGET_MIME, can_render_widgets
from aiperf_magic.render.panel.view import STALE, build_panel, panel_outputs
from aiperf_magic.render.panel.viewmodel import diff_lines
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
ASTYPE = "df = df.astype({'a': 'int8'})"
SCRIPT = Path(__file__).parents[1] / "aiperf_magic" / "render" / "panel" / "panel.js"


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
        columns=[
            ColumnProfile(name=XSS, dtype="int64", memory_bytes=8000, suggested_dtype="int8", saving_bytes=7000),
            ColumnProfile(name="f", dtype="float64", memory_bytes=8000, suggested_dtype="float32",
                          saving_bytes=4000, safe=False),
        ],
        saving_bytes=11000,
        fix_source=ASTYPE,
    )
    report = Report(
        source=BODY,
        cell_id="cell-1",
        magic_line="%%aiperf --interval 10",
        wall_s=1.5,
        cpu_s=1.4,
        peak_rss_bytes=140 << 20,
        rss_delta_bytes=30 << 20,
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
                fix=Fix(title="Convert df", source=BODY + ASTYPE + "\n"),
                fixable=True,
            ),
            Finding(code="AIP907", message="One core busy " + XSS),
        ],
        verdict=Verdict(code="AIP907", title="CPU-bound", sentence="One core busy " + XSS, advice="Vectorise."),
        frames=[frame],
        error=ErrorInfo(type="ValueError", message=XSS),
        notes=[XSS, "GPU not sampled: NVML unavailable (NVMLError_LibraryNotFound: NVML Shared Library Not Found)"],
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
    before_peak_bytes=2 << 20,
    after_peak_bytes=1 << 20,
    repeat=5,
    before_p50_s=0.4,
    before_p95_s=0.45,
    after_p50_s=0.01,
    after_p95_s=0.012,
    notes=["method line one", "method line two"],
)


def panel_for(result: Comparison | Exception = EQUAL, report: Report | None = None, **kw: Any) -> Any:
    return build_panel(report or make_report(), verify=fake_verify(result), bridge=kw.pop("bridge", FakeBridge()),
                       namespace=kw.pop("namespace", {}))


def ui(panel: Any, key: str = "1") -> dict[str, Any]:
    return panel.view.ui["fixes"][key]  # type: ignore[no-any-return]


def text_of(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


def test_first_screen_holds_the_answer() -> None:
    data = panel_for().data
    assert [label for label, _ in data["header"]] == ["wall", "CPU", "memory"]
    assert data["header"][2][1] == "+30.0 MB in the cell (peak +40.0 MB, whole process 140.0 MB)"
    assert data["verdict"]["code"] == "AIP907" and data["verdict"]["advice"] == "Vectorise."
    assert data["cause"] == {"share": "80%", "line": "3", "code": XSS, "callee": "iterrows"}
    assert data["error"].startswith("ValueError: ")


def test_the_verdict_is_shown_once_and_numbers_match_apply_n() -> None:
    panel = panel_for()
    assert [(f["n"], f["code"]) for f in panel.data["findings"]] == [(1, "AIP301"), (2, "AIP101"), (3, "AIP303")]
    assert [c.controls is not None for c in panel.findings] == [True, False, True]
    assert panel.data["findings"][1]["no_fix"] == "needs a human"
    assert panel.data["findings"][0]["fix"]["hint"] == "%aiperf apply 1"


def test_the_dtype_fix_lives_in_its_finding_only() -> None:
    data = panel_for().data
    frame = data["frames"]["items"][0]
    assert frame["finding"] == 3 and "fix" not in frame  # no second copy of the diff and buttons
    # the saving quoted is the fix's own (the lossless column), the lossy one named apart
    assert "smaller dtypes save 6.8 KB" in frame["line"] and "lossy float32 would save 3.9 KB more" in frame["line"]
    assert data["findings"][2]["frame"] == {"name": "df", "before": "781.2 KB", "after": "774.4 KB"}


def test_gpu_absent_notes_fold_into_the_notes_unless_the_cell_used_cuda() -> None:
    absent = "No GPU sampled: NVML unavailable (NVMLError_LibraryNotFound: NVML Shared Library Not Found)."
    data = panel_for().data
    assert data["notes"] == [XSS, absent] and data["muted"] is None  # every CPU-only machine: folded
    report = make_report()
    report.gpu_synced = True  # the cell used CUDA: its GPU work went unmeasured, said on the panel
    data = panel_for(report=report).data
    assert data["notes"] == [XSS] and data["muted"] == absent


def test_a_short_run_is_too_short_to_plot() -> None:
    data = panel_for().data
    assert data["timeline"]["svg"] is None and data["timeline"]["summary"] == "3 samples over 40.0 ms"


def test_diff_lines_stay_lines() -> None:
    lines = diff_lines("--- cell\n+++ cell (fixed)\n@@ -1 +1 @@\n-})\n+})\n x\n")
    assert lines == [["@", "@@ -1 +1 @@"], ["-", "-})"], ["+", "+})"], [" ", " x"]]


def test_user_strings_only_ever_reach_the_page_as_text() -> None:
    script = SCRIPT.read_text()
    for sink in ("innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval(", "new Function"):
        assert sink not in script, sink
    # links from docs open only http(s) addresses
    assert "/^https?:\\/\\//.test(href)" in script


def test_try_equal_enables_apply_and_shows_the_gain_with_its_values() -> None:
    verify = fake_verify(EQUAL)
    panel = build_panel(make_report(), verify=verify, bridge=FakeBridge(), namespace={"df": 1})
    assert not ui(panel)["apply"] and not ui(panel)["undo"] and ui(panel)["try"]
    panel.handle({"do": "try", "key": "1"})
    assert verify.calls == [(BODY, FIXED)]
    state = ui(panel)
    result = state["result"]
    assert result["mark"] == "✓ equal" and result["headline"] == ""
    facts = [f["text"] for f in result["facts"]]
    assert facts[0] == "speedup ×40.00 (400.0 ms → 10.0 ms)"
    assert facts[1] == "peak memory 2.0 MB → 1.0 MB, ×0.50"
    assert result["bars"] and result["method"][-2:] == ["method line one", "method line two"]
    assert state["apply"] and state["progress"] == "" and state["try"]


def test_try_shows_isolation_blocked_and_runs_when_the_comparison_has_them() -> None:
    c = Comparison(equal=False, refused="a trial wrote to a file", repeat=5)
    c.isolation, c.blocked, c.runs = "process", "writes to out.csv (line 2)", 7  # type: ignore[attr-defined]
    panel = panel_for(c)
    panel.handle({"do": "try", "key": "1"})
    result = ui(panel)["result"]
    assert result["mark"] == "✗ not run" and result["blocked"] == "writes to out.csv (line 2)"
    assert "each version ran 7 times, interleaved; medians shown" in result["method"]
    assert any("forked copies" in m for m in result["method"])


@pytest.mark.parametrize(
    ("result", "shown"),
    [
        (Comparison(equal=False, speedup=3.0, difference="row 2: 1.0 != 1.5"), "row 2: 1.0 != 1.5"),
        (Comparison(equal=True, timed_out=True), "timed out"),
        (RuntimeError("boom " + XSS), "RuntimeError: boom <script>"),
    ],
)
def test_try_without_proof_keeps_apply_disabled(result: Any, shown: str) -> None:
    panel = panel_for(result)
    panel.handle({"do": "try", "key": "1"})
    assert shown in text_of(ui(panel)["result"])
    assert not ui(panel)["apply"] and ui(panel)["try"]


def test_unsafe_fix_applies_after_explicit_confirmation() -> None:
    report = make_report()
    report.findings[0].fix.safety = "unsafe"  # type: ignore[union-attr]
    panel = panel_for(report=report)
    assert ui(panel)["unsafe"] and not ui(panel)["apply"]
    panel.handle({"do": "confirm", "key": "1", "value": True})
    assert ui(panel)["apply"] and ui(panel)["confirmed"]
    panel.handle({"do": "confirm", "key": "1", "value": "yes"})  # only a real true confirms
    assert not ui(panel)["apply"]


def test_apply_and_undo_send_exact_texts_and_mark_the_panel_stale() -> None:
    bridge = FakeBridge()
    panel = panel_for(bridge=bridge)
    panel.handle({"do": "try", "key": "1"})
    panel.handle({"do": "apply", "key": "1"})
    original = "%%aiperf --interval 10\n" + BODY
    rewritten = "%%aiperf --interval 10\n" + FIXED
    req = bridge.requests[0]
    assert (req["op"], req["cell_id"], req["source"], req["expect"]) == ("replace", "cell-1", rewritten, original)
    assert not ui(panel)["apply"] and not ui(panel)["try"] and ui(panel)["busy"]  # waiting for the reply
    assert panel.view.ui["stale"] is None
    bridge.answer(Reply(ok=True))
    assert not ui(panel)["apply"] and ui(panel)["undo"]
    assert ui(panel)["status"] == ["ok", "Applied to the cell. Undo restores it exactly."]
    assert panel.view.ui["stale"] == {"text": STALE, "kind": "info"}
    panel.handle({"do": "undo", "key": "1"})
    req = bridge.requests[1]
    assert (req["op"], req["source"], req["expect"]) == ("undo", original, rewritten)
    bridge.answer(Reply(ok=True))
    assert ui(panel)["apply"] and not ui(panel)["undo"]
    assert "Undone" in ui(panel)["status"][1] and panel.view.ui["stale"] is None


def test_refusal_is_shown_and_apply_can_be_retried() -> None:
    bridge = FakeBridge()
    panel = panel_for(bridge=bridge)
    panel.handle({"do": "try", "key": "1"})
    panel.handle({"do": "apply", "key": "1"})
    bridge.answer(Reply(ok=False, reason="The cell was edited after aiperf ran it " + XSS))
    assert ui(panel)["status"][0] == "error" and "The cell was edited" in ui(panel)["status"][1]
    assert ui(panel)["fallback"] is None and ui(panel)["apply"]


def test_missing_extension_switches_to_copy_and_apply_n() -> None:
    bridge = FakeBridge()
    panel = panel_for(bridge=bridge)
    panel.handle({"do": "try", "key": "1"})
    panel.handle({"do": "apply", "key": "1"})
    bridge.answer(Reply(ok=False, reason="no extension", missing_extension=True))
    assert ui(panel)["fallback"] == {"text": "%%aiperf --interval 10\n" + FIXED, "hint": "or run  %aiperf apply 1"}


def test_dtype_try_leads_with_the_frame_size_not_the_transient_peak() -> None:
    slower = Comparison(equal=True, speedup=0.38, memory_ratio=1.15, before_s=0.01, after_s=0.026, repeat=5)
    verify = fake_verify(slower)
    panel = build_panel(make_report(), verify=verify, bridge=FakeBridge(), namespace={})
    panel.handle({"do": "try", "key": "3"})
    assert verify.calls == [(BODY, BODY + ASTYPE + "\n")]
    result = ui(panel, "3")["result"]
    assert result["mark"] == "✓ equal" and result["headline"] == ""  # not "the rewrite is slower"
    assert result["facts"][0]["text"] == "frame df: 781.2 KB → 774.4 KB"
    assert "the conversion included" in result["facts"][1]["text"]
    assert ui(panel, "3")["apply"]


def test_messages_the_panel_does_not_know_change_nothing() -> None:
    bridge = FakeBridge()
    panel = panel_for(bridge=bridge)
    before = json.dumps(panel.view.ui)
    for junk in (None, [], "try", {"do": "apply", "key": "1"}, {"do": "try", "key": "99"}, {"do": "rm", "key": "1"},
                 {"do": "undo", "key": "2"}, {"do": "rerun"}):
        panel.handle(junk)
    assert json.dumps(panel.view.ui) == before and bridge.requests == []


def test_empty_report_renders_placeholders() -> None:
    panel = panel_for(report=Report(source="x = 1\n"))
    data = panel.data
    assert data["findings"] == [] and data["timeline"]["svg"] is None and data["frames"]["items"] == []
    assert data["verdict"] is None and data["cause"] is None and panel.view.ui == {"fixes": {}, "stale": None}


def test_a_panel_is_at_most_three_widget_models() -> None:
    from ipywidgets.widgets.widget import _instances

    before = set(_instances)
    panel = panel_for()
    created = set(_instances) - before
    assert panel.view.model_id in created and len(created) <= 3
    panel.view.close_all()


def test_outputs_are_the_panel_then_the_static_views() -> None:
    outputs = panel_outputs(make_report(), "text", "<b>html</b>", verify=fake_verify(EQUAL), bridge=FakeBridge())
    widget, static = outputs
    assert widget[WIDGET_MIME]["version_major"] == 2 and widget[WIDGET_MIME]["model_id"]
    assert widget["text/plain"] == "" and static == {"text/plain": "text", "text/html": "<b>html</b>"}


def test_outside_a_kernel_only_static_views_are_published() -> None:
    assert not can_render_widgets()
    bundle = {"text/plain": "t", "text/html": "h"}
    assert _with_panel(make_report(), dict(bundle), None) == [bundle]
    assert [set(b) for b in report_outputs(make_report())] == [{"text/plain", "text/html"}]
    assert [set(b) for b in report_outputs(make_report(), text_only=True)] == [{"text/plain"}]


def test_codes_carry_their_explanation(monkeypatch: pytest.MonkeyPatch) -> None:
    import sys
    import types

    from aiperf_magic.render.panel.viewmodel import rule_doc

    rule = types.SimpleNamespace(name="row-loop", message="Row loop", doc="## Why is this bad?\nEach row `" + XSS + "`")
    fake = types.ModuleType("aiperf_magic.rules.registry")
    fake.all_rules = lambda: {"AIP301": rule}  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "aiperf_magic.rules.registry", fake)
    assert rule_doc("AIP301") == {
        "name": "row-loop", "message": "Row loop",
        "blocks": [{"t": "h", "text": "Why is this bad?"}, {"t": "p", "inl": [["t", "Each row "], ["c", XSS]]}],
    }
    assert rule_doc("AIP999") is None
    assert set(panel_for().data["docs"]) == {"AIP301"}


def test_real_rule_docs_are_blocks_not_raw_markdown() -> None:
    docs = panel_for().data["docs"]
    assert {"AIP301", "AIP101", "AIP303", "AIP907"} <= set(docs)
    kinds = {b["t"] for b in docs["AIP301"]["blocks"]}
    assert {"h", "p", "code"} <= kinds and "```" not in text_of(docs["AIP301"]["blocks"])


def test_refused_try_says_why_and_keeps_apply_disabled() -> None:
    panel = panel_for(Comparison(equal=False, refused="df is not defined yet"))
    panel.handle({"do": "try", "key": "1"})
    result = ui(panel)["result"]
    assert result["mark"] == "✗ not run" and "df is not defined yet" in result["headline"]
    assert not ui(panel)["apply"]


def test_insert_below_and_its_undo_target_the_new_cell() -> None:
    from aiperf_magic.render.panel.actions import EditAction, PanelContext

    bridge = FakeBridge()
    edit = EditAction(PanelContext(make_report(), bridge=bridge, namespace={}), "df = df.astype('int8')\n", insert=True)
    edit.allowed = True
    edit.apply()
    req = bridge.requests[0]
    assert (req["op"], req["cell_id"], req["source"]) == ("insert_below", "cell-1", "df = df.astype('int8')\n")
    assert req["expect"] == "%%aiperf --interval 10\n" + BODY
    bridge.answer(Reply(ok=True, new_cell_id="cell-2"))
    assert edit.status is not None and "new cell below" in edit.status[1]
    edit.undo()
    req = bridge.requests[1]
    assert (req["op"], req["cell_id"], req["source"], req["expect"]) == (
        "undo", "cell-2", None, "df = df.astype('int8')\n")


class FakeComm:
    def __init__(self, reply: dict[str, Any] | None, sent: list[dict[str, Any]], **kwargs: Any) -> None:
        sent.append(kwargs)
        self.reply = reply
        self.closed = False

    def on_msg(self, callback: Any) -> None:
        if self.reply is not None:
            callback({"content": {"data": self.reply}})

    def on_close(self, callback: Any) -> None:
        pass

    def close(self) -> None:
        self.closed = True


@pytest.mark.parametrize(
    ("reply", "shown"),
    [
        (Reply(False, 'Unknown op "run": expected replace, insert_below or undo.'),
         ("info", "Run the cell again (Ctrl+Enter) to measure the new code.")),
        (Reply(False, "no answer", missing_extension=True),
         ("info", "Run the cell again (Ctrl+Enter) to measure the new code.")),
        (Reply(True), ("ok", "Running the cell again: its new report replaces this one.")),
    ],
)
def test_rerun_asks_the_notebook_and_says_what_to_do_when_it_cannot(reply: Reply, shown: tuple[str, str]) -> None:
    bridge = FakeBridge()
    panel = panel_for(bridge=bridge)
    panel.handle({"do": "try", "key": "1"})
    panel.handle({"do": "apply", "key": "1"})
    bridge.answer(Reply(ok=True))
    panel.handle({"do": "rerun"})
    run = bridge.requests[-1]
    assert (run["op"], run["cell_id"], run["source"]) == ("run", "cell-1", None)
    assert run["expect"] == "%%aiperf --interval 10\n" + FIXED
    bridge.answer(reply)
    assert panel.view.ui["stale"] == {"kind": shown[0], "text": shown[1]}


def test_try_uses_the_real_verify_by_default() -> None:
    from aiperf_magic.render.panel.actions import PanelContext

    ctx = PanelContext(make_report(), bridge=FakeBridge(), namespace={"n": 3})  # type: ignore[arg-type]
    c = ctx.run_verify("total = sum(range(n))\n", "total = n * (n - 1) // 2\n")
    assert c.equal and c.error is None and c.repeat == 5


def test_a_panel_keeps_no_samples_alive() -> None:
    report = make_report()
    panel = panel_for(report=report)
    assert panel.ctx.report.samples.t == [] and panel.ctx.report.frames == []
    assert panel.ctx.report.source == BODY and panel.ctx.report.cell_id == "cell-1"
    assert report.samples.t  # the user's Report is untouched
