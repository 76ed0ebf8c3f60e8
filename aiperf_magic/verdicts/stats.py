"""The numbers a verdict is judged on, summarised once from a Report's samples.

Kept apart from the rules so that each rule reads like its documented threshold, and so that the
same summary can be shown as evidence. Pure arithmetic on the Report: no psutil, no NVML.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass

from ..report import GpuSeries, Report


def present(values: Sequence[float | int | None]) -> list[float]:
    return [float(v) for v in values if v is not None]


def mean(values: Sequence[float]) -> float | None:
    return sum(values) / len(values) if values else None


def share(values: Sequence[float], predicate_min: float) -> float:
    """Fraction of ``values`` at or above ``predicate_min`` (0 when empty)."""
    return sum(1 for v in values if v >= predicate_min) / len(values) if values else 0.0


def counter_delta(values: Sequence[int | None]) -> float | None:
    """Growth of a cumulative counter (process read/write bytes) over the run."""
    seen = present(values)
    if len(seen) < 2:
        return None
    return max(0.0, seen[-1] - seen[0])


@dataclass
class GpuStats:
    indices: list[int]
    util_mean: float | None  # percent, busiest of this process's GPUs
    busy_share: float  # fraction of samples with utilisation at or above the busy bar
    memory_share_max: float | None  # used / total, 0..1, worst GPU and sample


@dataclass
class RunStats:
    samples: int
    wall_s: float
    cpu_s: float
    cores_used: float  # process CPU time / wall time
    cpu_wait_cores: float  # time runnable but waiting for a CPU (other processes) / wall time
    cores: int  # CPUs the machine offers this process
    busiest_core_mean: float | None  # percent, mean over samples of the busiest core
    machine_cpu_mean: float | None  # percent, mean over samples and cores
    busy_threads_mean: float | None
    multi_thread_share: float  # fraction of samples with two or more busy Python threads
    swap_growth_bytes: float | None
    available_min_bytes: float | None
    rss_first_bytes: float | None
    rss_peak_bytes: float | None
    read_bytes: float | None
    write_bytes: float | None
    cuda_in_use: bool
    gpu: GpuStats | None
    # the cell's own profile: the CPU of the threads that ran its work and of the worker processes
    # it ran (the kernel's and aiperf's own threads left out), and what other processes took meanwhile
    cell_cores: float = 0.0
    other_cores: float | None = None  # CPU of other processes over the cell / wall time
    busy_cell_threads: int = 0  # threads that shared the cell's work (see busy_cell_threads)
    thread_cores: float | None = None  # CPU of the cell's own threads alone (no worker processes) / wall time
    library_threads: int = 0  # threads started in the cell that worked but never ran the user's Python

    @property
    def cores_wanted(self) -> float:
        """Cores the process would have used on an idle machine: CPU time plus run-queue wait."""
        return self.cores_used + self.cpu_wait_cores

    @property
    def cell_wanted(self) -> float:
        """Cores the cell's own work would have used on an idle machine."""
        return self.cell_cores + self.cpu_wait_cores


def _machine_cores(report: Report) -> int:
    for row in report.samples.cpu_per_core:
        if row:
            return len(row)
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def _own_gpus(report: Report) -> list[GpuSeries]:
    """The GPUs this process used: those where NVML saw its memory, else (PIDs hidden) all."""
    series = [g for g in report.samples.gpus if present(g.util_percent) or present(g.mem_used_bytes)]
    mine = [g for g in series if any(v for v in g.process_mem_bytes if v)]
    return mine or series


def _gpu_stats(report: Report, busy_util: float) -> GpuStats | None:
    gpus = _own_gpus(report)
    if not gpus:
        return None
    utils = [(mean(present(g.util_percent)), g) for g in gpus]
    util_mean, busiest = max(
        ((u, g) for u, g in utils if u is not None), default=(None, None), key=lambda pair: pair[0] or 0.0
    )
    busy_share = share(present(busiest.util_percent), busy_util) if busiest is not None else 0.0
    worst: float | None = None
    for g in gpus:
        for used, total in zip(g.mem_used_bytes, g.mem_total_bytes, strict=False):
            if used is not None and total:
                worst = max(worst or 0.0, used / total)
    totals = [info.memory_total_bytes for info in report.gpus if info.memory_total_bytes]
    if report.cuda_peak_bytes and totals:
        # torch's allocator peak is per device; without the device, compare with the smallest card
        worst = max(worst or 0.0, report.cuda_peak_bytes / min(totals))
    return GpuStats([g.index for g in gpus], util_mean, busy_share, worst)


BUSY_THREAD_SHARE = 0.1  # of the wall time, on a CPU: a thread that worked
MOST_WORK_SHARE = 0.6  # of the busy threads' CPU: one thread this busy did the work, the others helped


