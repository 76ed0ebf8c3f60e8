"""The cluster verdicts (AIP910-AIP914), one function per code, read from ``Report.cluster``.

They run before the host verdicts and, when one holds, the driver-side CPU verdicts (AIP903,
AIP907, AIP908) give way: a driver that waits on its cluster is neither I/O-bound nor CPU-bound.
Every threshold is a field of :class:`~.checks.Thresholds`; ``docs/cluster.md`` explains them.
"""

from __future__ import annotations

import math

from .. import units as fmt
from ..report import ClusterInfo, Report, Verdict
from .checks import Thresholds


def _pct(x: float) -> float:
    return round(100.0 * x, 1)


MIN_NAMED_SHARE = 0.01  # a function under 1 % of the task time is not where the workers spent it


def hot_functions(c: ClusterInfo, count: int = 3) -> str:
    """``heavy (92 %), load (6 %)``: the functions the workers spent their time in (the first
    always, the others from 1 % of the task time)."""
    named = [h for i, h in enumerate(c.worker_hotspots[:count]) if i == 0 or h.share >= MIN_NAMED_SHARE]
    return ", ".join(f"{h.function} ({fmt.percent(h.share)})" for h in named) or "no task"


def cluster_bound(c: ClusterInfo, wall_s: float, th: Thresholds) -> Verdict | None:
    wait = c.driver_wait_s or 0.0
    if wall_s <= 0 or not c.tasks or wait < th.cluster_wait_share * wall_s:
        return None
    if c.span_s <= 0 or c.task_seconds < th.cluster_busy_share * c.threads * c.span_s:
        return None  # the cluster was mostly idle: overhead (AIP911) or imbalance, not its work
    return Verdict(
        "AIP910",
        "Cluster-bound",
        f"The driver waited {fmt.seconds(wait)} of the {fmt.seconds(wall_s)} cell ({_pct(wait / wall_s):.0f} %) "
        f"while {c.tasks:,} {c.engine} tasks ran on {c.workers} worker{'s' if c.workers != 1 else ''}: the "
        f"cluster's work limits the cell; the workers spent their time in {hot_functions(c)}.",
        {"driver_wait_percent": _pct(wait / wall_s), "tasks": float(c.tasks),
         "task_seconds": round(c.task_seconds, 3), "threads": float(c.threads)},
        advice="Speed up the hot worker functions (vectorise them, smaller dtypes), or add workers; "
        "profile them with the engine's dashboard.",
    )


def batch_size(c: ClusterInfo, th: Thresholds) -> int:
    """Items per task that make a task about ``target_task_ms`` long, keeping two tasks per thread."""
    median = max(c.median_task_ms or 0.0, 1e-3)
    batch = math.ceil(th.target_task_ms / median)
    return max(1, min(batch, c.tasks // max(1, 2 * c.threads)))


def small_tasks(c: ClusterInfo, th: Thresholds) -> Verdict | None:
    median, slot = c.median_task_ms, c.per_task_ms
    if c.tasks < th.small_tasks_min or median is None or slot is None:
        return None
    if median >= th.small_task_ms or median >= th.small_task_slot_share * slot:
        return None
    batch = batch_size(c, th)
    return Verdict(
        "AIP911",
        "Too many small tasks",
        f"{c.tasks:,} tasks computed for {median:.3g} ms each (median), yet each cost the cluster "
        f"{slot:.3g} ms of thread time: scheduling and communication, not work, filled the "
        f"{fmt.seconds(c.span_s)}. Batches of about {batch:,} items per task (one partition or one "
        f"submit per batch, {math.ceil(c.tasks / batch):,} tasks) would amortise that overhead.",
        {"tasks": float(c.tasks), "median_task_ms": round(median, 4), "per_task_ms": round(slot, 4),
         "batch": float(batch)},
        advice=f"Submit one task per batch of items (client.map over chunks of ~{batch:,}, "
        "larger partitions, dask.bag/dataframe with fewer partitions, or a Ray task per batch).",
    )


def unbalanced(c: ClusterInfo, th: Thresholds) -> Verdict | None:
    if c.threads < 2 or not c.worker_busy or not c.tasks:
        return None
    busiest_worker, busiest = max(c.worker_busy.items(), key=lambda kv: kv[1])
    if busiest < th.imbalance_min_busy:
        return None
    busy_threads = sum(share * c.worker_threads.get(w, 1) for w, share in c.worker_busy.items())
    mean = busy_threads / c.threads
    if mean >= th.imbalance_ratio * busiest:
        return None
    idle = sorted(w for w, share in c.worker_busy.items() if share < th.imbalance_min_busy * busiest)
    idle_text = f" (idle or nearly: {', '.join(idle[:3])}{' …' if len(idle) > 3 else ''})" if idle else ""
    return Verdict(
        "AIP912",
        "Unbalanced or idle workers",
        f"The busiest worker ({busiest_worker}) computed {_pct(busiest):.0f} % of the time the cluster worked "
        f"while the cluster's {c.threads} threads averaged {_pct(mean):.0f} %{idle_text}: the work did not "
        "spread over the cluster.",
        {"busiest_percent": _pct(busiest), "mean_thread_percent": _pct(mean), "threads": float(c.threads)},
        advice="Drop workers=/resource pins that tie tasks to one worker, split the work into more "
        "tasks than threads, and repartition skewed data.",
    )


def spilling(c: ClusterInfo, th: Thresholds) -> Verdict | None:
    spilled = c.spilled_bytes or 0
    slow_disk = c.spill_s >= max(0.1, th.spill_time_share * c.task_seconds)
    if spilled < th.spill_bytes and not slow_disk:
        return None
    return Verdict(
        "AIP913",
        "Workers spilled to disk",
        f"The workers wrote {fmt.size(spilled)} to disk and spent {fmt.seconds(c.spill_s)} reading and writing "
        "it: their memory could not hold the cell's data.",
        {"spilled_mib": round(spilled / 2**20, 1), "spill_seconds": round(c.spill_s, 3)},
        advice="Give workers more memory or add workers, use smaller partitions and dtypes, and "
        "persist only what later cells reuse.",
    )


def transfer_bound(c: ClusterInfo, th: Thresholds) -> Verdict | None:
    moving = c.transfer_s
    if moving < th.transfer_min_s or moving < th.transfer_share * (c.task_seconds + moving):
        return None
    sent = f" ({fmt.size(c.transfer_bytes)})" if c.transfer_bytes else ""
    return Verdict(
        "AIP914",
        "Transfer-bound",
        f"Workers spent {fmt.seconds(moving)} moving task inputs between them{sent} against "
        f"{fmt.seconds(c.task_seconds)} computing: the cluster is limited by data transfer.",
        {"transfer_seconds": round(moving, 3), "task_seconds": round(c.task_seconds, 3),
         "transfer_percent": _pct(moving / (c.task_seconds + moving))},
        advice="Scatter large inputs once (client.scatter, ray.put) instead of passing them per task, "
        "and keep dependent steps on the worker that holds their data.",
    )


def cluster_verdicts(report: Report, th: Thresholds) -> list[Verdict]:
    """Every cluster verdict that holds, most specific first (a spill explains a wait, not the reverse)."""
    c = report.cluster
    if c is None or not c.tasks or report.wall_s < th.cluster_min_wall_s:
        return []
    found = [spilling(c, th), transfer_bound(c, th), small_tasks(c, th), unbalanced(c, th),
             cluster_bound(c, report.wall_s, th)]
    return [v for v in found if v is not None]
