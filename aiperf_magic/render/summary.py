"""Plain facts the views show, read from a Report (no measuring, only selection and wording)."""

from __future__ import annotations

from dataclasses import dataclass

from .. import units as fmt
from ..report import Finding, FrameProfile, Hotspot, MemoryLine, Report


def headline(report: Report) -> list[tuple[str, str]]:
    """(label, value) pairs for the header line of every view."""
    items = [("wall", fmt.seconds(report.wall_s)),
             ("CPU", f"{fmt.seconds(report.cpu_s)} ({report.cores_used:.2f} cores)")]
    if report.gpu_synced:
        items.append(("GPU-synced", fmt.seconds(report.gpu_s)))
    memory = memory_value(report)
    if memory:
        items.append(("memory", memory))
    if report.cuda_peak_bytes is not None:
        items.append(("CUDA peak", fmt.size(report.cuda_peak_bytes)))
    return items


def memory_value(report: Report) -> str | None:
    """The cell's own memory first (its change, and how far above its start it peaked), then the
    whole process's peak, which also counts everything earlier cells left behind."""
    parts = []
    if report.rss_delta_bytes is not None:
        parts.append(f"{fmt.size(report.rss_delta_bytes, signed=True)} in the cell")
    rss = [v for v in report.samples.rss_bytes if v is not None]
    # the peak's line is worth naming when the peak is more than a few pages above the start
    peak_line = report.peak_line if (report.memory_peak_bytes or 0) >= MEMORY_ROW_BYTES else None
    at = f" at line {report.cell_line(peak_line)}" if peak_line is not None else ""
    if report.peak_rss_bytes is not None and rss and report.peak_rss_bytes > rss[0]:
        above = report.peak_rss_bytes - rss[0]
        if report.rss_delta_bytes is None or above > report.rss_delta_bytes * 1.05 + 1024**2 or at:
            parts.append(f"peak {fmt.size(above, signed=True)}{at}")
    elif at and report.memory_peak_bytes:
        parts.append(f"peak {fmt.size(report.memory_peak_bytes, signed=True)}{at}")
    if report.peak_rss_bytes is not None:
        parts.append(f"whole process {fmt.size(report.peak_rss_bytes)}")
    if not parts:
        return None
    return parts[0] + (f" ({', '.join(parts[1:])})" if len(parts) > 1 else "")


def cause_line(report: Report, min_share: float = 0.2) -> str | None:
    """Where the time went, in one sentence: the hottest line, when it holds a real share."""
    if not report.hotspots:
        return None
    h = max(report.hotspots, key=lambda x: x.share)
    if h.share < min_share:
        return None
    callee = f" (in {h.callee})" if h.callee else ""
    return f"{fmt.percent(h.share)} of the time in line {report.cell_line(h.line)}: {h.text}{callee}"


# Views list at most this much, so a hostile or machine-written cell cannot make a report huge;
# `%aiperf fix` and the Report itself keep everything.
MAX_FINDINGS = 50
MAX_DIFF_LINES = 400
MAX_COLUMNS = 100


def shown_findings(report: Report) -> list[tuple[int, Finding]]:
    """(number, finding) for every finding a view lists: numbered over ``report.findings`` as
    ``%aiperf apply N`` counts them, without the verdict, which the header already states."""
    verdict = report.verdict.code if report.verdict is not None else None
    return [(n, f) for n, f in enumerate(report.findings, 1) if f.code != verdict and f.shown][:MAX_FINDINGS]


def hidden_note(report: Report) -> str | None:
    """One line for the findings this run showed did not matter (they stay in ``report.findings``)."""
    hidden = [f for f in report.findings if not f.shown]
    if not hidden:
        return None
    codes = ", ".join(sorted({f.code for f in hidden}))
    return (
        f"{len(hidden)} finding{'s' if len(hidden) > 1 else ''} hidden ({codes}): "
        "negligible in this run, or preview rules without runtime evidence; see report.findings"
    )


