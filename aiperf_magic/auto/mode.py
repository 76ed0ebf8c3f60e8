"""Auto mode's hooks: a light measurement of every cell, kept in a bounded history.

``%aiperf auto on`` registers a ``pre_run_cell`` / ``post_run_cell`` pair on the shell. Each cell
then runs under a light :class:`~aiperf_magic.measure.run.CellRun` (one sample every 100 ms, no hot lines,
no stages, no CUDA synchronise, so a cell that queues GPU work returns as early as it always did)
and its source goes through the static scan. The probes are started once, when auto mode starts,
not once per cell: NVML's initialisation alone costs more than a small cell. Cells that ``%%aiperf``
measures are left to it (no double sampling) and their full Reports join the history instead.
"""

from __future__ import annotations

import contextlib
import os
import re
import threading
import time
from collections.abc import Callable
from typing import Any

from ..cell.source import split_magic_cell
from ..measure.run import CellRun, RunOptions
from ..units import seconds
from .history import CellRecord, CellTable, History, rank
from .scan import StaticScan
from .ticker import TickedSampler, Ticker

DEFAULT_THRESHOLD_S = 1.0
INTERVAL_MS = 100.0
_AIPERF_LINE = re.compile(r"%aiperf(\s|$)")
_NO_RESULT: Any = object()  # shells older than IPython 7 call post_run_cell without a result


class KeptProbe:
    """A probe opened once for the whole auto session; each cell's sampler only reads it.

    ``ticker_only`` probes are read by the ticker thread alone, never by the closing reading that
    the sampler takes on the cell's own thread: an NVML read can take milliseconds (its PCIe counter
    measures over ~20 ms), which a small cell must not pay, and the host counters add nothing to
    what the record keeps of a short cell (its peak RSS comes from the kernel's high-water mark).
    A cell shorter than one interval has no GPU reading.
    """

    def __init__(self, probe: Any, *, ticker_only: bool = False) -> None:
        self.probe = probe
        self.ticker_only = ticker_only

    @property
    def notes(self) -> list[str]:
        return list(getattr(self.probe, "notes", []))

    def open(self) -> None:
        self.probe.start()

    def close(self) -> None:
        self.probe.stop()

    def start(self) -> None:
        pass

    def sample(self, row: dict[str, Any]) -> None:
        if self.ticker_only and threading.current_thread() is threading.main_thread():
            return
        self.probe.sample(row)

    def stop(self) -> None:
        pass


def default_probes() -> list[Any]:
    """NVML for GPU utilisation; host counters only where the OS keeps no peak RSS of its own.

    A record keeps wall and CPU time (exact, from clocks) and the peak RSS: where Linux lets the
    high-water mark be reset per cell, that peak is exact, and reading the host counters every tick
    would cost a long cell about 0.3% for nothing.
    """
    from ..measure.probes.gpu import GpuProbe

    probes = [KeptProbe(GpuProbe(), ticker_only=True)]
    if not os.access("/proc/self/clear_refs", os.W_OK):
        from ..measure.probes.host import HostProbe

        probes.append(KeptProbe(HostProbe(), ticker_only=True))
    return probes


