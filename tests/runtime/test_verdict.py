from __future__ import annotations

import pytest

from aiperf_magic.report import Finding, Report
from aiperf_magic.verdicts.stage import Thresholds, VerdictStage, compute_verdict, diagnose
from tests.runtime.timelines import GIB, timeline

RAM = 16 * GIB


def verdict_code(report: Report) -> str | None:
    v = compute_verdict(report, mem_total_bytes=RAM)
    return v.code if v else None


def test_gpu_starved_when_gpu_idles_and_a_core_is_saturated() -> None:
    report = timeline(cpu_cores=1.0, gpu_util=12.0)
    report.findings.append(Finding(code="AIP101", message="num_workers=0", line=3))
    v = compute_verdict(report, mem_total_bytes=RAM)
    assert v is not None and v.code == "AIP901"
    assert v.evidence["gpu_util_percent"] == 12.0
    assert v.evidence["process_cpu_cores"] == 1.0
    assert v.related == ["AIP101"]
    assert "AIP101" in v.sentence


def test_idle_gpu_with_idle_cpu_is_waiting_not_starved() -> None:
    assert verdict_code(timeline(cpu_cores=0.05, gpu_util=5.0)) == "AIP903"


def test_gpu_bound_and_mixed_precision_advice_follows_static_finding() -> None:
    report = timeline(cpu_cores=0.3, gpu_util=97.0)
    v = compute_verdict(report, mem_total_bytes=RAM)
    assert v is not None and v.code == "AIP906"
    assert v.evidence["gpu_busy_percent"] == 100.0
    assert "If not already" in v.advice
    report.findings.append(Finding(code="AIP504", message="no autocast"))
    v = compute_verdict(report, mem_total_bytes=RAM)
    assert v is not None and "AIP504" in v.advice and v.related == ["AIP504"]


def test_gpu_memory_pressure_from_nvml() -> None:
    report = timeline(cpu_cores=0.1, gpu_util=30.0, gpu_mem_share=0.95)
    v = compute_verdict(report, mem_total_bytes=RAM)
    assert v is not None and v.code == "AIP905"
    assert v.evidence["gpu_memory_percent"] == 95.0


def test_gpu_memory_pressure_from_torch_peak_alone() -> None:
    report = timeline(cpu_cores=0.1, gpu_util=30.0, gpu_mem_share=0.1)
    report.cuda_peak_bytes = int(0.93 * 80 * GIB)
    assert verdict_code(report) == "AIP905"


def test_gpu_bound_comes_first_and_memory_pressure_is_kept_as_extra() -> None:
    report = timeline(cpu_cores=0.3, gpu_util=99.0, gpu_mem_share=0.96)
    codes = [v.code for v in diagnose(report, mem_total_bytes=RAM).verdicts]
    assert codes == ["AIP906", "AIP905"]


def test_gpu_of_another_process_does_not_count() -> None:
    # NVML shows the device busy but this process holds no memory on it and never synced
    report = timeline(cpu_cores=1.0, gpu_util=99.0, process_gpu_mem=None)
    report.gpu_synced = False
    assert verdict_code(report) == "AIP907"


def test_gil_bound_threads() -> None:
    v = compute_verdict(timeline(cpu_cores=1.0, busy_threads=4), mem_total_bytes=RAM)
    assert v is not None and v.code == "AIP902"
    assert v.evidence["busy_threads_mean"] == 4.0
    assert v.evidence["cores"] == 4.0


def test_threads_on_one_core_machine_are_not_gil_bound() -> None:
    assert verdict_code(timeline(cpu_cores=1.0, busy_threads=4, cores=1)) == "AIP907"


def test_threads_using_several_cores_are_not_gil_bound() -> None:
    assert verdict_code(timeline(cpu_cores=3.6, busy_threads=4)) == "AIP908"


def test_waiting_mentions_disk_io() -> None:
    v = compute_verdict(timeline(cpu_cores=0.05, busy_threads=0, read_step=10 * 1024**2), mem_total_bytes=RAM)
    assert v is not None and v.code == "AIP903"
    assert v.evidence["io_mib"] == 490.0
    assert "disk I/O" in v.sentence


