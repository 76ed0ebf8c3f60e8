"""The Report: plain data shared by every layer of aiperf.

Measurers fill it, renderers read it, scripts keep it as JSON. Nothing here imports another part
of aiperf, IPython, widgets, pandas or torch: how a Report displays is registered by the extension
when it loads. Field names are a public contract: add, never rename.
"""

from __future__ import annotations

import dataclasses
import json
import types
import typing
from dataclasses import dataclass, field
from typing import Any, TypeVar

SCHEMA_VERSION = 1

T = TypeVar("T")


@dataclass
class Fix:
    """A proposed rewrite of a cell, as a whole new source plus its unified diff."""

    title: str
    safety: str = "safe"  # "safe": same results by construction; "unsafe": needs consent
    source: str = ""  # the complete rewritten cell
    diff: str = ""
    reason: str | None = None  # why no rewrite could be offered, when source is empty
    # "Measure first": why the rewrite's gain depends on the data's size or the work per item (a list
    # turned into an array, threads into processes, a compiled model), or None when it pays at any
    # size. Such a fix is never applied by default: ``lint --fix`` needs ``--unsafe-fixes``, the panel
    # enables Apply only after Try measured it equal and faster, ``%%aiperf`` proposes it only when
    # the run's own sizes and times say it pays.
    measure_first: str | None = None
    # What ``%%aiperf``'s run said about a measure-first fix here ("proposed: the loop walked
    # 1,000,000 items ..."); None outside ``%%aiperf`` or for other fixes.
    evidence_note: str | None = None
    # A rewrite of a function an earlier cell defined (the measured cell only calls it): ``cell`` names
    # that cell ("cell [3]", as IPython numbers it), ``cell_source`` is that cell rewritten in full
    # (what to run there instead; ``diff`` is its diff), ``rebind`` the rewritten definitions alone,
    # which Try runs before the measured cell so that the cell calls them. ``source`` is then the
    # measured cell as it is. None / "" for a rewrite of the measured cell itself.
    cell: str | None = None
    cell_source: str = ""
    rebind: str = ""
    cell_ran: str = ""  # that cell's text as it ran: Apply replaces the cell above that still holds it


@dataclass
class Finding:
    """One trap found in the code (AIP1xx-5xx) or one runtime verdict (AIP9xx).

    Positions are 1-based and relative to the cell body (the line after ``%%aiperf``).
    """

    code: str
    message: str
    line: int | None = None
    name: str = ""
    col: int | None = None
    end_line: int | None = None
    end_col: int | None = None
    fix: Fix | None = None
    fixable: bool = False
    severity: str = "warning"  # "warning" or "info"
    # What the run measured about the finding (``%%aiperf`` only): its lines' share of the sampled
    # time ("share", "seconds"), the sizes of the data it touched ("rows", "items", "elements"), and
    # "verdict": the code of the verdict that measured it when its own lines looked cheap.
    evidence: dict[str, Any] = field(default_factory=dict)
    shown: bool = True  # False: kept in the report, not displayed (hidden_reason says why)
    hidden_reason: str | None = None
    preview: bool = False  # reported by a preview rule (see ``aiperf rules``)


@dataclass
class Hotspot:
    """Sampled time attributed to one line of the cell body."""

    line: int
    seconds: float
    share: float
    callee: str | None = None  # the function the line spent most time in, outside the cell
    samples: int = 0
    text: str = ""  # the line's source, stripped
    # What the run saw on the line (``%%aiperf``, all threads): how many threads were sampled there,
    # the callees by samples, and what the names on the line held ("ndarray of 1,000,000 float64")
    # with their sizes (rows, items, elements); ``function`` and ``where`` when the line belongs to a
    # function defined elsewhere (an earlier cell, the user's module), its line then counted in there.
    threads: int = 1
    callees: dict[str, int] = field(default_factory=dict)
    locals: dict[str, str] = field(default_factory=dict)
    sizes: dict[str, int] = field(default_factory=dict)
    function: str | None = None
    where: str | None = None
    # Of ``seconds``, the time the line itself was the innermost user line (not inside another user
    # function it called); the user functions it called (``via``), by samples; the types and units of
    # ``sizes`` ("numpy.ndarray", "elements"); what the line's bytecode does ("subscript", "/", "in",
    # "call", ".iloc"); the innermost ``for`` loop holding it (its header line, in the same numbering
    # as ``line``), how many iterations that loop makes, measured from the live objects it walks, and
    # how that was measured ("range(len(values)): 1,000,000 iterations, the length of values (...)").
    own_seconds: float = 0.0
    via: dict[str, int] = field(default_factory=dict)
    types: dict[str, str] = field(default_factory=dict)
    units: dict[str, str] = field(default_factory=dict)
    ops: list[str] = field(default_factory=list)
    loop_line: int | None = None
    loop_count: int | None = None
    loop: str | None = None
    file: str | None = None  # a function line's compiled file name (a cell's, or the module's path)


