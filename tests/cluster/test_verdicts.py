"""The cluster verdicts (AIP910-AIP914), their precedence, the Report's JSON and the views, on
injected summaries (the real engines are in test_dask.py and test_ray.py)."""

from __future__ import annotations

from dataclasses import replace

from aiperf_magic.report import ClusterInfo, Report, WorkerHotspot
from aiperf_magic.verdicts.stage import diagnose
from tests.runtime.timelines import GIB, timeline

MAX = 16 * GIB


def info(**kw) -> ClusterInfo:
    base = ClusterInfo(
        engine="dask", workers=2, threads=2, tasks=2, task_seconds=1.9, median_task_ms=950.0,
        transfer_bytes=0, spilled_bytes=0, worker_busy={"tcp://a:1": 0.95, "tcp://b:2": 0.95},
        worker_hotspots=[WorkerHotspot("heavy", 1.9, 1.0)], driver_wait_s=0.95, span_s=1.0,
        bin_s=0.05, busy_bins={"tcp://a:1": [1.0] * 20, "tcp://b:2": [1.0] * 20},
        worker_threads={"tcp://a:1": 1, "tcp://b:2": 1}, per_task_ms=1000.0,
    )
    return replace(base, **kw)


def codes(cluster: ClusterInfo, cpu_cores: float = 0.05) -> list[str]:
    report = timeline(n=50, cpu_cores=cpu_cores)  # a one-second cell
    report.cluster = cluster
    return [v.code for v in diagnose(report, mem_total_bytes=MAX).verdicts]


def test_cluster_bound_names_the_hot_function_and_replaces_waiting() -> None:
    found = codes(info())
    assert found[0] == "AIP910" and "AIP903" not in found
    report = timeline(n=50, cpu_cores=0.05)
    report.cluster = info()
    assert "heavy (100%)" in diagnose(report, mem_total_bytes=MAX).verdicts[0].sentence
    # the driver waited, but the cluster was mostly idle (5 % of its thread time): not cluster-bound
    assert "AIP910" not in codes(info(task_seconds=0.1))
    # functions under 1 % of the task time are not where the workers spent it; the first is always named
    spread = [WorkerHotspot("heavy", 1.7, 0.9), WorkerHotspot("load", 0.16, 0.08), WorkerHotspot("tiny", 0.01, 0.005)]
    report.cluster = info(worker_hotspots=spread)
    sentence = diagnose(report, mem_total_bytes=MAX).verdicts[0].sentence
    assert "heavy (90%), load (8%)." in sentence and "tiny" not in sentence, sentence


def test_cluster_verdict_takes_precedence_over_cpu_bound_on_one_core() -> None:
    # the driver kept a core busy sending tiny tasks: AIP907 alone without the cluster
    assert codes(replace(info(), tasks=0), cpu_cores=1.0) == ["AIP907"]
    small = info(tasks=4000, median_task_ms=0.05, per_task_ms=4.8, driver_wait_s=0.2, task_seconds=0.2)
    found = codes(small, cpu_cores=1.0)
    assert found[0] == "AIP911" and "AIP907" not in found


def test_small_tasks_says_how_many_how_long_and_the_batch() -> None:
    report = timeline(n=50)
    report.cluster = info(tasks=4000, median_task_ms=0.05, per_task_ms=4.8, task_seconds=0.2)
    v = next(v for v in diagnose(report, mem_total_bytes=MAX).verdicts if v.code == "AIP911")
    assert "4,000 tasks" in v.sentence and "0.05 ms" in v.sentence and "1,000 items" in v.sentence
    assert v.evidence["batch"] == 1000.0
    assert "AIP911" not in codes(info(tasks=4000, median_task_ms=150.0, per_task_ms=160.0))


def test_unbalanced_names_the_idle_worker() -> None:
    pinned = info(worker_busy={"tcp://a:1": 0.93, "tcp://b:2": 0.0})
    assert "AIP912" in codes(pinned)
    assert "AIP912" not in codes(info())
    # Ray: one busy worker process out of 4 CPUs
    ray = info(engine="ray", threads=4, worker_busy={"worker:1": 0.9}, worker_threads={"worker:1": 1})
    assert "AIP912" in codes(ray)


