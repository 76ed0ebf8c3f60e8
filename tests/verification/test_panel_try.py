"""The panel's Try with the real verify: it runs beside the kernel, Stop cancels it, and a refused write
offers the "allow the cell's writes" box, which then runs them the announced number of times."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from aiperf_magic.render.panel.actions import PanelContext
from aiperf_magic.render.panel.findings import FixControls
from aiperf_magic.report import Finding, Fix, Report
from aiperf_magic.verification import planned_runs


class NoBridge:
    def request(self, *args: Any) -> None:  # Apply is not clicked here
        raise AssertionError("no edit expected")


def _controls(source: str, rewrite: str, ns: dict[str, Any]) -> FixControls:
    fix = Fix(title="rewrite", source=rewrite)
    report = Report(source=source, findings=[Finding("AIP999", "test", line=1, fixable=True, fix=fix)])
    return FixControls(PanelContext(report, bridge=NoBridge(), namespace=ns), 1, fix)  # type: ignore[arg-type]


def _wait_done(controls: FixControls, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while controls.edit.busy and time.monotonic() < deadline:
        time.sleep(0.02)
    assert not controls.edit.busy


def test_stop_cancels_a_try_running_beside_the_kernel() -> None:
    ns: dict[str, Any] = {"__name__": "__main__", "time": time}
    controls = _controls("time.sleep(0.5)\n", "time.sleep(0.4)\n", ns)
    controls.try_button.click()  # returns once the kernel's copy is taken
    assert controls.edit.busy and controls.stop_button.layout.display == ""
    assert "run" in controls.progress.value or "trying" in controls.progress.value
    controls.stop_button.click()
    _wait_done(controls)
    c = controls.comparison
    assert c is not None and c.refused and c.refused.startswith("cancelled")
    assert "Stopped" in controls.result.value and controls.edit.apply_button.disabled
    assert controls.stop_button.layout.display == "none"


def test_a_refused_write_offers_the_box_that_allows_it(tmp_path: Path) -> None:
    log = tmp_path / "log.txt"
    log.write_text("")
    cell = f"with open({str(log)!r}, 'a') as f:\n    f.write('run\\n')\n"
    controls = _controls(cell, cell, {"__name__": "__main__"})
    assert controls.allow_io.layout.display == "none"
    controls.try_button.click()
    _wait_done(controls)
    assert "not tried" in controls.result.value and f"appends to {log}" in controls.result.value
    assert log.read_text() == "" and controls.edit.apply_button.disabled
    assert controls.allow_io.layout.display == ""
    assert f"runs {planned_runs(5)} more times" in controls.allow_io.description
    controls.allow_io.value = True
    controls.try_button.click()
    _wait_done(controls)
    assert log.read_text().count("run") == 2 * planned_runs(5)
    assert "✓ equal" in controls.result.value