@dataclass
class MemoryLine:
    """Memory one line of the cell body took while the cell ran (docs/runtime.md, "Memory per line").

    ``allocated_bytes``: allocated while the line ran, including the functions it called, counted as
    the most of it held at once (a temporary made and freed on every pass of a loop counts once); ``net_bytes``:
    of that, still held when the cell ended; ``peak_bytes``: of that, held when the cell's memory
    peaked. How they are counted is ``Report.memory_mode``'s: by default the rises of the process's
    resident memory between two samples (its high-water mark included), with ``--memory`` each
    allocation (``allocations`` of them). The ``cuda_`` fields: the same for torch's CUDA allocator,
    read at each sample, when the cell used CUDA.
    """

    line: int
    allocated_bytes: int = 0
    net_bytes: int = 0
    peak_bytes: int = 0
    allocations: int | None = None
    text: str = ""  # the line's source, stripped
    cuda_allocated_bytes: int | None = None
    cuda_net_bytes: int | None = None


@dataclass
class ThreadTime:
    """One thread of the process over the cell (``%%aiperf``): its CPU and what it did."""

    name: str
    cpu_s: float = 0.0  # CPU time it used while the cell ran
    wait_s: float | None = None  # time it was ready to run but waited for a CPU (Linux)
    user_samples: int = 0  # samples that found it on user code
    cell: bool = False  # it ran the cell's work (its thread, or user code for it)
    started: bool = False  # started while the cell ran


@dataclass
class GpuInfo:
    index: int
    name: str = ""
    memory_total_bytes: int | None = None
    process_memory_scope: str = "process"  # "process" or "device-wide" (container hides PIDs)


@dataclass
class GpuSeries:
    """Columnar samples of one GPU; each list is parallel to ``Samples.t``."""

    index: int
    util_percent: list[float | None] = field(default_factory=list)
    mem_used_bytes: list[int | None] = field(default_factory=list)
    mem_total_bytes: list[int | None] = field(default_factory=list)
    pcie_rx_bytes_s: list[float | None] = field(default_factory=list)
    pcie_tx_bytes_s: list[float | None] = field(default_factory=list)
    process_mem_bytes: list[int | None] = field(default_factory=list)
    power_w: list[float | None] = field(default_factory=list)


@dataclass
class Samples:
    """Columnar time series of the cell's run. ``t`` is seconds since the cell started."""

    interval_s: float = 0.02
    t: list[float] = field(default_factory=list)
    cpu_percent: list[float | None] = field(default_factory=list)  # process, 100 = one core
    cpu_per_core: list[list[float] | None] = field(default_factory=list)
    rss_bytes: list[int | None] = field(default_factory=list)
    mem_available_bytes: list[int | None] = field(default_factory=list)
    swap_used_bytes: list[int | None] = field(default_factory=list)
    read_bytes: list[int | None] = field(default_factory=list)
    write_bytes: list[int | None] = field(default_factory=list)
    busy_threads: list[int | None] = field(default_factory=list)  # Python threads on a CPU
    gpus: list[GpuSeries] = field(default_factory=list)
    downsampled: int = 1  # every kept sample stands for this many ticks

    def __len__(self) -> int:
        return len(self.t)


@dataclass
class Verdict:
    """The bottleneck, in one sentence, with the numbers that support it."""

    code: str
    title: str
    sentence: str
    evidence: dict[str, float] = field(default_factory=dict)
    related: list[str] = field(default_factory=list)  # static finding codes that explain it
    advice: str = ""


@dataclass
class ColumnProfile:
    name: str
    dtype: str
    memory_bytes: int
    suggested_dtype: str | None = None
    reason: str = ""
    saving_bytes: int = 0
    safe: bool = True
    measured_on: str = "full"  # "full" or "sample of N rows"


@dataclass
class FrameProfile:
    name: str
    kind: str = "DataFrame"  # or "Series"
    rows: int = 0
    memory_bytes: int = 0
    columns: list[ColumnProfile] = field(default_factory=list)
    saving_bytes: int = 0
    fix_source: str | None = None  # an ``astype`` statement applying the safe suggestions
    notes: list[str] = field(default_factory=list)
    line: int | None = None  # the cell-body line that last assigned the frame's name, when one did


@dataclass
class ErrorInfo:
    type: str
    message: str
    line: int | None = None  # cell-body line the exception came from, when known