def busy_cell_threads(report: Report) -> int:
    """How many of the cell's threads shared its work: each used a CPU for a tenth of the wall time
    or more, and none did most of it (exact, from each thread's CPU clock: the count holds even when
    such threads starve the sampler of ticks). 1 when one thread did most of the work."""
    if report.wall_s <= 0:
        return 0
    busy = [t.cpu_s for t in report.thread_times if t.cell and t.cpu_s >= BUSY_THREAD_SHARE * report.wall_s]
    if len(busy) >= 2 and max(busy) > MOST_WORK_SHARE * sum(busy):
        return 1
    return len(busy)


def cell_cpu(report: Report) -> float:
    """CPU seconds of the cell's own work: the process's CPU (worker processes included) less what
    threads that did none of the cell's work used (the kernel's, aiperf's sampler)."""
    if not report.thread_times:
        return report.cpu_s
    others = sum(t.cpu_s for t in report.thread_times if not t.cell)
    return max(0.0, min(report.cpu_s, report.cpu_s - others))


def cell_wait(report: Report) -> float | None:
    """Seconds the cell's threads were ready to run but waited for a CPU held by another process: in
    this machine's run queue, or, on a virtual machine, while the hypervisor ran another machine on
    the CPU (its ``steal``: a spin loop given 0.6 of a core with no wait in the run queue). Steal
    takes a share ``f`` of every core's time; work that ran ``c`` seconds on such a core was kept
    off it for about ``c * f / (1 - f)``, at most the time the cell's work neither ran nor waited (a
    cell that sleeps loses next to nothing to it)."""
    wait = report.cell_cpu_wait_s if report.cell_cpu_wait_s is not None else report.cpu_wait_s
    if not report.steal_s or not report.machine_cores or report.wall_s <= 0:
        return wait
    ran = report.cell_cpu_s if report.cell_cpu_s is not None else report.cpu_s
    idle = max(0.0, report.wall_s - ran - (wait or 0.0))
    share = min(MAX_STEAL_SHARE, report.steal_s / (report.machine_cores * report.wall_s))
    return (wait or 0.0) + min(ran * share / (1.0 - share), idle)


MAX_STEAL_SHARE = 0.9  # past this the machine hardly ran at all: counted as this


def summarise(report: Report, busy_util: float = 50.0) -> RunStats:
    s = report.samples
    cpu_percent = present(s.cpu_percent)
    wall_s = report.wall_s or (s.t[-1] - s.t[0] if len(s.t) > 1 else 0.0)
    cores_used = report.cpu_s / report.wall_s if report.wall_s > 0 else (mean(cpu_percent) or 0.0) / 100.0
    per_core = [row for row in s.cpu_per_core if row]
    busy = present(s.busy_threads)
    swap = present(s.swap_used_bytes)
    rss = present(s.rss_bytes)
    available = present(s.mem_available_bytes)
    cuda_in_use = bool(
        report.gpu_synced
        or (report.cuda_peak_bytes or 0) > 0
        or any(v for g in s.gpus for v in g.process_mem_bytes if v)
    )
    return RunStats(
        samples=len(s),
        wall_s=wall_s,
        cpu_s=report.cpu_s,
        cores_used=cores_used,
        cpu_wait_cores=(cell_wait(report) or 0.0) / wall_s if wall_s > 0 else 0.0,
        cores=_machine_cores(report),
        busiest_core_mean=mean([max(row) for row in per_core]),
        machine_cpu_mean=mean([sum(row) / len(row) for row in per_core]),
        busy_threads_mean=mean(busy),
        multi_thread_share=share(busy, 2),
        swap_growth_bytes=(max(swap) - swap[0]) if len(swap) > 1 else None,
        available_min_bytes=min(available) if available else None,
        rss_first_bytes=rss[0] if rss else None,
        rss_peak_bytes=max(rss) if rss else (float(report.peak_rss_bytes) if report.peak_rss_bytes else None),
        read_bytes=counter_delta(s.read_bytes),
        write_bytes=counter_delta(s.write_bytes),
        cuda_in_use=cuda_in_use,
        gpu=_gpu_stats(report, busy_util),
        cell_cores=cell_cpu(report) / report.wall_s if report.wall_s > 0 else cores_used,
        other_cores=report.other_cpu_s / wall_s if report.other_cpu_s is not None and wall_s > 0 else None,
        busy_cell_threads=busy_cell_threads(report),
        thread_cores=(sum(t.cpu_s for t in report.thread_times if t.cell) / report.wall_s
                      if report.thread_times and report.wall_s > 0 else None),
        library_threads=sum(1 for t in report.thread_times if t.started and not t.cell and not t.user_samples
                            and t.cpu_s >= BUSY_THREAD_SHARE * report.wall_s),
    )