def more_findings(report: Report) -> str | None:
    """What the views left out of a very long list of findings."""
    verdict = report.verdict.code if report.verdict is not None else None
    total = sum(1 for f in report.findings if f.code != verdict and f.shown)
    if total <= MAX_FINDINGS:
        return None
    return f"{total - MAX_FINDINGS} more findings not shown (the Report returned by -o or --var holds them all)"


def capped_lines(text: str, limit: int = MAX_DIFF_LINES) -> tuple[list[str], str | None]:
    """The first ``limit`` lines of a diff or a cell, and a line saying how many were left out."""
    lines = text.splitlines()
    if len(lines) <= limit:
        return lines, None
    return lines[:limit], f"… {len(lines) - limit} more lines (%aiperf fix shows them all)"


def loader_line(report: Report) -> str | None:
    """The torch profile's key result: how much of the cell waited for DataLoader batches."""
    loader = (report.torch_profile or {}).get("dataloader") or {}
    if not loader.get("batches"):
        return None
    level = loader.get("level") or "not input-bound"
    return (f"DataLoader: {100 * loader.get('share', 0):.0f} % of the cell waiting for "
            f"{loader['batches']} batches ({level})")


GPU_ABSENT = "GPU not sampled"


def split_notes(notes: list[str], *, used_cuda: bool = False) -> tuple[list[str], str | None]:
    """The notes, and the line to show outside them, if any.

    Every CPU-only machine has a GPU-absent note: it changes nothing the user should conclude, so
    it becomes one note among the others ("No GPU sampled: …"), folded with them. Only a cell that
    used CUDA (``used_cuda``) gets it as a line of its own: then GPU work went unmeasured."""
    absent = [n for n in notes if n.startswith(GPU_ABSENT)]
    kept = [n for n in notes if not n.startswith(GPU_ABSENT)]
    if not absent:
        return kept, None
    reason = absent[0].split(":", 1)[1].strip() if ":" in absent[0] else ""
    line = "No GPU sampled" + (f": {reason}" if reason else "") + "."
    return (kept, line) if used_cuda else ([*kept, line], None)


def report_notes(report: Report) -> tuple[list[str], str | None]:
    """:func:`split_notes` of a report: did its cell use CUDA (synchronised, or the allocator's peak)?"""
    return split_notes(report.notes, used_cuda=report.gpu_synced or report.cuda_peak_bytes is not None)


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
        out.append(("resident memory", f"mean {fmt.size(rss[0])}, max {fmt.size(rss[1])}"))
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


# Waiting for a CPU is worth a line only when it changes how the times read: a tenth of the wall
# time and 50 ms at least (on a 1 ms cell, scheduler noise alone gives "waits").
WAIT_SHARE, WAIT_MIN_S = 0.10, 0.050


def cpu_wait_line(report: Report) -> str | None:
    wait, wall = report.cpu_wait_s or 0.0, report.wall_s
    # summed over the cell's threads, waits can pass the wall time; the cell itself was held back at
    # most that long, so a 30 ms cell whose threads waited 60 ms in all is under the 50 ms still
    if wall <= 0 or min(wait, wall) < WAIT_MIN_S or wait < WAIT_SHARE * wall:
        return None
    if wait > wall:  # summed over the cell's threads, several of which waited at once
        return (f"the cell's threads waited {fmt.seconds(wait)} in all (several at once, in a "
                f"{fmt.seconds(wall)} cell) for a CPU held by other processes: the machine was busy")
    return (f"the cell's threads waited {fmt.seconds(wait)} ({fmt.percent(wait / wall)} of its "
            f"{fmt.seconds(wall)}) for a CPU held by other processes: the machine was busy")


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


def fix_saving(frame: FrameProfile) -> int:
    """What the frame's own dtype fix saves: the columns its ``astype`` converts (the lossless
    suggestions, or the lossy ones when there are no others), as its AIP303 finding says."""
    suggested = [c for c in frame.columns if c.suggested_dtype]
    chosen = [c for c in suggested if c.safe] or suggested
    return sum(c.saving_bytes for c in chosen)


