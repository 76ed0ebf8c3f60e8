"""Memory per line in the panel, in a real JupyterLab 4 driven in headless Chromium: the header names
the line memory peaked at, and the hot-lines table has a memory column with the line that allocated."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.test_panel_browser import open_notebook, run_all, wait_for_panel, write_notebook

pytestmark = [pytest.mark.browser, pytest.mark.slow]

# line 3 keeps 320 MB and takes its time filling it; line 4 only sleeps
MEMORY_CELL = ("%%aiperf\nimport numpy as np, time\nbig = np.ones(40_000_000)\ntime.sleep(0.3)\n"
               "total = float(big.sum())")


def test_lab_panel_names_the_peak_line_and_shows_the_memory_column(page: Any, lab: Any) -> None:
    write_notebook(lab, "memory.ipynb", "%load_ext aiperf_magic", MEMORY_CELL)
    open_notebook(page, lab, "memory.ipynb")
    run_all(page)
    wait_for_panel(page)
    panel = page.locator(".aiperf-panel")
    expect(panel.locator(".aiperf-header")).to_contain_text("at line 3")
    hot = panel.locator("details.aiperf-section").filter(has_text="Hot lines")
    table = hot.locator("table.aiperf-hotspots")
    expect(table.locator("th").filter(has_text="memory")).to_be_visible()
    row = table.locator("tr").filter(has_text="big = np.ones(40_000_000)")
    expect(row).to_contain_text("MB")
    expect(hot).to_contain_text("the most a line's allocations held at once")
    page.shots("memory-panel")
