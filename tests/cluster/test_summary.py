"""The task-stream summary: bounded memory, right numbers, from injected fake streams."""

from __future__ import annotations

import random
import tracemalloc

from aiperf_magic.measure.cluster.dask_probe import fold, task_function
from aiperf_magic.measure.cluster.summary import MAX_BINS, MAX_FUNCTIONS, DurationHistogram, TaskStreamSummary


def test_busy_shares_functions_and_median() -> None:
    s = TaskStreamSummary("dask", origin=100.0, end=110.0, threads={"a": 1, "b": 1})
    for i in range(10):  # worker a: ten 0.1 s tasks back to back; worker b: nothing
        s.add("a", "heavy", 100.0 + i * 0.1, 100.0 + (i + 1) * 0.1)
    info = s.info()
    assert info.tasks == 10 and info.workers == 2 and info.threads == 2
    assert abs(info.task_seconds - 1.0) < 1e-6 and abs(info.span_s - 1.0) < 1e-6
    assert info.worker_busy == {"a": 1.0, "b": 0.0}
    assert info.worker_hotspots[0].function == "heavy" and info.worker_hotspots[0].share == 1.0
    assert info.median_task_ms is not None and abs(info.median_task_ms - 100) / 100 < 0.07
    assert info.per_task_ms is not None and abs(info.per_task_ms - 200) < 1e-6  # 1 s x 2 threads / 10 tasks
    assert max(info.busy_bins["a"]) == 1.0 and set(info.busy_bins["b"]) == {0.0}


def test_work_outside_the_cell_is_clipped() -> None:
    s = TaskStreamSummary("dask", origin=10.0, end=11.0)
    s.add("a", "f", 9.0, 10.5)  # started before the cell: only its half second inside counts
    s.add("a", "f", 12.0, 13.0)  # after the cell
    info = s.info()
    assert info.tasks == 1 and abs(info.task_seconds - 0.5) < 1e-9


def test_bins_coarsen_and_stay_bounded() -> None:
    s = TaskStreamSummary("ray", origin=0.0, end=1e6)
    s.add("w", "f", 0.0, 1.0)
    s.add("w", "f", 999.0, 1000.0)
    assert len(s.bins["w"]) == MAX_BINS and s.bin_s * MAX_BINS >= 1000.0
    assert abs(sum(s.bins["w"]) - 2.0) < 1e-9  # merging bins keeps every busy second


def test_function_names_are_capped() -> None:
    s = TaskStreamSummary("dask", origin=0.0, end=10.0)
    for i in range(MAX_FUNCTIONS + 50):
        s.add("w", f"f{i}", 0.0, 0.001)
    assert len(s.functions) == MAX_FUNCTIONS + 1 and "other" in s.functions


def test_histogram_median_within_a_bin() -> None:
    h = DurationHistogram()
    values = [random.uniform(0.001, 0.003) for _ in range(10_001)]
    for v in values:
        h.add(v)
    exact = sorted(values)[5000]
    got = h.quantile(0.5)
    assert got is not None and abs(got - exact) / exact < 0.07
    assert DurationHistogram().quantile(0.5) is None


def test_memory_does_not_grow_with_tasks() -> None:
    """50,000 tasks on 8 workers: what the summary keeps is the same as after 1,000."""
    def retained(n: int) -> int:
        tracemalloc.start()
        s = TaskStreamSummary("dask", origin=0.0, end=1e9)
        for i in range(n):
            t = i * 1e-4
            s.add(f"w{i % 8}", f"f{i % 5}", t, t + 1e-4)
        size = tracemalloc.get_traced_memory()[0]
        tracemalloc.stop()
        assert s.tasks == n
        return size

    small, large = retained(1_000), retained(50_000)
    assert large < small + 64 * 1024, (small, large)


def test_task_names_as_the_dashboard_groups_them() -> None:
    assert task_function("inc-9683ac98-fd7f-49cb-a7a4-f097248f08c9") == "inc"
    assert task_function(("random_sample-sum-3f2a", 0, 1)) == "random_sample-sum"
    assert task_function(b"hello-world-1") == "hello-world"
    assert task_function("('x-2', 1)") == "x"
    assert task_function(None) == task_function("") == "other"


def test_a_dask_record_folds_compute_transfer_and_disk() -> None:
    s = TaskStreamSummary("dask", origin=0.0, end=10.0)
    fold(s, {"worker": "tcp://a:1", "key": ("load-7", 0), "nbytes": 2**20, "startstops": (
        {"action": "transfer", "start": 1.0, "stop": 1.5, "source": "tcp://b:2"},
        {"action": "compute", "start": 1.5, "stop": 2.0},
        {"action": "disk-write", "start": 2.0, "stop": 2.25})})
    info = s.info()
    assert info.tasks == 1 and info.worker_hotspots[0].function == "load"
    assert info.transfer_s == 0.5 and info.spill_s == 0.25 and info.spilled_bytes == 2**20


def test_a_cell_record_stamped_by_a_clock_a_little_off_still_counts() -> None:
    import math

    s = TaskStreamSummary("dask", origin=100.0, end=math.inf, threads={"w": 1})
    # a worker's estimate of the scheduler's clock runs 20 ms behind the kernel's: this 1 ms task
    # of the cell looks over before the cell began; another began in an earlier cell
    fold(s, {"worker": "w", "key": "tiny-1", "startstops": ({"action": "compute", "start": 99.979, "stop": 99.98},)})
    fold(s, {"worker": "w", "key": "long-2", "startstops": ({"action": "compute", "start": 98.0, "stop": 100.5},)})
    info = s.info()
    assert info.tasks == 2
    assert math.isclose(info.task_seconds, 0.001 + 0.5)  # its own millisecond; the long one from the start on


def test_only_records_after_the_marker_belong_to_the_cell() -> None:
    from aiperf_magic.measure.cluster.dask_probe import after_marker, identity

    def rec(i: int) -> dict:
        return {"key": f"f-{i}", "stimulus_id": f"s{i}", "worker": "w", "startstops": ({"start": float(i)},)}

    stream = [rec(i) for i in range(5)]
    assert after_marker(stream, identity(stream[2])) == stream[3:]
    assert after_marker(stream, identity(rec(99))) == stream  # the marker left the window: keep all
    assert after_marker(stream, None) == stream