@pytest.mark.parametrize(
    ("kwargs", "evidence_key"),
    [
        ({"swap_step": 8 * 1024**2}, "swap_growth_mib"),
        ({"available": 3 * GIB, "available_step": 40 * 1024**2}, "available_min_percent"),
        ({"rss_start": 12 * GIB, "rss_step": 20 * 1024**2}, "rss_peak_percent_of_ram"),
    ],
)
def test_host_memory_pressure(kwargs: dict[str, int], evidence_key: str) -> None:
    v = compute_verdict(timeline(cpu_cores=0.2, **kwargs), mem_total_bytes=RAM)
    assert v is not None and v.code == "AIP904"
    assert evidence_key in v.evidence


def test_host_memory_pressure_outranks_everything() -> None:
    report = timeline(cpu_cores=1.0, gpu_util=5.0, swap_step=16 * 1024**2)
    codes = [v.code for v in diagnose(report, mem_total_bytes=RAM).verdicts]
    assert codes == ["AIP904", "AIP901"]


def test_cpu_bound_single_and_all_cores() -> None:
    assert verdict_code(timeline(cpu_cores=0.98)) == "AIP907"
    v = compute_verdict(timeline(cpu_cores=3.9), mem_total_bytes=RAM)
    assert v is not None and v.code == "AIP908" and v.title == "CPU-bound on all cores"
    v = compute_verdict(timeline(cpu_cores=2.0, cores=16), mem_total_bytes=RAM)
    assert v is not None and v.title == "CPU-bound on several cores"


def test_half_busy_cell_has_no_single_bottleneck() -> None:
    result = diagnose(timeline(cpu_cores=0.5), mem_total_bytes=RAM)
    assert result.verdicts == []
    assert result.note is not None and "No single bottleneck" in result.note


def test_too_short_cell_gets_a_note_not_a_verdict() -> None:
    report = timeline(n=3, cpu_cores=1.0)
    result = diagnose(report, mem_total_bytes=RAM)
    assert result.verdicts == [] and result.note is not None and "3 samples" in result.note
    assert compute_verdict(Report(source=""), mem_total_bytes=RAM) is None


def test_thresholds_are_parameters() -> None:
    report = timeline(cpu_cores=0.5)
    assert compute_verdict(report, Thresholds(cpu_single_cores=0.4), mem_total_bytes=RAM) is not None


def test_missing_counters_do_not_crash() -> None:
    report = timeline(cpu_cores=1.0, gpu_util=50.0)
    s = report.samples
    for column in (s.cpu_percent, s.rss_bytes, s.mem_available_bytes, s.swap_used_bytes, s.busy_threads):
        column[:] = [None] * len(column)
    s.cpu_per_core[:] = [None] * len(s)
    s.gpus[0].util_percent[:] = [None] * len(s)
    s.gpus[0].mem_used_bytes[:] = [None] * len(s)
    assert compute_verdict(report, mem_total_bytes=None) is not None


def test_stage_sets_verdict_and_adds_info_findings() -> None:
    report = timeline(cpu_cores=0.3, gpu_util=99.0, gpu_mem_share=0.96)
    VerdictStage().after(None, report)  # type: ignore[arg-type]
    assert report.verdict is not None and report.verdict.code == "AIP906"
    added = [f for f in report.findings if f.code.startswith("AIP9")]
    assert [f.code for f in added] == ["AIP906", "AIP905"]
    assert all(f.severity == "info" and f.message for f in added)
    assert Report.from_json(report.to_json()).verdict == report.verdict


def test_stage_shows_the_finding_the_verdict_names_even_when_its_lines_looked_cheap() -> None:
    """Threads spend the time while the cell's own line waits on the pool: the line's share is ~0,
    yet the GIL verdict says "See AIP401", so AIP401 must be on screen; unrelated hidden ones stay hidden."""
    report = timeline(cpu_cores=1.0, busy_threads=4)
    threads = Finding(code="AIP401", message="threads on CPU work", line=2, shown=False,
                      hidden_reason="its lines took 0% of the run", evidence={"share": 0.0})
    other = Finding(code="AIP503", message="deprecated amp", line=5, shown=False, hidden_reason="negligible")
    report.findings += [threads, other]
    VerdictStage().after(None, report)  # type: ignore[arg-type]
    assert report.verdict is not None and report.verdict.code == "AIP902"
    assert "AIP401" in report.verdict.related
    assert threads.shown and threads.hidden_reason is None and threads.evidence["verdict"] == "AIP902"
    assert not other.shown and other.hidden_reason == "negligible"


