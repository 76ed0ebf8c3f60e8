"""One measured cell: start the clocks and the sampler, stop them, assemble the Report.

The cell's code itself is run by the caller (IPython, through its normal cell execution), between
``start()`` and ``finish()``; this module never imports IPython.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from types import CodeType, TracebackType
from typing import Any

from ..report import ErrorInfo, Report
from . import hotspots as _hotspots
from . import sampler_thread
from .cellcpu import fill_cpu_profile
from .hotspots import LineSampler
from .memory_lines import MemoryRun
from .probes.base import Probe
from .probes.cuda import CudaClock
from .probes.host import children_cpu_s
from .sampler import Sampler
from .sampler_thread import SamplerThread
from .stages import Stage, budget_for, default_stages, run_after


@dataclass
class RunOptions:
    """What ``%%aiperf`` was asked to do (mirrors the magic's options)."""

    interval: float = 20.0  # milliseconds
    hotspots: bool = True
    gpu: bool = True
    torch_profile: bool = False
    text: bool = False
    budget: float | None = None  # seconds for the work after the cell; None: see stages.budget_for
    memory: bool = False  # count every allocation per line (memray, else tracemalloc), not only samples


class CellRun:
    def __init__(self, source: str, *, user_ns: dict[str, Any] | None = None,
                 options: RunOptions | None = None, cell_id: str | None = None,
                 execution_count: int | None = None, root_code: CodeType | None = None,
                 line_offset: int = 1, thread_id: int | None = None,
                 probes: list[Probe] | None = None, stages: list[Stage] | None = None,
                 clock: Callable[[], float] = time.perf_counter,
                 cpu_clock: Callable[[], float] = time.process_time,
                 cuda: CudaClock | None = None,
                 children_cpu: Callable[[], float | None] | None = None,
                 cell_files: dict[str, int] | None = None, memory: MemoryRun | None = None,
                 ticker: SamplerThread | None = None) -> None:
        self.source = source
        self.user_ns = user_ns if user_ns is not None else {}
        self.options = options or RunOptions()
        self.cell_id = cell_id
        self.execution_count = execution_count
        self.magic_line = "%%aiperf"
        self._line_offset = line_offset
        self._root_code = root_code
        self.notes: list[str] = []
        self.state: dict[str, Any] = {}  # scratch space for stages (snapshots taken in before())
        self._clock = clock
        self._cpu_clock = cpu_clock
        # CPU of worker processes counts with the process's own clock; a fake clock has no children
        self._children_cpu = children_cpu or (children_cpu_s if cpu_clock is time.process_time else _no_children)
        self._cuda = cuda if cuda is not None else CudaClock()
        self._stages = stages if stages is not None else default_stages()
        lines = None
        self._thread = thread_id if thread_id is not None else threading.get_ident()
        self._thread_native = _native_id(self._thread)
        if self.options.hotspots:
            # cell_files: the shell's compiled cell files and their numbers, to say "cell [3]"
            lines = LineSampler(self._thread, root_code, line_offset=line_offset,
                                all_threads=_hotspots.SAMPLE_ALL_THREADS, cell_files=cell_files)
        # memory per line: the sampler's counters, and with --memory an engine counting each allocation
        self.memory = memory if memory is not None else MemoryRun(
            precise=self.options.memory, hotspots=self.options.hotspots, gpu=self.options.gpu)
        self.sampler = Sampler(probes if probes is not None else default_probes(self.options),
                               interval_s=self.options.interval / 1000.0, clock=clock, lines=lines,
                               memory=self.memory.sampling,
                               ticker=ticker if ticker is not None else sampler_thread.shared())
        self._t0 = self._c0 = 0.0
        self._started_at = 0.0
        self._rss0: int | None = None
        self._children0: float | None = None
        self._peak_reset = False
        self.finished = False
        self.own_cpu_s: float | None = None  # this process's CPU over the cell, without its children
        self.deadline: float | None = None  # when the stages after the cell should be done (clock time)

    def start(self) -> None:
        for stage in self._stages:
            try:
                stage.before(self)
            except Exception as exc:
                self.notes.append(f"{getattr(stage, 'name', type(stage).__name__)}: {type(exc).__name__}: {exc}")
        self._rss0 = _rss_bytes()
        self._children0 = self._children_cpu()
        self._peak_reset = _reset_peak_rss()
        if self.options.gpu:
            self._cuda.start()
        memory_first = self.memory.starts_first
        if memory_first:
            self.memory.start()
        self.sampler.start()
        if not memory_first:
            self.memory.start()  # memray's tracker: after aiperf's own starting
        self._started_at = time.time()
        self._c0 = self._cpu_clock()
        self._t0 = self._clock()

    def cancel(self) -> None:
        """Stop sampling without a report (the extension is being unloaded mid-run)."""
        if not self.finished:
            self.finished = True
            self.sampler.stop()
            self.memory.stop()

    def finish(self, error: BaseException | None = None) -> Report:
        synced = self._cuda.synchronize() if self.options.gpu else False
        t1, c1 = self._clock(), self._cpu_clock()
        self.finished = True
        if not self.memory.starts_first:
            self.memory.stop_engine()  # memray's tracker: before aiperf's own stopping
        samples = self.sampler.stop()
        self.memory.stop()
        if self.sampler.memory is None:  # it failed during the cell: a note says so, nothing is attributed
            self.memory.sampling = None
        wall = t1 - self._t0
        self.own_cpu_s = max(0.0, c1 - self._c0)
        children = self._children_cpu() if self._children0 is not None else None
        report = Report(
            source=self.source, cell_id=self.cell_id, execution_count=self.execution_count,
            started_at=self._started_at, wall_s=wall,
            # worker processes the cell ran (a process pool, a subprocess) are its own CPU too
            cpu_s=max(0.0, c1 - self._c0) + max(0.0, (children or 0.0) - (self._children0 or 0.0)),
            gpu_synced=synced, gpu_s=wall if synced else None,
            interval_ms=self.options.interval, samples=samples, magic_line=self.magic_line,
        )
        rss1 = _rss_bytes()
        if rss1 is not None and self._rss0 is not None:
            report.rss_delta_bytes = rss1 - self._rss0
        report.peak_rss_bytes = self._peak_rss(samples.rss_bytes, rss1)
        if self.options.gpu:
            report.cuda_peak_bytes = self._cuda.peak_bytes()
        lines = self.sampler.lines
        if lines is not None:
            report.hotspots = lines.hotspots(wall, self.source.splitlines())
            report.function_lines = lines.function_lines(wall)
        self.memory.fill(report, lines.filename if lines is not None else None, self._line_offset)
        fill_cpu_profile(report, self.sampler.probes, lines, (self._thread, self._thread_native),
                         self.own_cpu_s, self.sampler.own_cpu_s)
        for probe in self.sampler.probes:
            report.gpus.extend(getattr(probe, "info", []))
        if error is not None:
            cell_file = lines.filename if lines else None
            report.error = _error_info(error, cell_file, self._root_code, self._line_offset)
        report.notes.extend(self.notes)
        report.notes.extend(self.sampler.notes)
        report.notes.extend(self._cuda.notes)
        self.deadline = self._clock() + budget_for(wall, self.options.budget)
        run_after(self._stages, self, report)
        return report

    @property
    def clock(self) -> Callable[[], float]:
        """The run's clock (stages measure their budget with it)."""
        return self._clock

    def _peak_rss(self, sampled: list[int | None], final: int | None) -> int | None:
        values = [v for v in sampled if v is not None]
        if final is not None:
            values.append(final)
        if self._peak_reset:
            hwm = self.memory.resident_peak()  # getrusage, where it agreed with VmHWM this cell
            if hwm is None:
                hwm = _read_status_kib("VmHWM")
            if hwm is not None:
                values.append(hwm)
        return max(values) if values else None


def default_probes(options: RunOptions) -> list[Probe]:
    from .probes.host import HostProbe
    from .probes.threads import ThreadProbe

    probes: list[Probe] = [HostProbe(), ThreadProbe()]
    if options.gpu:
        from .probes.gpu import GpuProbe

        probes.append(GpuProbe())
    return probes


def _native_id(ident: int) -> int | None:
    if ident == threading.get_ident():
        return threading.get_native_id()
    thread = next((t for t in threading.enumerate() if t.ident == ident), None)
    return getattr(thread, "native_id", None)


def _no_children() -> float | None:
    return None


def _rss_bytes() -> int | None:
    """The process's resident memory: Linux's /proc/self/statm (about 10 µs), else psutil (whose
    Process() costs about ten times that)."""
    try:
        with open("/proc/self/statm", "rb") as fh:
            return int(fh.read().split()[1]) * _PAGE
    except (OSError, ValueError, IndexError):
        pass
    try:
        import psutil

        return int(psutil.Process().memory_info().rss)
    except Exception:
        return None


_PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096


def _reset_peak_rss() -> bool:
    """Linux keeps the process's peak RSS (VmHWM); writing 5 to clear_refs restarts it for this cell."""
    try:
        with open("/proc/self/clear_refs", "w") as fh:
            fh.write("5")
        return True
    except OSError:
        return False


def _read_status_kib(key: str) -> int | None:
    try:
        with open("/proc/self/status") as fh:
            for line in fh:
                if line.startswith(key + ":"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        return None
    return None


def _error_info(error: BaseException, cell_file: str | None, root_code: CodeType | None,
                line_offset: int) -> ErrorInfo:
    """Type, message and the innermost cell line the exception passed through."""
    line = None
    parent: CodeType | None = None
    tb: TracebackType | None = error.__traceback__
    while tb is not None:
        code = tb.tb_frame.f_code
        if cell_file is None and parent is root_code and code.co_name == "<module>":
            cell_file = code.co_filename  # the cell ran too briefly to be sampled: learn its file here
        if cell_file is not None and code.co_filename == cell_file:
            line = tb.tb_lineno - line_offset
        parent = code
        tb = tb.tb_next
    return ErrorInfo(type=type(error).__name__, message=str(error), line=line if line and line > 0 else None)

