"""%aiperf auto and %aiperf report in IPython's own test shell, with real hooks and real cells."""

from __future__ import annotations

import json

import pytest
from IPython.core.error import UsageError
from IPython.utils.capture import capture_output

from aiperf_magic.auto.history import CellRecord
from aiperf_magic.ipython.commands.auto import AutoMode, CellTableView
from aiperf_magic.measure.sampler import live_threads
from aiperf_magic.report import Finding

HINT = "%%aiperf this cell"


def run(ip, code: str):
    """Run one cell as a notebook would (counted in history); return (result, captured output)."""
    with capture_output() as out:
        result = ip.run_cell(code, store_history=True)
    return result, out


def mode(ip) -> AutoMode:
    found = ip._aiperf_magics.state.extras["auto"]
    assert isinstance(found, AutoMode)
    return found


def records(ip) -> list[CellRecord]:
    return list(mode(ip).history.records)


def hooks(ip) -> list[int]:
    """[1, 1] while auto mode measures cells through the extension's one hook, [0, 0] when it does not."""
    m = ip._aiperf_magics.state.extras.get("auto")
    hook = ip._aiperf_magics.hook
    on = m is not None and m.enabled
    return [ip.events.callbacks[e].count(getattr(hook, e)) * on for e in ("pre_run_cell", "post_run_cell")]


def report(ip, argv: str = "") -> CellTableView:
    result, _ = run(ip, f"_auto_view = %aiperf report {argv}")
    assert result.success, result.error_in_exec
    view = ip.user_ns["_auto_view"]
    assert isinstance(view, CellTableView)
    return view


@pytest.fixture
def auto(ip):
    """Auto mode on with a 0.25 s threshold and the real scan; off again afterwards."""
    run(ip, "%aiperf auto on --threshold 0.25")
    yield ip
    run(ip, "%aiperf auto off")


def test_mix_of_cells_is_ranked_with_notes_only_where_due(auto):
    ip = auto
    _, fast = run(ip, "a = 1")
    slow_result, slow = run(ip, "import time\ntime.sleep(0.4)")
    failing_result, _ = run(ip, "raise ValueError('boom')")
    run(ip, "%time b = 2")
    assert not failing_result.success and slow_result.success

    assert "aiperf" not in fast.stdout  # quiet under the threshold
    note = slow.stdout.strip().splitlines()[-1]
    assert note.startswith(f"aiperf [{slow_result.execution_count}]: ") and HINT in note
    assert "%aiperf report" in note

    got = records(ip)
    assert [r.first_line for r in got] == ["a = 1", "import time", "raise ValueError('boom')", "%time b = 2"]
    assert all(r.kind == "auto" and r.execution_count is not None for r in got)
    assert got[2].error == "ValueError: boom"
    assert got[1].wall_s >= 0.4 and got[1].peak_rss_bytes and got[1].peak_rss_bytes > 1_000_000

    view = report(ip)
    table = view.table
    assert table.rows[0].first_line == "import time"  # the slowest cell first
    assert table.rows[0].execution_count == slow_result.execution_count
    assert [r.wall_s for r in table.rows] == sorted((r.wall_s for r in table.rows), reverse=True)
    assert table.cells == 4 and table.errors == 1
    assert not any(r.first_line.startswith("%aiperf") for r in table.rows)  # its own cells are skipped
    text = ip.display_formatter.format(view)[0]["text/plain"]
    assert "import time" in text and "raised ValueError" in text and "4 profiled cells" in text
    assert [t.name for t in live_threads()] == ["aiperf-auto"]  # one ticker while on, none per cell


