"""The verdict rules, one function per code, each returning a Verdict or None.

Each rule reads the run's summary (``verdict_stats.RunStats``) against its documented threshold
(a field of ``Thresholds``) and writes its sentence and evidence. Ordering, related findings and
the stage live in ``verdict``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ..report import Verdict
from .advice import GENERAL, PARALLEL, WAIT_ADVICE
from .stats import RunStats

MIB = 1024**2
GIB = 1024**3


@dataclass(frozen=True)
class Thresholds:
    # no verdict with fewer ticks than this (100 ms at the default 20 ms) in a cell shorter than
    # min_wall_s; a longer cell needs two: CPU and wall time are exact whatever the tick count, and a
    # busy GIL can starve the sampler thread of ticks
    min_samples: int = 5
    min_wall_s: float = 0.5
    saturated_cores: float = 0.8  # process CPU (cores) that counts as one saturated core
    saturated_core_percent: float = 90.0  # ... or the busiest core's mean utilisation
    gpu_starved_util: float = 40.0  # AIP901: mean GPU utilisation below this
    gpu_busy_util: float = 50.0  # a sample with the GPU at or above this is "busy"
    gpu_bound_share: float = 0.7  # AIP906: share of busy samples at or above this
    gpu_idle_util: float = 20.0  # AIP903: "no GPU busy" means mean utilisation below this
    gpu_memory_share: float = 0.9  # AIP905: device memory used / total above this
    gil_thread_share: float = 0.5  # AIP902: share of samples with ≥ 2 busy Python threads
    gil_cores: tuple[float, float] = (0.6, 1.4)  # ... while the process uses about one core
    gil_waited_share: float = 0.5  # ... and its hot lines spent less than this share of the run waiting
    gil_one_core: float = 1.1  # ... unless the process ran more than this many cores at once (the GIL
    gil_full_machine: float = 0.9  # lets one thread at a time) while it and others held this share of the cores
    children_cores: float = 0.3  # AIP903: child processes' CPU at least this many cores, the cell's threads under
    # waiting_cpu_share: the cell waited for the processes it ran one after another
    machine_saturated_percent: float = 90.0  # all cores this busy: half the lower bound above
    waiting_cpu_share: float = 0.3  # AIP903: CPU time below this share of wall time
    swap_growth_bytes: float = 64 * MIB  # AIP904: swap grew by at least this
    available_low_share: float = 0.10  # AIP904: available memory fell below this share of RAM
    rss_near_total_share: float = 0.8  # AIP904: peak RSS above this share of RAM
    cpu_single_cores: float = 0.7  # AIP907: at least this many cores busy ...
    cpu_multi_cores: float = 1.5  # ... AIP908 from this many cores on
    cpu_starved_cores: float = 0.5  # AIP907 on a busy machine: more than half a core of its own, and
    # running plus waiting for a CPU at least cpu_single_cores (it wanted the core the others held),
    # the wait itself at least cpu_wait_cores: a pool of threads woken by responses waits a moment
    # for a CPU after each wake-up, which is a busy machine's noise, not a core the cell wanted
    cpu_wait_cores: float = 0.1
    all_cores_share: float = 0.8  # AIP908 says "all cores" above this share of the machine
    # cluster verdicts (AIP910-AIP914), read from Report.cluster; see verdicts/cluster.py
    cluster_wait_share: float = 0.5  # AIP910: the driver waited on the cluster this share of the wall time
    cluster_busy_share: float = 0.25  # AIP910: ... while its threads computed at least this share of that time
    cluster_min_wall_s: float = 0.1  # no cluster verdict for a cell shorter than this
    small_tasks_min: int = 100  # AIP911: at least this many tasks ...
    small_task_ms: float = 100.0  # ... with a median under this (shorter tasks do not amortise overhead) ...
    small_task_slot_share: float = 0.5  # ... and under this share of the slot time each task cost
    target_task_ms: float = 100.0  # AIP911 suggests batches that make tasks about this long
    imbalance_min_busy: float = 0.3  # AIP912: the busiest worker computed at least this share ...
    imbalance_ratio: float = 0.6  # ... and the mean thread was busy less than this share of it
    spill_bytes: float = 16 * MIB  # AIP913: workers spilled at least this much to disk ...
    spill_time_share: float = 0.1  # ... or spent this share of task time on disk (and 0.1 s)
    transfer_share: float = 0.3  # AIP914: transfers took this share of compute + transfer time ...
    transfer_min_s: float = 0.1  # ... and at least this long


DEFAULT = Thresholds()


def _pct(x: float) -> float:
    return round(100.0 * x, 1)


def _mib(x: float) -> float:
    return round(x / MIB, 1)


def host_memory(st: RunStats, th: Thresholds, mem_total: float | None, where: str | None = None) -> Verdict | None:
    """``where``: the sentence naming the line that allocated and the line of the peak, when measured."""
    reasons: list[str] = []
    ev: dict[str, float] = {}
    if st.swap_growth_bytes is not None and st.swap_growth_bytes >= th.swap_growth_bytes:
        reasons.append(f"swap grew by {_mib(st.swap_growth_bytes):.0f} MiB")
        ev["swap_growth_mib"] = _mib(st.swap_growth_bytes)
    if mem_total:
        ev["ram_total_gib"] = round(mem_total / GIB, 2)
        if st.available_min_bytes is not None and st.available_min_bytes < th.available_low_share * mem_total:
            reasons.append(f"available memory fell to {_pct(st.available_min_bytes / mem_total):.0f} % of RAM")
            ev["available_min_percent"] = _pct(st.available_min_bytes / mem_total)
        if st.rss_peak_bytes is not None and st.rss_peak_bytes >= th.rss_near_total_share * mem_total:
            grew = (st.rss_peak_bytes - (st.rss_first_bytes or 0.0)) / MIB
            reasons.append(
                f"this process grew to {_pct(st.rss_peak_bytes / mem_total):.0f} % of RAM"
                f" (+{grew:.0f} MiB during the cell)"
            )
            ev["rss_peak_percent_of_ram"] = _pct(st.rss_peak_bytes / mem_total)
    if not reasons:
        return None
    return Verdict(
        "AIP904",
        "Host memory pressure",
        f"Host memory ran short: {'; '.join(reasons)}." + (f" {where}" if where else ""),
        ev,
        advice="Load fewer columns or smaller dtypes (see AIP303), process in chunks, and delete "
        "intermediates; swapping makes everything else slow.",
    )


def gpu_starved(st: RunStats, th: Thresholds) -> Verdict | None:
    g = st.gpu
    if not st.cuda_in_use or g is None or g.util_mean is None or g.util_mean >= th.gpu_starved_util:
        return None
    busiest = st.busiest_core_mean or 0.0
    if st.cores_wanted < th.saturated_cores and busiest < th.saturated_core_percent:
        return None
    ev = {
        "gpu_util_percent": round(g.util_mean, 1),
        "process_cpu_cores": round(st.cores_used, 2),
        "busiest_core_percent": round(busiest, 1),
    }
    return Verdict(
        "AIP901",
        "GPU starved",
        f"The GPU waited for data: it was busy {g.util_mean:.0f} % of the time on average while the "
        f"CPU ran at {st.cores_used:.1f} cores (busiest core {busiest:.0f} %), so the input pipeline "
        f"cannot keep up.",
        ev,
        advice="Move loading and transforms into DataLoader workers (num_workers > 0, "
        "pin_memory=True, persistent_workers=True) or onto the GPU.",
    )


def gpu_bound(st: RunStats, th: Thresholds, codes: set[str]) -> Verdict | None:
    g = st.gpu
    if not st.cuda_in_use or g is None or g.util_mean is None or g.busy_share < th.gpu_bound_share:
        return None
    amp = (
        "Use mixed precision (torch.autocast with bf16/fp16): it is not used here (AIP504); then "
        if "AIP504" in codes
        else "If not already, use mixed precision (torch.autocast); then "
    )
    return Verdict(
        "AIP906",
        "GPU-bound",
        f"The GPU was busy in {_pct(g.busy_share):.0f} % of the samples (mean utilisation "
        f"{g.util_mean:.0f} %): GPU compute is what limits the cell.",
        {"gpu_busy_percent": _pct(g.busy_share), "gpu_util_percent": round(g.util_mean, 1)},
        advice=amp + "try larger batches and torch.compile.",
    )


def gpu_memory(st: RunStats, th: Thresholds) -> Verdict | None:
    g = st.gpu
    if not st.cuda_in_use or g is None or g.memory_share_max is None:
        return None
    if g.memory_share_max <= th.gpu_memory_share:
        return None
    return Verdict(
        "AIP905",
        "GPU memory pressure",
        f"GPU memory ran short: the device's memory reached {_pct(g.memory_share_max):.0f} % "
        f"(threshold {_pct(th.gpu_memory_share):.0f} %).",
        {"gpu_memory_percent": _pct(g.memory_share_max)},
        advice="Use smaller batches or mixed precision, run evaluation under "
        "torch.inference_mode(), and drop references to tensors you no longer need.",
    )


def gil_bound(st: RunStats, th: Thresholds, waited: float = 0.0) -> Verdict | None:
    """AIP902. ``waited``: the share of the run the hot lines spent waiting (a socket, a sleep, a
    lock): threads that block on I/O wake up for a moment each and count as busy, yet the GIL is
    not what holds them back; on a busy machine their waits for a CPU would pass for turns at it."""
    if waited >= th.gil_waited_share:
        return None
    full = st.cores_used + (st.other_cores or 0.0) >= th.gil_full_machine * st.cores
    library = st.library_threads >= 2 and st.busy_cell_threads <= 1
    if full and (st.cores_used > th.gil_one_core or library):
        # the machine had no core left: threads that ran more than one core at once, or that ran no
        # Python of the user's at all (a pool mapping np.sort, which lets the GIL go), got what the
        # other processes left them; that is not turns at the GIL
        return None
    low, high = th.gil_cores
    if (st.machine_cpu_mean or 0.0) >= th.machine_saturated_percent:
        # other processes hold the cores; the run-queue wait of threads that ended within the cell
        # is lost with them, so the process's own CPU time understates what it asked for
        low /= 2
    sampled = st.busy_threads_mean is not None and st.multi_thread_share >= th.gil_thread_share
    if st.cores < 2 or not (sampled or st.busy_cell_threads >= 2):
        return None
    if not low <= st.cores_wanted <= high:
        return None
    running = (f"{st.busy_threads_mean:.1f} Python threads were running on average" if sampled and st.busy_threads_mean
               else f"{st.busy_cell_threads} of the cell's threads each ran for a tenth of its time or more")
    return Verdict(
        "AIP902",
        "GIL-bound",
        f"{running}, yet together they used {st.cores_used:.1f} of {st.cores} cores: they take turns holding "
        f"the GIL.",
        {
            "busy_threads_mean": round(st.busy_threads_mean or 0.0, 2),
            "busy_cell_threads": float(st.busy_cell_threads),
            "multi_thread_percent": _pct(st.multi_thread_share),
            "process_cpu_cores": round(st.cores_used, 2),
            "cores": float(st.cores),
        },
        advice="Run CPU-bound Python work in processes (ProcessPoolExecutor), or vectorise it "
        "with NumPy, which releases the GIL.",
    )


def waiting(st: RunStats, th: Thresholds, advice: str | None = None) -> Verdict | None:
    # a sleeping thread also waits for a CPU after each wake-up on a busy machine: that wait makes a
    # cell CPU-bound only when running plus runnable covers most of the wall time
    children = _children(st, th)
    if children is not None:
        return children
    if st.wall_s <= 0 or st.cores_used >= th.waiting_cpu_share or st.cores_wanted >= th.cpu_single_cores:
        return None
    if st.gpu is not None and st.cuda_in_use and (st.gpu.util_mean or 0.0) >= th.gpu_idle_util:
        return None
    ev = {"cpu_percent_of_wall": _pct(st.cores_used), "wall_s": round(st.wall_s, 3)}
    detail = "waiting (sleep, network, disk, locks or child processes)"
    io = (st.read_bytes or 0.0) + (st.write_bytes or 0.0)
    if io >= MIB:
        ev["io_mib"] = _mib(io)
        detail = f"waiting, with {_mib(io):.0f} MiB of disk I/O"
    if st.machine_cpu_mean is not None and st.machine_cpu_mean >= 50.0:
        ev["machine_cpu_percent"] = round(st.machine_cpu_mean, 1)
        detail += f"; the machine's CPUs were {st.machine_cpu_mean:.0f} % busy (other processes)"
    return Verdict(
        "AIP903",
        "Waiting / I/O-bound",
        f"The CPU worked {_pct(st.cores_used):.0f} % of the {st.wall_s:.2f} s wall time{_contention(st)} "
        f"and no GPU was busy: the cell was {detail}.",
        ev,
        advice=advice or WAIT_ADVICE,
    )


def _children(st: RunStats, th: Thresholds) -> Verdict | None:
    """AIP903 for a cell whose own threads hardly ran while the child processes it started used the
    CPU (``subprocess.run`` per file): the cell waited for them, one after another. Children that
    ran side by side on several cores are AIP908's."""
    if st.thread_cores is None or st.wall_s <= 0 or st.thread_cores >= th.waiting_cpu_share:
        return None
    children = st.cell_cores - st.thread_cores
    if children < th.children_cores or st.cell_cores >= th.cpu_multi_cores:
        return None
    if st.gpu is not None and st.cuda_in_use and (st.gpu.util_mean or 0.0) >= th.gpu_idle_util:
        return None
    ev = {"cpu_percent_of_wall": _pct(st.thread_cores), "child_cpu_s": round(children * st.wall_s, 3),
          "wall_s": round(st.wall_s, 3)}
    return Verdict(
        "AIP903",
        "Waiting / I/O-bound",
        f"The cell's own threads worked {_pct(st.thread_cores):.0f} % of the {st.wall_s:.2f} s wall time: it waited "
        f"for the child processes it started, which used {children * st.wall_s:.2f} s of CPU{_contention(st)}.",
        ev,
        advice="Do the children's work in the process where a library does it (hashlib, PIL), or start them "
        "together (a thread pool of subprocess calls) instead of one after another.",
    )


