"""Fake sample timelines with known answers, for the verdict rules.

Each builder returns a Report whose samples describe one kind of run the way the sampler would
record it, so that every rule (GPU ones included) is tested without the hardware.
"""

from __future__ import annotations

from aiperf_magic.report import GpuInfo, GpuSeries, Report, Samples

GIB = 1024**3


def timeline(
    n: int = 50,
    *,
    interval: float = 0.02,
    cpu_cores: float = 1.0,
    cores: int = 4,
    busy_threads: int | None = 1,
    rss_start: int = 1 * GIB,
    rss_step: int = 0,
    available: int = 10 * GIB,
    available_step: int = 0,
    swap_start: int = 0,
    swap_step: int = 0,
    gpu_util: float | None = None,
    gpu_mem_share: float = 0.2,
    gpu_total: int = 80 * GIB,
    process_gpu_mem: int | None = 2 * GIB,
    read_step: int = 0,
) -> Report:
    s = Samples(interval_s=interval)
    for i in range(n):
        s.t.append(i * interval)
        s.cpu_percent.append(100.0 * cpu_cores)
        # spread the process's load over the cores, busiest first
        per_core = [min(100.0, max(0.0, 100.0 * (cpu_cores - k))) for k in range(cores)]
        s.cpu_per_core.append(per_core)
        s.rss_bytes.append(rss_start + i * rss_step)
        s.mem_available_bytes.append(available - i * available_step)
        s.swap_used_bytes.append(swap_start + i * swap_step)
        s.read_bytes.append(i * read_step)
        s.write_bytes.append(0)
        s.busy_threads.append(busy_threads)
    report = Report(source="pass", wall_s=n * interval, cpu_s=n * interval * cpu_cores, samples=s)
    if gpu_util is not None:
        series = GpuSeries(index=0)
        for _ in range(n):
            series.util_percent.append(gpu_util)
            series.mem_used_bytes.append(int(gpu_mem_share * gpu_total))
            series.mem_total_bytes.append(gpu_total)
            series.process_mem_bytes.append(process_gpu_mem)
            series.pcie_rx_bytes_s.append(0.0)
            series.pcie_tx_bytes_s.append(0.0)
            series.power_w.append(300.0)
        s.gpus.append(series)
        report.gpus.append(GpuInfo(index=0, name="Fake GPU", memory_total_bytes=gpu_total))
        report.gpu_synced = process_gpu_mem is not None
    return report


MIB = 1024**2
# One timeline that must give each verdict and one that must not (the registry's meta-test runs both).
VERDICT_FIXTURES: dict[str, tuple[dict[str, float], dict[str, float]]] = {
    "AIP901": ({"cpu_cores": 1.0, "gpu_util": 12.0}, {"cpu_cores": 0.3, "gpu_util": 97.0}),
    "AIP902": ({"cpu_cores": 1.0, "busy_threads": 4}, {"cpu_cores": 1.0, "busy_threads": 1}),
    "AIP903": ({"cpu_cores": 0.05}, {"cpu_cores": 0.98}),
    "AIP904": ({"cpu_cores": 0.2, "swap_step": 16 * MIB}, {"cpu_cores": 0.2}),
    "AIP905": ({"cpu_cores": 0.1, "gpu_util": 30.0, "gpu_mem_share": 0.95}, {"cpu_cores": 0.1, "gpu_util": 30.0}),
    "AIP906": ({"cpu_cores": 0.3, "gpu_util": 97.0}, {"cpu_cores": 1.0, "gpu_util": 12.0}),
    "AIP907": ({"cpu_cores": 0.98}, {"cpu_cores": 0.05}),
    "AIP908": ({"cpu_cores": 3.9}, {"cpu_cores": 0.98}),
}