def test_aiperf_cells_are_not_sampled_twice_and_join_the_ranking(ip):
    spy = SpyProbe()
    auto_mode = AutoMode(ip, ip._aiperf_magics.state, probes=lambda: [spy])
    ip._aiperf_magics.state.extras["auto"] = auto_mode
    auto_mode.on(threshold_s=10)
    result, out = run(ip, "%%aiperf --text\nimport time\ntime.sleep(0.15)")
    assert result.success and any("aiperf [" in o.data.get("text/plain", "") for o in out.outputs)
    assert spy.samples == 0  # only %%aiperf's own sampler ran
    run(ip, "import time\ntime.sleep(0.15)")
    assert spy.samples >= 1  # the same work in a plain cell is sampled by auto mode
    kinds = [(r.kind, r.first_line) for r in records(ip)]
    assert kinds == [("aiperf", "import time"), ("auto", "import time")]
    assert records(ip)[0].execution_count == result.execution_count
    assert [r.kind for r in report(ip).table.rows].count("aiperf") == 1  # not listed twice
    auto_mode.close()
    assert spy.stopped


def test_auto_on_inside_an_aiperf_cell_and_off_inside_a_measured_cell(ip):
    result, _ = run(ip, "%%aiperf --text\n%aiperf auto on")
    assert result.success and hooks(ip) == [1, 1]
    run(ip, "c = 3")
    assert [r.first_line for r in records(ip)] == ["c = 3"]
    result, out = run(ip, "d = 4\n%aiperf auto off")
    assert result.success and "off" in out.stdout
    assert hooks(ip) == [0, 0]
    assert [r.first_line for r in records(ip)] == ["c = 3"]  # the cell that switched it off is dropped
    assert live_threads() == []  # off joins the ticker


def test_hooks_registered_once_and_removed_by_off_and_unload(ip):
    run(ip, "%aiperf auto on")
    _, out = run(ip, "%aiperf auto on --threshold 2")
    assert "already on" in out.stdout and hooks(ip) == [1, 1]
    assert mode(ip).threshold_s == 2
    run(ip, "x = 1")
    _, out = run(ip, "%aiperf auto off")
    assert hooks(ip) == [0, 0] and "1 cell kept" in out.stdout
    run(ip, "y = 2")
    assert [r.first_line for r in records(ip)] == ["x = 1"]  # nothing recorded while off
    assert report(ip).table.cells == 1  # the history outlives off

    run(ip, "%aiperf auto on")
    auto_mode = mode(ip)
    hook = ip._aiperf_magics.hook
    ip.run_line_magic("unload_ext", "aiperf_magic")
    assert not auto_mode.enabled
    assert not any(getattr(cb, "__self__", None) in (auto_mode, hook)
                   for e in ("pre_run_cell", "post_run_cell") for cb in ip.events.callbacks[e])
    ip.run_line_magic("load_ext", "aiperf_magic")  # the fixture unloads it again


def test_trap_cell_gets_a_note_with_its_codes_although_fast(auto, rule_statuses):
    ip = auto
    # a default rule's trap (auto mode runs the rules that earned a default place)
    rule_statuses(AIP203="default")
    result, out = run(ip, "import numpy as np\narr = np.array([])\nfor x in range(1000):\n    arr = np.append(arr, x)")
    assert result.success
    record = records(ip)[-1]
    assert "AIP203" in record.finding_codes
    assert "AIP203" in out.stdout and HINT in out.stdout
    assert report(ip).table.codes[0][0] == "AIP203"


def test_findings_from_an_injected_scan_reach_note_record_and_report(ip):
    def scan(source, namespace=None):
        return [Finding(code="AIP999", message="test trap", line=2)] if "TRAP" in source else []

    auto_mode = AutoMode(ip, ip._aiperf_magics.state, scan=scan)
    ip._aiperf_magics.state.extras["auto"] = auto_mode
    auto_mode.on()
    _, quiet = run(ip, "e = 5")
    _, noted = run(ip, "f = 6\nTRAP = 7")
    auto_mode.close()
    assert "aiperf" not in quiet.stdout
    assert "AIP999" in noted.stdout and HINT in noted.stdout
    view = report(ip)
    assert view.table.with_findings == 1 and view.table.codes == [("AIP999", 1)]
    bundle = view._repr_mimebundle_()
    assert "AIP999" in bundle["text/plain"] and "test trap" in bundle["text/plain"]
    assert "test trap" in bundle["text/html"]