def test_stage_notes_short_cells() -> None:
    report = timeline(n=2)
    VerdictStage().after(None, report)  # type: ignore[arg-type]
    assert report.verdict is None and any("verdict needs" in n for n in report.notes)


def test_cpu_bound_cell_starved_by_other_processes_is_a_busy_machine_not_a_cpu_verdict() -> None:
    report = timeline(cpu_cores=0.45)  # got under half a core ...
    report.cpu_wait_s = 0.5 * report.wall_s  # ... and waited in the run queue the rest of the time
    result = diagnose(report, mem_total_bytes=RAM)
    assert result.verdicts == [] and result.note is not None
    assert "machine was busy" in result.note and "0.45 core" in result.note and "0.50 s" in result.note
    report.cpu_wait_s = None
    assert compute_verdict(report, mem_total_bytes=RAM) is None
    report = timeline(cpu_cores=0.8)  # enough of a core of its own: CPU-bound, and it also waited
    report.cpu_wait_s = 0.3 * report.wall_s
    v = compute_verdict(report, mem_total_bytes=RAM)
    assert v is not None and v.code == "AIP907" and v.evidence["cpu_wait_cores"] == 0.3
    assert v.evidence["process_cpu_cores"] >= 0.7 and "other processes" in v.sentence


def test_a_moments_wait_for_a_cpu_does_not_make_a_cell_that_ran_two_thirds_of_a_core_cpu_bound() -> None:
    report = timeline(cpu_cores=0.64)  # threads waking for responses: two thirds of a core ...
    report.cpu_wait_s = 0.08 * report.wall_s  # ... and a moment in the run queue after each wake-up
    assert verdict_code(report) != "AIP907"
    report.cpu_wait_s = 0.2 * report.wall_s  # a fifth of the run held back by other processes: it wanted the core
    v = compute_verdict(report, mem_total_bytes=RAM)
    assert v is not None and v.code == "AIP907" and "wanted a whole core" in v.sentence


def test_gil_bound_on_a_saturated_machine() -> None:
    report = timeline(cpu_cores=0.45, busy_threads=4, cores=2)
    for row in report.samples.cpu_per_core:
        row[:] = [100.0, 95.0]  # other processes fill the cores
    v = compute_verdict(report, mem_total_bytes=RAM)
    assert v is not None and v.code == "AIP902"


def test_threads_waiting_on_the_network_are_not_gil_bound_on_a_saturated_machine() -> None:
    from aiperf_magic.report import Hotspot

    def pool(callee: str | None) -> Report:
        report = timeline(cpu_cores=0.4, busy_threads=6, cores=2)
        for row in report.samples.cpu_per_core:
            row[:] = [100.0, 95.0]  # other processes fill the cores
        callees = {callee: 18} if callee else {}
        report.hotspots = [Hotspot(line=2, seconds=0.9, share=0.95, samples=20, callees=callees,
                                   text="sizes = list(executor.map(download_site, sites))")]
        return report

    # 8 threads each woken for a moment by its response: busy by the probe, waiting on sockets
    assert verdict_code(pool("Session.get")) != "AIP902"
    # the counterexample: the same threads computing in Python are taking turns at the GIL
    assert verdict_code(pool(None)) == "AIP902"


def test_memory_pressure_links_the_frame_profilers_finding() -> None:
    report = timeline(cpu_cores=0.2, swap_step=8 * 1024**2)
    report.findings.append(Finding(code="AIP303", message="DataFrame `df` uses 3 GB", line=1))
    v = compute_verdict(report, mem_total_bytes=RAM)
    assert v is not None and v.code == "AIP904" and v.related == ["AIP303"]


def test_sleeping_cell_on_a_busy_machine_is_still_waiting() -> None:
    report = timeline(cpu_cores=0.02, busy_threads=0)
    report.cpu_wait_s = 0.35 * report.wall_s  # each wake-up waited for a CPU
    v = compute_verdict(report, mem_total_bytes=RAM)
    assert v is not None and v.code == "AIP903" and "waited" in v.sentence