class AutoMode:
    """Probes and history of auto mode for one shell. Kept in ``state.extras["auto"]``."""

    def __init__(self, shell: Any, state: Any, *, scan: Callable[..., list[Any]] | None = None,
                 probes: Callable[[], list[Any]] = default_probes, clock: Callable[[], float] = time.time,
                 echo: Callable[[str], None] = print) -> None:
        self.shell = shell
        self.state = state  # the extension's SessionState: its reports join the ranking
        self.history = History()
        self.threshold_s = DEFAULT_THRESHOLD_S
        self.scan = scan if scan is not None else StaticScan()
        self.notes: list[str] = []
        self.enabled = False
        self._on_since = 0.0
        self._make_probes = probes
        self._probes: list[KeptProbe] = []
        self._ticker: Ticker | None = None
        self._clock = clock
        self._echo = echo

    # -- switching -------------------------------------------------------------------------------
    def on(self, threshold_s: float | None = None) -> bool:
        """Start the probes (once); False when auto mode was already on."""
        if threshold_s is not None:
            self.threshold_s = threshold_s
        if self.enabled:
            return False
        self._start_probes()
        self._ticker = Ticker(INTERVAL_MS / 1000.0)
        self._ticker.start()
        self.enabled = True
        self._on_since = time.time()
        return True

    def close(self) -> None:
        """Stop the probes; the history stays for ``%aiperf report``."""
        self.enabled = False
        if self._ticker is not None:
            self._ticker.close()
            self._ticker = None
        for probe in self._probes:
            with contextlib.suppress(Exception):
                probe.close()
        self._probes = []

    off = close

    def _start_probes(self) -> None:
        self._probes = []
        for made in self._make_probes():
            probe = made if isinstance(made, KeptProbe) else KeptProbe(made)
            try:
                probe.open()
            except Exception as exc:
                self._note(f"{type(probe.probe).__name__} off: {type(exc).__name__}: {exc}")
                continue
            self._probes.append(probe)
        for probe in self._probes:
            for note in getattr(probe, "notes", []):
                self._note(note)

    def _note(self, text: str) -> None:
        if text not in self.notes:
            self.notes.append(text)

    # -- one cell ----------------------------------------------------------------------------------
    def begin(self, raw: str | None, cell_id: str | None, execution_count: int | None) -> CellRun | None:
        """Start the light measurement of a cell; None for cells auto mode leaves alone."""
        if self._skip(raw):
            return None
        probes: list[Any] = list(self._probes)
        run = CellRun(raw or "", user_ns=self.shell.user_ns, stages=[], cell_id=cell_id,
                      execution_count=execution_count, line_offset=0,
                      options=RunOptions(interval=INTERVAL_MS, hotspots=False, gpu=False), probes=probes)
        if self._ticker is not None:
            run.sampler = TickedSampler(self._ticker, probes)  # no thread of its own per cell
        run.start()
        return run

    def end(self, run: CellRun, result: Any = _NO_RESULT) -> None:
        """Finish the cell's measurement, record it, and say a line when the cell earned one."""
        if not self.enabled:
            run.cancel()  # the cell switched auto mode off: it is not recorded
            return
        try:
            self._finish(run, result)
        except Exception as exc:
            run.cancel()
            self._echo(f"aiperf auto: this cell is not recorded ({type(exc).__name__}: {exc})")

    def _finish(self, run: CellRun, result: Any) -> None:
        if result is not None and result is not _NO_RESULT and getattr(result, "error_before_exec", None) is not None:
            run.cancel()  # it never ran (syntax error): IPython already said so
            return
        # IPython passes None when the cell was interrupted before it could build a result.
        error = KeyboardInterrupt() if result is None else getattr(result, "error_in_exec", None)
        report = run.finish(error)
        count = getattr(result, "execution_count", None)
        if count is not None:
            report.execution_count = count  # IPython 9 has already counted the cell in pre_run_cell
        if run.source:
            report.findings = list(self.scan(run.source, self.shell.user_ns))
        scan_note = getattr(self.scan, "note", None)
        if scan_note:
            self._note(scan_note)
        record = CellRecord.from_report(report, "auto")
        self.history.add(record)
        if self.worth_a_note(record):
            self._echo(note_line(record))

    def keep(self, report: Any) -> None:
        """A ``%%aiperf`` cell's full Report joins the history (not the cell that switched auto mode on)."""
        if self.enabled and report.started_at >= self._on_since:
            self.history.add(CellRecord.from_report(report, "aiperf"))

    def _skip(self, raw: str | None) -> bool:
        """Cells aiperf measures fully or that are aiperf's own commands, and empty cells."""
        if raw is None:
            return False
        if split_magic_cell(raw) is not None:
            return True
        lines = [ln.strip() for ln in raw.splitlines()]
        code = [ln for ln in lines if ln and not ln.startswith("#")]
        return not code or all(_AIPERF_LINE.match(ln) for ln in code)

    def worth_a_note(self, record: CellRecord) -> bool:
        """Auto mode stays quiet except under slow cells and cells with findings."""
        return record.wall_s >= self.threshold_s or bool(record.findings)

    def clear(self) -> int:
        return self.history.clear(self._clock())

    def table(self, top: int | None) -> CellTable:
        notes = list(self.notes)
        if not self.enabled and not self.history.records:
            notes.append("auto mode is off: only %%aiperf cells are listed "
                         "(%aiperf auto on times every cell)")
        return rank(self.history.merged(self.state.reports), top, notes)


HINT = "%%aiperf this cell for hot lines and fixes, %aiperf report for the slowest cells"


def note_line(record: CellRecord) -> str:
    """The one line auto mode shows under a slow cell or one with findings."""
    cell = f" [{record.execution_count}]" if record.execution_count is not None else ""
    parts = [f"{seconds(record.wall_s)}, {record.cores_used:.1f} CPU cores"]
    if record.error:
        parts.append(f"raised {record.error.split(':', 1)[0]}")
    if record.findings:
        parts.append(" ".join(record.finding_codes))
    return f"aiperf{cell}: {' · '.join(parts)} · {HINT}"