def test_spilling_and_transfer_bound() -> None:
    assert codes(info(spilled_bytes=200 * 2**20, spill_s=0.5))[0] == "AIP913"
    assert "AIP913" not in codes(info(spilled_bytes=2**20))
    assert codes(info(transfer_s=1.5, transfer_bytes=10**9))[0] == "AIP914"
    assert "AIP914" not in codes(info(transfer_s=0.05))


def test_no_cluster_verdict_without_tasks_or_cluster() -> None:
    assert not [c for c in codes(info(tasks=0)) if c.startswith("AIP91")]
    assert "AIP903" in codes(None)  # type: ignore[arg-type]


def test_a_short_cell_still_gets_its_cluster_verdict() -> None:
    report = timeline(n=3, interval=0.1)  # 0.3 s, 3 samples: too few for the host verdicts
    report.cluster = info(driver_wait_s=0.25)
    assert [v.code for v in diagnose(report, mem_total_bytes=MAX).verdicts] == ["AIP910"]


def test_json_round_trip_keeps_the_cluster() -> None:
    report = Report(source="x", cluster=info(dashboard="http://127.0.0.1:8787/status", notes=["n"]))
    again = Report.from_json(report.to_json())
    assert again == report and isinstance(again.cluster.worker_hotspots[0], WorkerHotspot)
    assert Report.from_json(Report(source="x").to_json()).cluster is None
    # the promised names
    assert {"engine", "workers", "threads", "tasks", "task_seconds", "median_task_ms", "transfer_bytes",
            "spilled_bytes", "worker_busy", "worker_hotspots", "driver_wait_s", "dashboard"} <= set(
        report.to_dict()["cluster"])


def test_views_show_the_section_and_escape_worker_and_function_names() -> None:
    from aiperf_magic.render.html import render_html
    from aiperf_magic.render.panel.viewmodel import panel_data
    from aiperf_magic.render.text import render_text

    evil = "<script>alert(1)</script>"
    report = timeline(n=50, cpu_cores=0.05)
    report.cluster = info(worker_busy={evil: 0.9, "tcp://b:2": 0.1}, busy_bins={evil: [1.0, 0.5]},
                          worker_hotspots=[WorkerHotspot(evil, 1.0, 1.0)], dashboard="javascript:alert(1)")
    report.verdict = diagnose(report, mem_total_bytes=MAX).verdicts[0]
    text = render_text(report)
    assert "Cluster" in text and "worker functions" in text and "dask: 2 workers" in text
    html = render_html(report)
    assert "Cluster (" in html and "<svg" in html and evil not in html and "&lt;script&gt;" in html
    assert 'href="javascript' not in html
    data = panel_data(report)["cluster"]
    assert data["svg"].startswith("<svg") and evil not in data["svg"]
    assert data["functions"][0]["name"] == evil  # the panel puts it in with textContent
    assert panel_data(Report(source="x"))["cluster"] is None
    assert "Cluster" not in render_text(Report(source="x"))


def test_the_busy_picture_stays_small_on_a_large_cluster() -> None:
    import random

    from aiperf_magic.render.cluster import MAX_WORKERS, busy_svg

    rng = random.Random(0)
    names = [f"tcp://10.0.{i // 256}.{i % 256}:8786" for i in range(64)]
    noisy = info(worker_busy={n: rng.random() for n in names},
                 busy_bins={n: [rng.random() for _ in range(120)] for n in names})
    svg = busy_svg(noisy)
    assert svg is not None and svg.count("<text") <= MAX_WORKERS + 4 and "48 more workers" in svg
    assert len(svg) < 160_000
    steady = info(busy_bins={"tcp://a:1": [1.0] * 120, "tcp://b:2": [1.0] * 120})
    assert busy_svg(steady).count("<rect") == 4  # one run per worker, and each strip's frame