@dataclass
class Comparison:
    """A before/after run of a rewrite on copies of the user's data."""

    equal: bool
    speedup: float | None = None
    memory_ratio: float | None = None
    difference: str | None = None
    before_s: float | None = None
    after_s: float | None = None
    before_p50_s: float | None = None
    before_p95_s: float | None = None
    after_p50_s: float | None = None
    after_p95_s: float | None = None
    before_peak_bytes: int | None = None
    after_peak_bytes: int | None = None
    repeat: int = 0
    error: str | None = None  # traceback text when the rewrite (or the original) raised
    timed_out: bool = False
    notes: list[str] = field(default_factory=list)
    refused: str | None = None  # why the sandbox could not be built (missing or uncopyable inputs)
    compared: list[str] = field(default_factory=list)  # the names whose values were compared
    finding_code: str | None = None  # the rule whose fix was tried, when known
    title: str = ""  # the fix's title, when known
    isolation: str = "process"  # where the trials ran: "process" (forked copies) or "in-process"
    blocked: str | None = None  # the external side effect a trial refused, and its line
    runs: int = 0  # times each version ran
    # what the operating system enforced in the trials ("seccomp", "landlock", "descriptors"), and what
    # it could not cover here, in words (empty when everything was)
    sandbox: list[str] = field(default_factory=list)
    uncovered: list[str] = field(default_factory=list)
    not_compared: list[str] = field(default_factory=list)  # observables left out, each with why
    # the speedup's interval from the interleaved runs; ``faster`` is True only when it excludes 1.0
    speedup_low: float | None = None
    speedup_high: float | None = None
    faster: bool | None = None

    @property
    def better(self) -> bool:
        """True only when the results are equal and the rewrite ran faster beyond the runs' noise."""
        if self.faster is not None:
            return bool(self.equal and not self.error and self.faster)
        return bool(self.equal and not self.error and self.speedup and self.speedup > 1.0)

    def to_dict(self) -> dict[str, Any]:
        return to_dict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Comparison:
        return from_dict(cls, data)



@dataclass
class WorkerHotspot:
    """A function the cluster's workers spent their time in (the task's name: ``heavy``, ``inc``)."""

    function: str
    seconds: float
    share: float  # of all task seconds in the cell


@dataclass
class ClusterInfo:
    """What a Dask or Ray cluster did while the cell ran, summarised from its task stream.

    The names are a public contract. ``worker_busy`` is each worker's share of its threads' time
    spent computing over the span the cluster worked; ``busy_bins`` the same per time bin of
    ``bin_s`` seconds from ``start_s`` (seconds after the cell started), for the timeline.
    """

    engine: str  # "dask" or "ray"
    workers: int = 0
    threads: int = 0
    tasks: int = 0
    task_seconds: float = 0.0
    median_task_ms: float | None = None
    transfer_bytes: int | None = None  # None: the engine does not say
    spilled_bytes: int | None = None
    worker_busy: dict[str, float] = field(default_factory=dict)
    worker_hotspots: list[WorkerHotspot] = field(default_factory=list)
    driver_wait_s: float | None = None  # cell time the driver spent off-CPU while the cluster worked
    dashboard: str | None = None
    span_s: float = 0.0  # from the first task's start to the last task's end, within the cell
    transfer_s: float = 0.0  # seconds workers spent receiving task inputs from other workers
    spill_s: float = 0.0  # seconds workers spent writing to and reading from disk
    start_s: float = 0.0
    bin_s: float = 0.0
    busy_bins: dict[str, list[float]] = field(default_factory=dict)  # worker -> busy share per bin
    worker_threads: dict[str, int] = field(default_factory=dict)
    per_task_ms: float | None = None  # cluster slot time per task: span x threads / tasks
    notes: list[str] = field(default_factory=list)