def _contention(st: RunStats) -> str:
    """Clause for sentences when other processes kept this one waiting for a CPU."""
    if st.cpu_wait_cores < 0.1:
        return ""
    return f" (it also waited {st.cpu_wait_cores * st.wall_s:.2f} s for a CPU: other processes competed for the cores)"


def cpu_bound(st: RunStats, th: Thresholds, advice: Callable[[str], str] | None = None) -> Verdict | None:
    """AIP907/AIP908 from the cell's own CPU (its threads and worker processes): CPU that other
    processes held while the cell waited for it is a busy machine (:func:`machine_busy`), never a
    CPU-bound cell. ``advice(cores)`` words the advice from what the hot lines did."""
    own = st.cell_cores
    ev = {"process_cpu_cores": round(st.cores_used, 2), "cell_cpu_cores": round(own, 2), "cores": float(st.cores)}
    if st.cpu_wait_cores >= 0.1:
        ev["cpu_wait_cores"] = round(st.cpu_wait_cores, 2)
    if st.cores >= 2 and own >= th.cpu_multi_cores:
        everything = own >= th.all_cores_share * st.cores
        scope = "all cores" if everything else "several cores"
        return Verdict(
            "AIP908",
            f"CPU-bound on {scope}",
            f"The cell used {own:.1f} of {st.cores} cores (worker processes it ran included)"
            f"{_contention(st)}: the work is CPU-bound on {scope}.",
            ev,
            advice=advice("many") if advice else PARALLEL,
        )
    if own >= th.cpu_single_cores:
        sentence = (f"The cell kept {own:.1f} core busy while {st.cores} were available"
                    f"{_contention(st)}: one CPU core limits the cell.")
    elif (own > th.cpu_starved_cores and st.cpu_wait_cores >= th.cpu_wait_cores
          and st.cell_wanted >= th.cpu_single_cores):
        sentence = (f"The cell's work ran {own:.2f} core and waited {st.cpu_wait_cores * st.wall_s:.2f} s "
                    f"of its {st.wall_s:.2f} s for a CPU held by other processes: it wanted a whole core, "
                    "so one CPU core limits the cell (on this busy machine it got part of one).")
    else:
        return None
    return Verdict("AIP907", "CPU-bound on one core", sentence, ev, advice=advice("one") if advice else GENERAL)


def machine_busy(st: RunStats, th: Thresholds) -> str | None:
    """Why no CPU verdict fits a cell that wanted a core but got less than half of one, because
    other processes held the CPUs; None when the cell was not held back that way."""
    if st.cell_cores > th.cpu_starved_cores or st.cell_wanted < th.cpu_single_cores or st.wall_s <= 0:
        return None
    others = f"; other processes used {st.other_cores:.1f} cores meanwhile" if st.other_cores else ""
    return (
        f"No bottleneck verdict: the machine was busy. The cell's work ran {st.cell_cores:.2f} core and "
        f"waited {st.cpu_wait_cores * st.wall_s:.2f} s of its {st.wall_s:.2f} s for a CPU held by other "
        f"processes{others}: its times say as much about the machine as about the cell. The hot lines "
        "still show where its own time went."
    )
