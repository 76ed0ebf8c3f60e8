"""The bottleneck verdict (AIP9xx): one sentence, with the numbers behind it.

``compute_verdict(report)`` reads the sampled timeline of one cell and names its slowest part, the
way the seed's bottleneck table does by eye (CPU full while the GPU idles; swapping; data loading
slower than compute), and links the static findings that explain it. Rules are tried in priority
order; the first that holds is the verdict, the others that also hold are kept as extra findings.
Every threshold is a field of ``Thresholds`` and is documented in ``docs/runtime.md``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..report import Finding, Report, Verdict
from .advice import cpu_advice, memory_where, wait_advice, waited_share
from .checks import (
    DEFAULT,
    Thresholds,
    cpu_bound,
    gil_bound,
    gpu_bound,
    gpu_memory,
    gpu_starved,
    host_memory,
    machine_busy,
    waiting,
)
from .cluster import cluster_verdicts
from .stats import busy_cell_threads, summarise

STARVED_MIN_WALL_S = 0.1
CLOCKED_MIN_WALL_S = 0.2  # a cell this long whose threads' CPU clocks were read needs one tick

if TYPE_CHECKING:
    from ..measure.run import CellRun

# verdict code -> static finding codes (AIP1xx-5xx, and AIP303 from the frame profiler) that explain it
RELATED: dict[str, tuple[str, ...]] = {
    "AIP901": ("AIP101", "AIP102", "AIP103", "AIP104", "AIP501", "AIP505"),
    "AIP902": ("AIP401", "AIP201", "AIP301", "AIP302"),
    "AIP903": ("AIP402", "AIP104", "AIP304"),
    "AIP904": ("AIP303", "AIP103", "AIP104", "AIP203", "AIP304"),
    "AIP905": ("AIP502", "AIP504"),
    "AIP906": ("AIP504", "AIP506", "AIP502"),
    "AIP907": ("AIP201", "AIP202", "AIP203", "AIP301", "AIP302"),
    "AIP908": ("AIP203", "AIP303"),
    "AIP910": ("AIP602",),
    "AIP911": ("AIP601", "AIP602"),
    "AIP912": (),
    "AIP913": ("AIP303",),
    "AIP914": (),
}
# driver-side verdicts that a cluster verdict replaces: a driver waiting on its cluster is neither
# waiting on I/O nor CPU-bound itself
SUPERSEDED_BY_CLUSTER = frozenset({"AIP903", "AIP907", "AIP908"})

SLUGS = {
    "AIP901": "gpu-starved",
    "AIP902": "gil-bound",
    "AIP903": "waiting",
    "AIP904": "host-memory-pressure",
    "AIP905": "gpu-memory-pressure",
    "AIP906": "gpu-bound",
    "AIP907": "cpu-bound-one-core",
    "AIP908": "cpu-bound-many-cores",
    "AIP910": "cluster-bound",
    "AIP911": "too-many-small-tasks",
    "AIP912": "unbalanced-workers",
    "AIP913": "cluster-spilling",
    "AIP914": "transfer-bound",
}


@dataclass
class Diagnosis:
    verdicts: list[Verdict] = field(default_factory=list)  # primary first
    note: str | None = None  # why there is no verdict, when there is none


def diagnose(report: Report, thresholds: Thresholds = DEFAULT, mem_total_bytes: float | None = None) -> Diagnosis:
    """All verdicts that hold for the report, primary first; or a note saying why there is none.

    ``mem_total_bytes`` is the machine's RAM (read with psutil when not given).
    """
    th = thresholds
    n = len(report.samples)
    cluster = cluster_verdicts(report, th)
    # code that holds the GIL (threads of pure Python, long stretches of C) starves the sampler of
    # ticks; the CPU clocks of the cell's threads are exact all the same
    starved = busy_cell_threads(report) >= 2 and report.wall_s >= STARVED_MIN_WALL_S
    clocked = report.cell_cpu_s is not None and report.wall_s >= CLOCKED_MIN_WALL_S
    if n < 1 or (n < 2 and not clocked) or (n < th.min_samples and report.wall_s < th.min_wall_s
                                             and not (starved or clocked)):
        if cluster:  # the cluster's task stream is the evidence: the driver's samples are not needed
            return Diagnosis(_relate(cluster, {f.code for f in report.findings}))
        return Diagnosis(
            note=f"No bottleneck verdict: the cell ran {report.wall_s:.3f} s, "
            f"{n} samples (a verdict needs {th.min_samples}, or {th.min_wall_s:g} s)."
        )
    if mem_total_bytes is None:
        mem_total_bytes = _ram_total()
    st = summarise(report, th.gpu_busy_util)
    codes = {f.code for f in report.findings}
    rules: list[Callable[[], Verdict | None]] = [
        lambda: host_memory(st, th, mem_total_bytes, memory_where(report)),
        lambda: gpu_starved(st, th),
        lambda: gpu_bound(st, th, codes),
        lambda: gpu_memory(st, th),
        lambda: gil_bound(st, th, waited_share(report)),
        lambda: waiting(st, th, wait_advice(report)),
    ]
    verdicts = [v for v in (rule() for rule in rules) if v is not None]
    if not verdicts and not cluster:
        # informational: only when nothing above explains the time; advice from what the hot lines did
        cpu = cpu_bound(st, th, lambda cores: cpu_advice(report, cores))
        verdicts = [cpu] if cpu else []
        busy = machine_busy(st, th) if cpu is None else None
        if busy:
            return Diagnosis(note=busy)
    if cluster:
        verdicts = cluster + [v for v in verdicts if v.code not in SUPERSEDED_BY_CLUSTER]
    for v in verdicts:
        v.evidence.setdefault("samples", float(st.samples))
    _relate(verdicts, codes)
    if not verdicts:
        return Diagnosis(
            note=f"No single bottleneck: the CPU worked {100 * st.cores_used:.0f} % of the wall time"
            + (", no GPU was busy" if st.gpu is not None else "")
            + " and memory was not under pressure."
        )
    return Diagnosis(verdicts)


def _relate(verdicts: list[Verdict], codes: set[str]) -> list[Verdict]:
    """Link each verdict to the static findings of the cell that explain it."""
    for v in verdicts:
        v.related = [c for c in RELATED.get(v.code, ()) if c in codes]
        if v.related:
            v.sentence += f" See {', '.join(v.related)}."
    return verdicts


def compute_verdict(
    report: Report, thresholds: Thresholds = DEFAULT, mem_total_bytes: float | None = None
) -> Verdict | None:
    """The primary bottleneck of one cell, or None when the run was too short or nothing stands out."""
    verdicts = diagnose(report, thresholds, mem_total_bytes).verdicts
    return verdicts[0] if verdicts else None


def _cpu_wait(run: CellRun | None) -> float | None:
    """Run-queue wait measured by the ThreadProbe over the cell, when it ran."""
    sampler = getattr(run, "sampler", None)
    for probe in getattr(sampler, "probes", ()):
        wait = getattr(probe, "cpu_wait_s", None)
        if wait is not None:
            return float(wait)
    return None


def _ram_total() -> float | None:
    try:
        import psutil
    except ImportError:
        return None
    return float(psutil.virtual_memory().total)


class VerdictStage:
    """Runs last: sets ``report.verdict`` and adds each verdict that holds as an info finding."""

    name = "verdict"

    def __init__(self, thresholds: Thresholds = DEFAULT) -> None:
        self.thresholds = thresholds

    def before(self, run: CellRun) -> None:
        return None

    def after(self, run: CellRun, report: Report) -> None:
        if report.cpu_wait_s is None:
            report.cpu_wait_s = _cpu_wait(run)
        result = diagnose(report, self.thresholds)
        if result.note:
            report.notes.append(result.note)
        if not result.verdicts:
            return
        report.verdict = result.verdicts[0]
        for v in result.verdicts:
            _show_related(report, v)
            report.findings.append(
                Finding(code=v.code, message=v.sentence, name=SLUGS.get(v.code, ""), severity="info")
            )


# codes whose flagged line makes something that costs where it is used (a DataLoader(...), a
# Dataset class, a Thread(...)): their own line looks cheap whatever they cost
COST_ELSEWHERE = frozenset({"AIP101", "AIP103", "AIP401"})


def _show_related(report: Report, verdict: Verdict) -> None:
    """A finding the verdict names ("See AIP401") is shown even when its own line looked cheap, for
    the codes whose line only makes what costs elsewhere (threads and workers spend the time while
    the cell's line waits, and the verdict measured it); never one the run judged too small to matter
    (``evidence["judged"]``), nor a loop whose own lines were cold."""
    for finding in report.findings:
        if (finding.code in verdict.related and not finding.shown and finding.code in COST_ELSEWHERE
                and not finding.evidence.get("judged")):
            finding.shown = True
            finding.hidden_reason = None
            finding.evidence["verdict"] = verdict.code