@dataclass
class Report:
    """Everything aiperf learned about one cell run."""

    source: str  # the cell body, without the magic line
    cell_id: str | None = None
    magic_line: str = "%%aiperf"  # the cell's first line as the user wrote it (kept by Apply)
    execution_count: int | None = None
    started_at: float = 0.0  # Unix time
    wall_s: float = 0.0
    cpu_s: float = 0.0
    gpu_synced: bool = False
    gpu_s: float | None = None  # wall time measured after a device synchronise
    peak_rss_bytes: int | None = None
    rss_delta_bytes: int | None = None
    cuda_peak_bytes: int | None = None
    interval_ms: float = 20.0
    samples: Samples = field(default_factory=Samples)
    hotspots: list[Hotspot] = field(default_factory=list)
    # lines of functions the cell called that were defined elsewhere (earlier cells, the user's own
    # modules), with the time every thread spent on them: the cell's call line gets the same time
    function_lines: list[Hotspot] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    verdict: Verdict | None = None
    frames: list[FrameProfile] = field(default_factory=list)
    gpus: list[GpuInfo] = field(default_factory=list)
    error: ErrorInfo | None = None
    notes: list[str] = field(default_factory=list)
    torch_profile: dict[str, Any] | None = None
    # seconds the cell's threads were ready to run but waited for a CPU held by other processes
    cpu_wait_s: float | None = None
    cluster: ClusterInfo | None = None  # what a Dask or Ray cluster did for the cell, when one was in use
    # The cell's own CPU profile (docs/runtime.md, "The cell's CPU and the machine's"): every thread of
    # the process with its CPU and its wait for a CPU; of those, the threads that ran the cell's work
    # (``cell_cpu_s``, ``cell_cpu_wait_s``); and the whole machine over the same time (all processes,
    # ``machine_cpu_s`` on ``machine_cores`` logical CPUs), of which ``other_cpu_s`` was not this
    # process or its children: 0.4 core of the cell's on a busy machine is not "CPU-bound".
    thread_times: list[ThreadTime] = field(default_factory=list)
    cell_cpu_s: float | None = None
    cell_cpu_wait_s: float | None = None
    machine_cpu_s: float | None = None
    machine_cores: int | None = None
    other_cpu_s: float | None = None
    # CPU seconds, every core together, that a hypervisor gave other machines over the cell while this
    # one's CPUs had work (Linux's ``steal``): the cell's threads were ready then and no clock of theirs
    # counts it. 0 on a machine of its own; None where not read.
    steal_s: float | None = None
    # Memory per line (docs/runtime.md, "Memory per line"): the lines that allocated memory, most
    # first; the line that was running when the cell's memory peaked (numbered as ``line`` fields)
    # and how far above its start that peak was, counted the ``memory_mode`` way: "sampled" (the
    # default: resident memory and its high-water mark at each sample), "memray" or "tracemalloc"
    # (``--memory``: every allocation). None and empty when not measured, with a note saying why.
    # ``cuda_peak_line``: where torch's CUDA allocator peaked, when the cell used CUDA.
    memory_lines: list[MemoryLine] = field(default_factory=list)
    peak_line: int | None = None
    memory_peak_bytes: int | None = None
    memory_mode: str | None = None
    cuda_peak_line: int | None = None
    schema: int = SCHEMA_VERSION

    @property
    def cores_used(self) -> float:
        """Average number of CPU cores the process kept busy."""
        return self.cpu_s / self.wall_s if self.wall_s > 0 else 0.0

    def cell_line(self, body_line: int) -> int:
        """The line number the user sees in the notebook cell (the magic line is line 1)."""
        return body_line + 1 if self.magic_line else body_line

    def finding(self, code: str) -> Finding | None:
        return next((f for f in self.findings if f.code == code), None)

    def memory_line(self, body_line: int | None) -> MemoryLine | None:
        """What ``memory_lines`` says of one body line (None when it allocated nothing counted)."""
        return next((m for m in self.memory_lines if m.line == body_line), None) if body_line else None

    def to_dict(self) -> dict[str, Any]:
        return to_dict(self)

    def to_json(self, **kwargs: Any) -> str:
        return json.dumps(self.to_dict(), **kwargs)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Report:
        return from_dict(cls, data)

    @classmethod
    def from_json(cls, text: str) -> Report:
        return cls.from_dict(json.loads(text))

    def __repr__(self) -> str:
        # shells with the extension loaded show the full text or HTML view (registered at load time)
        verdict = f", verdict {self.verdict.code}" if self.verdict else ""
        return f"Report(wall {self.wall_s:.3g} s, {len(self.findings)} findings{verdict})"


def to_dict(obj: Any) -> Any:
    """Plain JSON-ready data for any dataclass tree of this module."""
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        return {f.name: to_dict(getattr(obj, f.name)) for f in dataclasses.fields(obj)}
    if isinstance(obj, (list, tuple)):
        return [to_dict(v) for v in obj]
    if isinstance(obj, dict):
        return {str(k): to_dict(v) for k, v in obj.items()}
    return obj


def from_dict(cls: type[T], data: dict[str, Any]) -> T:
    """Rebuild a dataclass from ``to_dict`` output; unknown keys (newer writers) are ignored."""
    hints = typing.get_type_hints(cls)
    kwargs = {}
    for f in dataclasses.fields(cls):  # type: ignore[arg-type]
        if f.name in data:
            kwargs[f.name] = _convert(hints[f.name], data[f.name])
    return cls(**kwargs)


def _convert(hint: Any, value: Any) -> Any:
    if value is None:
        return None
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        for arg in typing.get_args(hint):
            if arg is not type(None):
                return _convert(arg, value)
    if origin is list:
        (arg,) = typing.get_args(hint) or (Any,)
        return [_convert(arg, v) for v in value]
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        return from_dict(hint, value)
    return value
