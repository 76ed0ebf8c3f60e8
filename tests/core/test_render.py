from pathlib import Path

from aiperf_magic.render import render_html, render_text
from aiperf_magic.report import (
    ColumnProfile,
    ErrorInfo,
    Finding,
    Fix,
    FrameProfile,
    Hotspot,
    Report,
    Samples,
    Verdict,
)

GOLDEN = Path(__file__).parent / "golden"
XSS = "<img src=x onerror=alert(1)>"


def sample_report() -> Report:
    samples = Samples(interval_s=0.02, t=[0.0, 0.02, 0.04], cpu_percent=[98.0, 100.0, 99.0],
                      cpu_per_core=[[100.0, 3.0], [99.0, 2.0], [100.0, 1.0]],
                      rss_bytes=[100 << 20, 120 << 20, 150 << 20])
    return Report(
        source="total = 0\nfor _, row in df.iterrows():\n    total += row['a']\n", execution_count=7,
        wall_s=2.5, cpu_s=2.45, peak_rss_bytes=150 << 20, rss_delta_bytes=50 << 20, samples=samples,
        hotspots=[Hotspot(line=3, seconds=2.0, share=0.8, callee="DataFrame.iterrows", samples=100,
                          text="total += row['a']")],
        findings=[Finding(code="AIP301", message="Row loop over a DataFrame", line=2,
                          fix=Fix(title="Replace with a column expression", safety="safe",
                                  source="total = df['a'].sum()\n",
                                  diff="-for\n+total"), fixable=True)],
        verdict=Verdict(code="AIP907", title="CPU-bound, one core", sentence="One core was busy 99% of the time.",
                        evidence={"cores_used": 0.98}, related=["AIP301"], advice="Vectorise the row loop."),
        torch_profile={"top_ops": [{"name": "aten::mm", "calls": 10, "self_cpu_ms": 12.5, "total_ms": 13.0}],
                       "dataloader": {"seconds": 0.5, "batches": 4, "share": 0.2, "level": "input-bound"}},
        frames=[FrameProfile(name="df", rows=1_000_000, memory_bytes=8_000_000,
                             columns=[ColumnProfile(name="a", dtype="int64", memory_bytes=8_000_000,
                                                    suggested_dtype="int8", reason="values fit in int8",
                                                    saving_bytes=7_000_000)]),
                FrameProfile(name="row", kind="Series", rows=2, memory_bytes=246)],
        notes=["GPU not sampled: NVML unavailable"],
    )


def test_text_view_snapshot(update_goldens):
    text = render_text(sample_report())
    path = GOLDEN / "report.txt"
    if update_goldens or not path.exists():
        path.write_text(text + "\n")
    assert text + "\n" == path.read_text()


def test_text_view_uses_the_cell_line_numbers_the_user_sees():
    text = render_text(sample_report())
    assert "line   4" in text  # body line 3 is line 4 of the cell (after %%aiperf)
    assert "AIP301 line 3" in text


def test_html_escapes_every_user_string():
    report = sample_report()
    report.source = XSS
    report.hotspots[0].text = XSS
    report.hotspots[0].callee = XSS
    report.findings[0].message = XSS
    report.findings[0].fix.diff = XSS
    report.frames[0].name = XSS
    report.frames[0].columns[0].name = XSS
    report.error = ErrorInfo(type="ValueError", message=XSS)
    report.notes.append(XSS)
    report.verdict.sentence = XSS
    html = render_html(report)
    assert "<img" not in html
    assert html.count("&lt;img src=x onerror=alert(1)&gt;") >= 9


def test_html_and_text_for_an_empty_report():
    report = Report(source="")
    assert "aiperf" in render_text(report)
    assert render_html(report).startswith('<div class="aiperf-report"')
    assert "Report(wall" in repr(report)  # the full views are registered by the extension
