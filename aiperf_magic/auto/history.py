"""What auto mode remembers about each cell, and the ranked table ``%aiperf report`` shows.

A full Report keeps its sampled timeline (per-core CPU at every tick), which is far too much to hold
for a thousand cells. Each cell is therefore kept as a :class:`CellRecord`: a few numbers, the
verdict and the findings without their rewrites. Ranking and totals are computed here, so the
views only lay them out. Nothing here imports IPython.
"""

from __future__ import annotations

import dataclasses
import json
from collections import Counter, deque
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from ..report import SCHEMA_VERSION, Finding, Report, from_dict, to_dict

MAX_CELLS = 1000
MAX_SOURCE_CHARS = 4000  # the first line is always kept; very long cells are cut in the JSON export
FIRST_LINE_CHARS = 80


@dataclass
class CellRecord:
    """One profiled cell: measured lightly by auto mode (``kind="auto"``) or fully by ``%%aiperf``."""

    kind: str  # "auto" or "aiperf"
    execution_count: int | None = None
    cell_id: str | None = None
    first_line: str = ""
    source: str = ""
    started_at: float = 0.0  # Unix time
    wall_s: float = 0.0
    cpu_s: float = 0.0
    peak_rss_bytes: int | None = None
    rss_delta_bytes: int | None = None
    gpu_util_mean: float | None = None  # percent, over every GPU and sample
    gpu_util_max: float | None = None
    gpu_mem_max_bytes: int | None = None  # device memory in use (all processes)
    cuda_peak_bytes: int | None = None  # torch's allocator peak (``%%aiperf`` cells)
    verdict_code: str | None = None
    verdict_title: str | None = None
    findings: list[Finding] = field(default_factory=list)  # without their fixes
    error: str | None = None  # "ValueError: message" when the cell raised
    samples: int = 0

    @property
    def cores_used(self) -> float:
        return self.cpu_s / self.wall_s if self.wall_s > 0 else 0.0

    @property
    def finding_codes(self) -> list[str]:
        """Distinct codes in order of first appearance (a code found on three lines shows once)."""
        return list(dict.fromkeys(f.code for f in self.findings))

    @property
    def key(self) -> tuple[str, float]:
        return (self.kind, self.started_at)

    @classmethod
    def from_report(cls, report: Report, kind: str) -> CellRecord:
        util = [u for g in report.samples.gpus for u in g.util_percent if u is not None]
        mem = [m for g in report.samples.gpus for m in g.mem_used_bytes if m is not None]
        error = None
        if report.error is not None:
            error = report.error.type + (f": {report.error.message}" if report.error.message else "")
        return cls(
            kind=kind, execution_count=report.execution_count, cell_id=report.cell_id,
            first_line=first_line(report.source), source=report.source[:MAX_SOURCE_CHARS],
            started_at=report.started_at, wall_s=report.wall_s, cpu_s=report.cpu_s,
            peak_rss_bytes=report.peak_rss_bytes, rss_delta_bytes=report.rss_delta_bytes,
            gpu_util_mean=sum(util) / len(util) if util else None, gpu_util_max=max(util) if util else None,
            gpu_mem_max_bytes=max(mem) if mem else None, cuda_peak_bytes=report.cuda_peak_bytes,
            verdict_code=report.verdict.code if report.verdict else None,
            verdict_title=report.verdict.title if report.verdict else None,
            findings=[dataclasses.replace(f, fix=None) for f in report.findings],
            error=error, samples=len(report.samples),
        )

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = to_dict(self)
        data["cores_used"] = round(self.cores_used, 3)
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> CellRecord:
        return from_dict(cls, data)


def first_line(source: str) -> str:
    """The first line that says something (not blank, not only a comment), shortened for a table."""
    lines = [ln.strip() for ln in source.splitlines() if ln.strip()]
    line = next((ln for ln in lines if not ln.startswith("#")), lines[0] if lines else "")
    return line if len(line) <= FIRST_LINE_CHARS else line[: FIRST_LINE_CHARS - 1] + "…"


class History:
    """The last ``capacity`` profiled cells of this kernel, oldest first."""

    def __init__(self, capacity: int = MAX_CELLS) -> None:
        self.records: deque[CellRecord] = deque(maxlen=capacity)
        # ``%%aiperf`` reports older than this were cleared (they stay in the session for %aiperf fix/apply)
        self.cleared_at = 0.0

    def add(self, record: CellRecord) -> None:
        self.records.append(record)

    def clear(self, now: float) -> int:
        count = len(self.records)
        self.records.clear()
        self.cleared_at = now
        return count

    def merged(self, reports: Iterable[Report]) -> list[CellRecord]:
        """History plus ``%%aiperf`` Reports of the session it has not seen (made while auto was off)."""
        seen = {r.key for r in self.records}
        extra = []
        for report in reports:
            if report.started_at < self.cleared_at:
                continue
            record = CellRecord.from_report(report, "aiperf")
            if record.key not in seen:
                seen.add(record.key)
                extra.append(record)
        return sorted([*self.records, *extra], key=lambda r: r.started_at)


@dataclass
class CellTable:
    """The ranked view of the history that ``%aiperf report`` shows and saves."""

    rows: list[CellRecord]  # the top ``top`` cells, slowest first
    cells: int  # profiled cells in the history
    total_wall_s: float
    total_cpu_s: float
    top_wall_s: float  # wall time of the rows shown
    with_findings: int  # cells with at least one finding
    codes: list[tuple[str, int]]  # finding code -> cells that have it, most frequent first
    errors: int  # cells that raised or were interrupted
    notes: list[str] = field(default_factory=list)

    @property
    def top_share(self) -> float:
        return self.top_wall_s / self.total_wall_s if self.total_wall_s > 0 else 0.0

    def to_dict(self) -> dict[str, Any]:
        return {
            "schema": SCHEMA_VERSION,
            "totals": {"cells": self.cells, "wall_s": self.total_wall_s, "cpu_s": self.total_cpu_s,
                       "shown": len(self.rows), "shown_wall_s": self.top_wall_s,
                       "with_findings": self.with_findings, "errors": self.errors,
                       "codes": dict(self.codes)},
            "cells": [r.to_dict() for r in self.rows],
            "notes": list(self.notes),
        }

    def to_json(self, **kwargs: Any) -> str:
        return json.dumps(self.to_dict(), **kwargs)


def rank(records: Iterable[CellRecord], top: int | None = None, notes: Iterable[str] = ()) -> CellTable:
    """Slowest cells first (wall time; CPU time breaks ties); totals over every record."""
    records = list(records)
    ordered = sorted(records, key=lambda r: (-r.wall_s, -r.cpu_s, r.started_at))
    rows = ordered if top is None else ordered[: max(0, top)]
    codes: Counter[str] = Counter(code for r in records for code in r.finding_codes)
    return CellTable(
        rows=rows, cells=len(records),
        total_wall_s=sum(r.wall_s for r in records), total_cpu_s=sum(r.cpu_s for r in records),
        top_wall_s=sum(r.wall_s for r in rows), with_findings=sum(1 for r in records if r.findings),
        codes=sorted(codes.items(), key=lambda kv: (-kv[1], kv[0])),
        errors=sum(1 for r in records if r.error), notes=list(notes),
    )
