from aiperf_magic.report import (
    ColumnProfile,
    Comparison,
    ErrorInfo,
    Finding,
    Fix,
    FrameProfile,
    GpuInfo,
    GpuSeries,
    Hotspot,
    MemoryLine,
    Report,
    Samples,
    Verdict,
)


def full_report() -> Report:
    samples = Samples(interval_s=0.02, t=[0.0, 0.02], cpu_percent=[50.0, 99.5], cpu_per_core=[[1.0, 2.0], None],
                      rss_bytes=[100, 200], mem_available_bytes=[5, 4], swap_used_bytes=[0, 0],
                      read_bytes=[1, 2], write_bytes=[3, 4], busy_threads=[1, 2],
                      gpus=[GpuSeries(index=0, util_percent=[10.0, None], mem_used_bytes=[1, 2])])
    return Report(
        source="x = 1\n", cell_id="abc", execution_count=3, wall_s=1.5, cpu_s=0.75, gpu_synced=True, gpu_s=1.5,
        peak_rss_bytes=200, rss_delta_bytes=-10, cuda_peak_bytes=1 << 30, samples=samples,
        hotspots=[Hotspot(line=1, seconds=1.0, share=0.66, callee="DataFrame.iterrows", samples=50, text="x = 1")],
        findings=[Finding(code="AIP301", message="row loop", line=1, name="pandas-row-loop", col=0,
                          fix=Fix(title="vectorise", safety="safe", source="y", diff="-x\n+y"), fixable=True)],
        verdict=Verdict(code="AIP903", title="waiting", sentence="mostly waiting", evidence={"cpu_ratio": 0.1},
                        related=["AIP402"]),
        frames=[FrameProfile(name="df", rows=3, memory_bytes=10,
                             columns=[ColumnProfile(name="a", dtype="int64", memory_bytes=24,
                                                    suggested_dtype="int8", saving_bytes=21)], line=1)],
        gpus=[GpuInfo(index=0, name="H200", memory_total_bytes=1, process_memory_scope="device-wide")],
        error=ErrorInfo(type="ValueError", message="bad", line=1), notes=["n"],
        torch_profile={"top_ops": [{"name": "aten::mm", "self_s": 0.1}]},
        memory_lines=[MemoryLine(line=1, allocated_bytes=800, net_bytes=100, peak_bytes=700, allocations=3,
                                 text="x = 1", cuda_allocated_bytes=64, cuda_net_bytes=0)],
        peak_line=1, memory_peak_bytes=750, memory_mode="memray", cuda_peak_line=1,
    )


def test_json_round_trip_keeps_every_field():
    report = full_report()
    again = Report.from_json(report.to_json())
    assert again == report
    assert isinstance(again.samples.gpus[0], GpuSeries)
    assert isinstance(again.findings[0].fix, Fix)
    assert isinstance(again.memory_lines[0], MemoryLine) and again.memory_line(1) == report.memory_lines[0]
    assert again.peak_line == 1 and again.memory_mode == "memray" and again.frames[0].line == 1
    assert again.cores_used == 0.5


def test_from_dict_ignores_unknown_keys_and_fills_defaults():
    data = {"source": "pass", "wall_s": 2.0, "future_field": 1}
    report = Report.from_dict(data)
    assert report.source == "pass" and report.wall_s == 2.0
    assert report.findings == [] and report.verdict is None
    assert report.memory_lines == [] and report.peak_line is None and report.memory_mode is None


def test_comparison_round_trip_and_better():
    c = Comparison(equal=True, speedup=3.0, before_s=3.0, after_s=1.0, repeat=5)
    assert Comparison.from_dict(c.to_dict()) == c
    assert c.better
    assert not Comparison(equal=False, speedup=10.0).better


def test_cell_line_counts_the_magic_line():
    assert Report(source="").cell_line(1) == 2
    assert Report(source="", magic_line="").cell_line(1) == 1
