"""The panel's Try with the real verify: it runs beside the kernel, Stop cancels it, and a refused write
offers the "allow the cell's writes" box, which then runs them the announced number of times."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from aiperf_magic.render.panel.actions import FixAction, PanelContext
from aiperf_magic.report import Finding, Fix, Report
from aiperf_magic.verification import planned_runs


class NoBridge:
    def request(self, *args: Any) -> None:  # Apply is not clicked here
        raise AssertionError("no edit expected")


def _action(source: str, rewrite: str, ns: dict[str, Any]) -> FixAction:
    fix = Fix(title="rewrite", source=rewrite)
    report = Report(source=source, findings=[Finding("AIP999", "test", line=1, fixable=True, fix=fix)])
    return FixAction(PanelContext(report, bridge=NoBridge(), namespace=ns), 1, fix)  # type: ignore[arg-type]


def _wait_done(action: FixAction, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while action.edit.busy and time.monotonic() < deadline:
        time.sleep(0.02)
    assert not action.edit.busy


def test_stop_cancels_a_try_running_beside_the_kernel() -> None:
    ns: dict[str, Any] = {"__name__": "__main__", "time": time}
    action = _action("time.sleep(0.5)\n", "time.sleep(0.4)\n", ns)
    action.try_fix()  # returns once the kernel's copy is taken
    state = action.state()
    assert action.edit.busy and state["stop"] and not state["try"]
    assert "Stop cancels" in state["progress"]
    action.stop()
    _wait_done(action)
    c = action.comparison
    assert c is not None and c.refused and c.refused.startswith("cancelled")
    state = action.state()
    assert state["result"]["mark"] == "✗ not run" and not state["apply"] and not state["stop"]


def test_a_refused_write_offers_the_box_that_allows_it(tmp_path: Path) -> None:
    log = tmp_path / "log.txt"
    log.write_text("")
    cell = f"with open({str(log)!r}, 'a') as f:\n    n = f.write('run\\n')\n"  # n: something to compare
    action = _action(cell, cell, {"__name__": "__main__"})
    assert not action.state()["allow_io_offer"]
    action.try_fix()
    _wait_done(action)
    state = action.state()
    assert state["result"]["blocked"] == f"line 2 appends to {log}" and not state["apply"]  # under %%aiperf
    assert log.read_text() == "" and state["allow_io_offer"] and state["runs"] == planned_runs(5)
    action.set_allow_io(True)
    action.try_fix()
    _wait_done(action)
    assert log.read_text().count("run") == 2 * planned_runs(5)
    assert action.state()["result"]["mark"] == "✓ equal"
