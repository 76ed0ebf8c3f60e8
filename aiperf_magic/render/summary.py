"""Plain facts the views show, read from a Report (no measuring, only selection and wording)."""

from __future__ import annotations

from .. import units as fmt
from ..report import Report


def headline(report: Report) -> list[tuple[str, str]]:
    """(label, value) pairs for the header line of every view."""
    items = [("wall", fmt.seconds(report.wall_s)),
             ("CPU", f"{fmt.seconds(report.cpu_s)} ({report.cores_used:.2f} cores)")]
    if report.gpu_synced:
        items.append(("GPU-synced", fmt.seconds(report.gpu_s)))
    if report.peak_rss_bytes is not None:
        items.append(("peak RSS", f"{fmt.size(report.peak_rss_bytes)} "
                                  f"({fmt.size(report.rss_delta_bytes, signed=True)})"))
    if report.cuda_peak_bytes is not None:
        items.append(("CUDA peak", fmt.size(report.cuda_peak_bytes)))
    return items


def timeline(report: Report) -> list[tuple[str, str]]:
    """One line per series: mean and maximum over the run."""
    s = report.samples
    out = []
    cpu = fmt.mean_max(s.cpu_percent)
    if cpu:
        out.append(("process CPU", f"mean {cpu[0]:.0f}%, max {cpu[1]:.0f}% (100% = one core)"))
    cores = [max(c) for c in s.cpu_per_core if c]
    if cores:
        n = len(next(c for c in s.cpu_per_core if c))
        out.append((f"busiest of {n} cores", f"mean {sum(cores) / len(cores):.0f}%, max {max(cores):.0f}%"))
    rss = fmt.mean_max(s.rss_bytes)
    if rss:
        out.append(("RSS", f"mean {fmt.size(rss[0])}, max {fmt.size(rss[1])}"))
    for gpu in s.gpus:
        util = fmt.mean_max(gpu.util_percent)
        mem = fmt.mean_max(gpu.mem_used_bytes)
        if util or mem:
            parts = []
            if util:
                parts.append(f"util mean {util[0]:.0f}%, max {util[1]:.0f}%")
            if mem:
                parts.append(f"memory max {fmt.size(mem[1])}")
            out.append((f"GPU {gpu.index}", ", ".join(parts)))
    if s.t:
        every = s.interval_s * s.downsampled
        out.append(("samples", f"{len(s.t)} (every {fmt.seconds(every)})"))
    return out


def gpu_line(report: Report) -> str | None:
    if not report.gpus:
        return None
    names = ", ".join(f"{g.index}: {g.name}" for g in report.gpus)
    scopes = {g.process_memory_scope for g in report.gpus}
    scope = "device-wide (this process is not visible to NVML)" if scopes == {"device-wide"} else "per process"
    return f"{names}; GPU memory shown {scope}"


def verdict_details(report: Report) -> list[str]:
    """Advice and evidence lines under the verdict."""
    v = report.verdict
    if v is None:
        return []
    out = []
    if v.advice:
        out.append(f"advice: {v.advice}")
    if v.evidence:
        out.append("evidence: " + ", ".join(f"{k}={_number(val)}" for k, val in v.evidence.items()))
    if v.related:
        out.append("explained by: " + ", ".join(v.related))
    return out


def cpu_wait_line(report: Report) -> str | None:
    if not report.cpu_wait_s or report.wall_s <= 0 or report.cpu_wait_s < 0.05 * report.wall_s:
        return None
    return (f"the cell's threads waited {fmt.seconds(report.cpu_wait_s)} for a CPU held by other processes "
            "(the machine was busy)")


def torch_profile_lines(report: Report, top: int = 5) -> list[str]:
    prof = report.torch_profile
    if not prof:
        return []
    out = []
    for op in (prof.get("top_ops") or [])[:top]:
        out.append(f"{op.get('name')}: {op.get('self_cpu_ms', 0):.1f} ms self CPU, {op.get('calls')} calls")
    for op in (prof.get("top_device_ops") or [])[:top]:
        out.append(f"[GPU] {op.get('name')}: {op.get('self_device_ms', 0):.1f} ms, {op.get('calls')} calls")
    for kind, copy in (prof.get("copies") or {}).items():
        if copy and copy.get("count"):
            out.append(f"copies {kind}: {copy['count']} ({fmt.size(copy.get('bytes'))})")
    loader = prof.get("dataloader") or {}
    if loader.get("batches"):
        out.append(f"DataLoader: {100 * loader.get('share', 0):.0f}% of the cell waiting for "
                   f"{loader['batches']} batches ({loader.get('level') or 'not input-bound'})")
    return out


def _number(value: object) -> str:
    if isinstance(value, float):
        return f"{value:.3g}"
    return str(value)


SMALL_FRAME_BYTES = 64 * 1024


def visible_frames(report: Report) -> tuple[list, int]:
    """Frames worth a line in a view, and how many small ones were left out (e.g. a loop's `row`)."""
    shown = [f for f in report.frames if f.memory_bytes >= SMALL_FRAME_BYTES]
    return shown, len(report.frames) - len(shown)