def frame_line(frame: FrameProfile, report: Report | None = None) -> str:
    """The frame in one line; given its report, the line that assigned it and what that line took."""
    saving = fix_saving(frame)
    extra = frame.saving_bytes - saving
    text = f"{frame.name}: {frame.kind} of {frame.rows:,} rows, {fmt.size(frame.memory_bytes)}"
    if report is not None and frame.line is not None:
        m = report.memory_line(frame.line)
        text += f", assigned at line {report.cell_line(frame.line)}"
        if m is not None and m.allocated_bytes:
            text += f", which allocated {fmt.size(m.allocated_bytes)}"
    if saving:
        text += f"; smaller dtypes save {fmt.size(saving)}"
        if extra > 0:
            text += f" (lossy float32 would save {fmt.size(extra)} more)"
    return text


def visible_frames(report: Report) -> tuple[list[FrameProfile], int]:
    """Frames worth a line in a view, and how many small ones were left out (e.g. a loop's `row`)."""
    shown = [f for f in report.frames if f.memory_bytes >= SMALL_FRAME_BYTES]
    return shown, len(report.frames) - len(shown)


# The hot-lines table: the lines that took the time, then those that took memory without taking
# much time (at most MAX_MEMORY_ROWS of them, each of MEMORY_ROW_BYTES or more).
MAX_MEMORY_ROWS = 5
MEMORY_ROW_BYTES = 1024**2
NOISE_SHARE = 0.01  # a line's memory is shown when it is at least this share of the largest line's


@dataclass
class HotRow:
    line: int  # body line, as Hotspot.line and MemoryLine.line
    text: str
    hotspot: Hotspot | None
    memory: MemoryLine | None


def hot_rows(report: Report, limit: int) -> list[HotRow]:
    # a hot line's few pages beside a line that took hundreds of MB are noise, not a finding
    floor = NOISE_SHARE * max((max(m.allocated_bytes, m.cuda_allocated_bytes or 0) for m in report.memory_lines),
                              default=0)

    def memory(line: int) -> MemoryLine | None:
        m = report.memory_line(line)
        return m if m is not None and max(m.allocated_bytes, m.cuda_allocated_bytes or 0) >= floor else None

    rows = [HotRow(h.line, h.text, h, memory(h.line)) for h in report.hotspots[:limit]]
    seen = {r.line for r in rows}
    extra = [m for m in report.memory_lines
             if m.line not in seen and max(m.allocated_bytes, m.cuda_allocated_bytes or 0) >= MEMORY_ROW_BYTES]
    return rows + [HotRow(m.line, m.text, None, m) for m in extra[:MAX_MEMORY_ROWS]]


def memory_cell(m: MemoryLine | None) -> str:
    """What one line took, for the hot-lines table's memory column: "320 MB (48 MB kept)", "CUDA 1 GB"."""
    if m is None:
        return ""
    parts = []
    if m.allocated_bytes >= MEMORY_ROW_BYTES // 16:
        kept = f" ({fmt.size(m.net_bytes)} kept)" if m.net_bytes >= MEMORY_ROW_BYTES // 16 else ""
        parts.append(fmt.size(m.allocated_bytes) + kept)
    if m.cuda_allocated_bytes:
        parts.append(f"CUDA {fmt.size(m.cuda_allocated_bytes)}")
    return "; ".join(parts)


def memory_heading(report: Report) -> str | None:
    """How the memory column was counted, for its heading's tooltip or a line under the table."""
    if not report.memory_lines:
        return None
    how = {"sampled": "estimated from resident memory at each sample (%%aiperf --memory counts each allocation)",
           "memray": "each allocation, counted by memray",
           "tracemalloc": "each Python and NumPy allocation, read from tracemalloc at each sample"}
    return "memory: the most a line's allocations held at once; " + how.get(report.memory_mode or "", "measured")
