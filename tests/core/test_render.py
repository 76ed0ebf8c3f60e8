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


# -- the timeline image, the Markdown of rule docs, the static view's first screen ----------------
def long_samples(n: int, cores: int = 4) -> Samples:
    import math

    from aiperf_magic.report import GpuSeries

    wave = [50 + 50 * math.sin(i / 20) for i in range(n)]
    return Samples(t=[i * 0.02 for i in range(n)], cpu_percent=[w * 2 for w in wave],
                   cpu_per_core=[[w] * cores for w in wave], rss_bytes=[(100 + i % 50) << 20 for i in range(n)],
                   gpus=[GpuSeries(index=0, util_percent=wave, mem_used_bytes=[4 << 30] * n,
                                   mem_total_bytes=[16 << 30] * n)])


def test_timeline_has_axes_legend_units_and_a_colour_bar():
    from aiperf_magic.render.timeline import timeline

    tl = timeline(long_samples(200))
    assert tl.svg is not None and tl.svg.startswith("<svg") and 'width="100%"' in tl.svg
    for label in ("CPU (cores)", "this process", "all processes", "per core", "% busy (all processes)",
                  "resident memory", "GPU 0 (%)", "utilisation", "seconds"):
        assert label in tl.svg, label
    assert '>4</text>' in tl.svg  # the CPU axis runs to the machine's 4 cores, not to the busiest sample
    assert "resident memory (RSS)" in tl.caption and tl.summary == "200 samples over 3.98 s"
    assert "<script" not in tl.svg and "on" + "load" not in tl.svg


def test_timeline_stays_small_however_long_the_cell():
    from aiperf_magic.render.timeline import timeline

    assert len(timeline(long_samples(20_000, cores=64)).svg or "") < 60_000
    short = timeline(long_samples(9))
    assert short.svg is None and short.summary == "9 samples over 160.0 ms"


def test_rule_doc_markdown_is_blocks_and_escaped_html():
    from aiperf_magic.render.markdown import blocks_html, inline, parse

    doc = ("## Why is this bad?\nEach row of `x ** 2` is **slow** [pandas](https://pandas.pydata.org) "
           "[js](javascript:alert(1))\n\n```python\nfor i in range(3):\n    <b>\n```\n- one `a`\n- two\n  more")
    blocks = parse(doc)
    assert [b["t"] for b in blocks] == ["h", "p", "code", "ul"]
    assert ["c", "x ** 2"] in blocks[1]["inl"] and ["b", "slow"] in blocks[1]["inl"]
    assert ["link", "pandas", "https://pandas.pydata.org"] in blocks[1]["inl"]
    assert all(run[0] != "link" or run[2].startswith("https://") for run in blocks[1]["inl"])
    assert blocks[2]["text"] == "for i in range(3):\n    <b>" and blocks[3]["items"][1] == [["t", "two more"]]
    html = blocks_html(blocks)
    assert "&lt;b&gt;" in html and "<b>slow</b>" in html and "javascript:" not in html.split("[js]")[0]
    assert "```" not in html and inline("a ** b **c**") == [["t", "a ** b "], ["b", "c"]]


def test_static_view_leads_with_the_answer_and_says_each_thing_once():
    report = sample_report()
    report.findings.append(Finding(code="AIP907", message="the verdict, again"))
    report.notes = ["GPU not sampled: NVML unavailable (no library)", "a real note"]
    html = render_html(report)
    text = render_text(report)
    assert "the verdict, again" not in html and "the verdict, again" not in text
    assert html.index("Bottleneck") < html.index("Where") < html.index("Advice") < html.index("Findings")
    assert "No GPU sampled: NVML unavailable (no library)." in html and "a real note" in html
    assert '<div style="white-space:pre;padding:0 8px;background:#ffebe9">-for</div>' in html  # a line each
    assert "peak RSS" not in html and "memory</b>" in html
    assert "what AIP301 means" in html


def test_waiting_for_a_cpu_is_a_line_only_when_it_changes_how_the_times_read():
    def wait_line(wall_s: float, wait_s: float) -> str | None:
        report = Report(source="x = 1\n", wall_s=wall_s, cpu_s=wall_s, cpu_wait_s=wait_s)
        text, html = render_text(report), render_html(report)
        assert ("held by other processes" in text) == ("held by other processes" in html)
        return next((line for line in text.splitlines() if "held by other processes" in line), None)

    assert wait_line(0.001, 0.0009) is None  # a 1 ms cell: scheduler noise, however large its share
    assert wait_line(2.0, 0.1) is None  # 5 % of the wall
    assert wait_line(0.3, 0.04) is None  # 13 %, but under 50 ms
    line = wait_line(2.0, 0.3)
    assert line is not None and "300.0 ms (15% of its 2.00 s)" in line
    # several threads waiting at once add up past the wall: said so, never "61 ms of waiting in 60.8 ms"
    many = wait_line(0.0608, 0.0611)
    assert many is not None and "in all (several at once, in a 60.8 ms cell)" in many
    # a 30 ms cell was held back 30 ms at most, however long its threads waited in all
    assert wait_line(0.03, 0.06) is None


def test_no_gpu_is_one_folded_note_unless_the_cell_used_cuda():
    cpu_only = Report(source="x = 1\n", wall_s=1.0, cpu_s=1.0,
                      notes=["GPU not sampled: NVML unavailable (NVMLError_LibraryNotFound)", "a real note"])
    html = render_html(cpu_only)
    folded = html[html.index("<details><summary>Notes (2)"):]
    assert "No GPU sampled: NVML unavailable (NVMLError_LibraryNotFound)." in folded.split("</details>")[0]
    assert html.count("No GPU sampled") == 1
    text = render_text(cpu_only)
    gpu = "No GPU sampled: NVML unavailable (NVMLError_LibraryNotFound)."
    assert text.splitlines()[-3:] == ["Notes", "  a real note", "  " + gpu]
    cuda = Report(source="x = 1\n", wall_s=1.0, cpu_s=1.0, gpu_synced=True, notes=list(cpu_only.notes))
    html = render_html(cuda)
    assert "Notes (1)" in html and "No GPU sampled" not in html.split("Notes (1)")[1].split("</details>")[0]
    assert render_text(cuda).splitlines()[-1] == "No GPU sampled: NVML unavailable (NVMLError_LibraryNotFound)."


def test_a_cell_too_short_to_plot_has_no_timeline_line():
    report = Report(source="x = 1\n", wall_s=0.001, cpu_s=0.001,
                    samples=Samples(interval_s=0.02, t=[0.0], cpu_percent=[10.0], rss_bytes=[1 << 20]))
    assert "Timeline" not in render_html(report)
    assert "too short" not in render_html(report)