def test_interrupted_nested_and_syntax_error_cells(auto):
    ip = auto
    result, _ = run(ip, "raise KeyboardInterrupt")
    assert not result.success
    assert records(ip)[-1].error == "KeyboardInterrupt"
    run(ip, "get_ipython().run_cell('inner = 1')\nouter = 2")
    assert records(ip)[-1].first_line == "get_ipython().run_cell('inner = 1')"
    assert [r.first_line for r in records(ip)].count("inner = 1") == 0  # covered by the outer cell
    count = len(records(ip))
    result, _ = run(ip, "def broken(:\n    pass")
    assert result.error_before_exec is not None
    assert len(records(ip)) == count  # never ran: nothing to rank
    assert [t.name for t in live_threads()] == ["aiperf-auto"]


def test_old_shells_calling_the_hooks_without_arguments(ip):
    auto_mode = AutoMode(ip, ip._aiperf_magics.state)
    ip._aiperf_magics.state.extras["auto"] = auto_mode
    auto_mode.on()
    hook = ip._aiperf_magics.hook
    hook.pre_run_cell()
    hook.post_run_cell()
    assert len(auto_mode.history.records) == 1
    assert auto_mode.history.records[0].error is None  # no result is not an interruption
    hook.pre_run_cell()
    hook.post_run_cell(None)  # IPython's way of saying the cell was interrupted early
    assert auto_mode.history.records[1].error == "KeyboardInterrupt"
    auto_mode.close()


def test_report_clear_save_and_bad_arguments(auto, tmp_path):
    ip = auto
    run(ip, "%%aiperf --text\ng = 1")
    run(ip, "s = '<script>alert(1)</script>'")
    target = tmp_path / "cells.html"
    _, out = run(ip, f"%aiperf report --save {target}")
    assert "2 cells saved" in out.stdout
    page = target.read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>") and "<svg" in page
    assert "<script" not in page and "&lt;script&gt;" in page
    assert " src=" not in page and "<link" not in page  # opens offline

    json_path = tmp_path / "cells.json"
    run(ip, f"%aiperf report --save {json_path} --top 1")
    data = json.loads(json_path.read_text(encoding="utf-8"))
    assert data["totals"]["cells"] == 2 and len(data["cells"]) == 1
    assert CellRecord.from_dict(data["cells"][0]).wall_s == data["cells"][0]["wall_s"]

    (tmp_path / "a.html").mkdir()
    for argv, message in (("--top 0", "--top"), ("--save out.txt", ".html or .json"),
                          (f"--save {tmp_path / 'a.html'}", "folder"), ("--nope", "unrecognized")):
        with pytest.raises(UsageError, match=message):
            ip.run_line_magic("aiperf", f"report {argv}")
    with pytest.raises(UsageError, match="--threshold"):
        ip.run_line_magic("aiperf", "auto on --threshold -1")
    with pytest.raises(UsageError, match="invalid choice"):
        ip.run_line_magic("aiperf", "auto maybe")
    with pytest.raises(UsageError, match="could not save"):
        ip.run_line_magic("aiperf", f"report --save {tmp_path}/missing/dir/r.json")

    _, out = run(ip, "%aiperf report --clear")
    assert "2 cells" in out.stdout
    assert not records(ip)
    _, out = run(ip, "%aiperf report")
    assert "no profiled cells yet" in out.stdout  # the %%aiperf report before --clear is hidden too


def test_report_without_auto_lists_aiperf_cells(ip):
    _, out = run(ip, "%aiperf report")
    assert "no profiled cells yet" in out.stdout
    run(ip, "%%aiperf --text\nh = sum(range(1000))")
    view = report(ip)
    assert [r.kind for r in view.table.rows] == ["aiperf"]
    assert any("auto mode is off" in n for n in view.table.notes)


class SpyProbe:
    """Counts what auto mode asks of its probes."""

    def __init__(self) -> None:
        self.notes: list[str] = []
        self.samples = 0
        self.started = self.stopped = False

    def start(self) -> None:
        self.started = True

    def sample(self, row) -> None:
        self.samples += 1
        row["rss_bytes"] = 1

    def stop(self) -> None:
        self.stopped = True
