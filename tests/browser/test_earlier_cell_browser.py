"""Apply of a rewrite of a function an earlier cell defined, in a real JupyterLab: the measured cell
only calls the function, Try proves the rewrite with the function rebound, Apply edits the cell
that defines it (found above the measured cell by the text it ran with), Undo puts it back byte for
byte, and a defining cell edited since it ran is left alone."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from .test_panel_browser import (
    button,
    card,
    open_notebook,
    run_all,
    source,
    type_into_cell,
    wait_for_panel,
    write_notebook,
)

pytestmark = [pytest.mark.browser, pytest.mark.slow]

DEFINES = """%load_ext aiperf_magic
import numpy as np


def compute_reciprocals(values):
    output = np.empty(len(values))
    for i in range(len(values)):
        output[i] = 1.0 / values[i]
    return output


big_array = np.arange(1, 600_001)"""
CALLS = """%%aiperf
result = compute_reciprocals(big_array)"""


def test_lab_rewrite_of_an_earlier_cells_function_is_applied_to_that_cell(page: Any, lab: Any) -> None:
    shots = page.shots
    write_notebook(lab, "earlier.ipynb", DEFINES, CALLS)
    open_notebook(page, lab, "earlier.ipynb")
    run_all(page)
    wait_for_panel(page)
    found = card(page, "AIP201")
    expect(found).to_be_visible()
    found.scroll_into_view_if_needed()
    button(found, "Try").click()
    expect(found.locator(".aiperf-equal")).to_contain_text("equal", timeout=180_000)
    expect(button(found, "Apply")).to_be_enabled()
    shots("tried")
    button(found, "Apply").click()
    expect(found.locator(".aiperf-status-ok")).to_contain_text("which defines the function")
    defining = source(page, 0)
    assert "output[:len(values)] = 1.0 / np.asarray(values)" in defining and "for i in range" not in defining
    assert defining.startswith("%load_ext aiperf_magic\n") and source(page, 1) == CALLS
    shots("applied-to-the-defining-cell")
    button(found, "Undo").click()
    expect(found.locator(".aiperf-status-ok")).to_contain_text("Undone")
    assert source(page, 0) == DEFINES and source(page, 1) == CALLS  # byte for byte
    shots("undone")
    # the defining cell changed since it ran: Apply leaves it alone and says so
    type_into_cell(page, 0, "\n# edited")
    button(found, "Apply").click()
    expect(found.locator(".aiperf-status-error")).to_contain_text("is not above this cell with the code it ran")
    assert source(page, 0) == DEFINES + "\n# edited" and source(page, 1) == CALLS
    shots("edited-defining-cell-refused")
