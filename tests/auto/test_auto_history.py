"""The cell history: records from Reports, bounded memory, clearing, merging, ranking and totals."""

from __future__ import annotations

import json

from aiperf_magic.auto.history import FIRST_LINE_CHARS, CellRecord, History, first_line, rank
from aiperf_magic.report import ErrorInfo, Finding, Fix, GpuSeries, Report, Samples, Verdict


def record(n: int, wall: float, cpu: float = 0.0, codes: tuple[str, ...] = (), error: str | None = None,
           kind: str = "auto") -> CellRecord:
    return CellRecord(kind=kind, execution_count=n, first_line=f"cell {n}", started_at=float(n), wall_s=wall,
                      cpu_s=cpu, findings=[Finding(code=c, message=c) for c in codes], error=error)


def test_record_from_a_full_report_keeps_numbers_and_drops_rewrites():
    samples = Samples(t=[0.0, 0.1], gpus=[GpuSeries(index=0, util_percent=[20.0, 60.0],
                                                      mem_used_bytes=[1000, 3000]),
                                          GpuSeries(index=1, util_percent=[None, 100.0])])
    report = Report(source="\n# setup\nfor row in rows:\n    pass\n", cell_id="abc", execution_count=4,
                    started_at=12.5, wall_s=2.0, cpu_s=3.0, peak_rss_bytes=5 << 20, samples=samples,
                    verdict=Verdict(code="AIP907", title="CPU-bound", sentence="..."),
                    findings=[Finding(code="AIP301", message="row loop", line=2,
                                      fix=Fix(title="vectorise", source="x" * 10_000))],
                    error=ErrorInfo(type="ValueError", message="bad"))
    rec = CellRecord.from_report(report, "aiperf")
    assert rec.first_line == "for row in rows:"  # blank and comment-only lines skipped
    assert rec.cores_used == 1.5
    assert rec.gpu_util_mean == 60.0 and rec.gpu_util_max == 100.0 and rec.gpu_mem_max_bytes == 3000
    assert (rec.verdict_code, rec.verdict_title) == ("AIP907", "CPU-bound")
    assert rec.findings[0].fix is None and report.findings[0].fix is not None  # the Report is untouched
    assert rec.error == "ValueError: bad" and rec.samples == 2
    back = CellRecord.from_dict(json.loads(json.dumps(rec.to_dict())))
    assert back == rec


def test_first_line_is_shortened_for_tables():
    assert first_line("") == ""
    assert first_line("# only a comment") == "# only a comment"
    long = first_line("y = " + "1 + " * 100)
    assert len(long) == FIRST_LINE_CHARS and long.endswith("…")


def test_history_is_bounded_to_the_newest_cells():
    history = History(capacity=3)
    for n in range(5):
        history.add(record(n, 1.0))
    assert [r.execution_count for r in history.records] == [2, 3, 4]


def test_merge_adds_unseen_aiperf_reports_once_and_respects_clear():
    history = History()
    seen = Report(source="a = 1", execution_count=1, started_at=10.0)
    history.add(CellRecord.from_report(seen, "aiperf"))
    unseen = Report(source="b = 2", execution_count=2, started_at=20.0)
    merged = history.merged([seen, unseen])
    assert [(r.kind, r.first_line) for r in merged] == [("aiperf", "a = 1"), ("aiperf", "b = 2")]
    assert history.clear(now=15.0) == 1
    assert [r.first_line for r in history.merged([seen, unseen])] == ["b = 2"]  # older one was cleared


def test_rank_orders_by_wall_time_and_totals_cover_every_cell():
    cells = [record(1, 0.5, 0.5, ("AIP301",)), record(2, 3.0, 6.0, ("AIP301", "AIP301", "AIP102")),
             record(3, 1.0, error="KeyboardInterrupt"), record(4, 1.0, 2.0)]
    table = rank(cells, top=2, notes=["n"])
    assert [r.execution_count for r in table.rows] == [2, 4]  # equal wall: more CPU first
    assert table.cells == 4 and table.total_wall_s == 5.5 and table.total_cpu_s == 8.5
    assert table.top_wall_s == 4.0 and round(table.top_share, 3) == round(4.0 / 5.5, 3)
    assert table.with_findings == 2 and table.errors == 1
    assert table.codes == [("AIP301", 2), ("AIP102", 1)]  # cells with the code, not occurrences
    data = json.loads(table.to_json())
    assert data["totals"]["codes"] == {"AIP301": 2, "AIP102": 1}
    assert [c["execution_count"] for c in data["cells"]] == [2, 4] and data["notes"] == ["n"]
    assert rank([]).top_share == 0.0
