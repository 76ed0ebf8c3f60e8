"""What the panel's buttons know from the page, in a real JupyterLab 4 and Notebook 7.

Apply turns off as soon as the cell's text differs from what ran (the notebook extension tells the
panel its cell's text) and on again when an undo brings that text back; a kernel restart is known
at once; an equal Try hides the "Allow Apply without an equal Try" box; after Apply, Try says what
it would compare. A short cell's panel carries no noise lines, and a report over a nested cell
magic carries its cell's number.
"""

from __future__ import annotations

import re
import time
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.test_panel_browser import (
    NB,
    PROBE,
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

UNSAFE_PROBE = PROBE.replace("fix=Fix(title=", "fix=Fix(safety='unsafe', title=", 1)
EDITED = "The cell was edited after it ran"
RESTARTED = "The kernel restarted: run the cell again"
TRY_AFTER_APPLY = "Try runs the code as it ran, before Apply, against this rewrite."


def undo_in_editor(page: Any, index: int, original: str) -> None:
    """Ctrl+Z in the cell's editor until it holds ``original`` again (typing is undone in groups)."""
    page.locator(".jp-Notebook .jp-Cell").nth(index).locator(".cm-content").click()
    for _ in range(30):
        if source(page, index) == original:
            return
        page.keyboard.press("Control+z")
        page.wait_for_timeout(100)
    assert source(page, index) == original


def check_apply_follows_the_cells_text(page: Any, server: Any, name: str) -> None:
    shots = page.shots
    assert "safety='unsafe'" in UNSAFE_PROBE
    write_notebook(server, name, UNSAFE_PROBE)
    open_notebook(page, server, name)
    run_all(page)
    wait_for_panel(page)
    found = card(page, "AIP301")
    confirm = found.locator(".aiperf-confirm").filter(has_text="Allow Apply without an equal Try")
    expect(confirm).to_be_visible()
    original = source(page, 0)
    button(found, "Try").click()
    expect(found.locator(".aiperf-equal")).to_contain_text("equal")
    expect(confirm).to_be_hidden()  # an equal Try leaves the box nothing to allow
    apply = button(found, "Apply")
    expect(apply).to_be_enabled()
    shots("tried-equal")
    # a hand edit turns Apply off at once, with the reason in its tooltip and one muted line
    type_into_cell(page, 0, "\n# edited by hand")
    expect(apply).to_be_disabled()
    assert EDITED in (apply.get_attribute("title") or "")
    edited = page.locator(".aiperf-panel .aiperf-edited")
    expect(edited).to_be_visible()
    expect(edited).to_contain_text(EDITED)
    assert page.locator(".aiperf-panel .aiperf-edited:visible").count() == 1
    found.scroll_into_view_if_needed()
    shots("edited-apply-off")
    # undoing the edit brings back the code that ran: Apply is on again
    undo_in_editor(page, 0, original)
    expect(apply).to_be_enabled()
    expect(edited).to_be_hidden()
    shots("undone-apply-on")
    if server.app != "lab":
        return
    apply.click()
    expect(found.locator(".aiperf-status-ok")).to_contain_text("Applied")
    # after Apply, Try is still offered: it says what it would compare; no "edited" line for our own edit
    expect(found.locator(".aiperf-after-apply")).to_have_text(TRY_AFTER_APPLY)
    assert button(found, "Try").get_attribute("title") == TRY_AFTER_APPLY
    expect(edited).to_be_hidden()
    shots("applied-try-says-what")
    button(found, "Undo").click()
    expect(found.locator(".aiperf-status-ok")).to_contain_text("Undone")
    assert source(page, 0) == original
    expect(found.locator(".aiperf-after-apply")).to_be_hidden()


def test_lab_apply_is_off_while_the_cell_differs_from_what_ran(page: Any, lab: Any) -> None:
    check_apply_follows_the_cells_text(page, lab, "gates.ipynb")


def test_notebook7_apply_is_off_while_the_cell_differs_from_what_ran(page: Any, notebook7: Any) -> None:
    check_apply_follows_the_cells_text(page, notebook7, "gates7.ipynb")


def test_lab_try_knows_a_kernel_restart_at_once(page: Any, lab: Any) -> None:
    write_notebook(lab, "restart.ipynb", PROBE)
    open_notebook(page, lab, "restart.ipynb")
    run_all(page)
    wait_for_panel(page)
    found = card(page, "AIP301")
    expect(button(found, "Try")).to_be_enabled()
    started = time.monotonic()
    page.evaluate(f"() => {NB}.sessionContext.session.kernel.restart()")
    stale = page.locator(".aiperf-panel .aiperf-stale")
    expect(stale).to_contain_text(RESTARTED, timeout=5_000)  # no 8 s wait for an answer that cannot come
    said_after = time.monotonic() - started
    try_button = button(found, "Try")
    expect(try_button).to_be_disabled()
    assert RESTARTED in (try_button.get_attribute("title") or "")
    page.wait_for_function(f"() => {NB}.sessionContext.session?.kernel?.status === 'idle'", timeout=90_000)
    expect(stale).to_contain_text(RESTARTED)
    stale.scroll_into_view_if_needed()
    page.shots("restarted")
    assert said_after < 5, said_after


QUIET = "%%aiperf\nx = 1"
NESTED = "%%aiperf\n%%time\ny = 2"


def test_lab_short_cells_carry_no_noise_and_nested_magics_their_number(page: Any, lab: Any) -> None:
    write_notebook(lab, "quiet.ipynb", "%load_ext aiperf_magic", QUIET, NESTED)
    open_notebook(page, lab, "quiet.ipynb")
    run_all(page)
    page.wait_for_function(f"() => {NB}.content.model.cells.get(2).toJSON().execution_count !== null",
                           timeout=120_000)
    cells = page.locator(".jp-Notebook .jp-Cell")
    for index in (1, 2):
        panel = cells.nth(index).locator(".aiperf-panel")
        expect(panel).to_be_visible(timeout=60_000)
        text = panel.inner_text()
        assert "too short to plot" not in text and "Timeline" not in text
        assert "held by other processes" not in text  # a 1 ms cell's waits say nothing
        # no GPU here: said once, in the folded notes, not as a line of its own on every panel
        assert panel.locator(".aiperf-gpu-absent").count() == 0
        notes = panel.locator("details.aiperf-section").filter(has_text="Notes")
        if notes.count():
            expect(notes.locator("ul.aiperf-notes")).to_be_hidden()
    count = page.evaluate(f"() => {NB}.content.model.cells.get(2).toJSON().execution_count")
    badge = cells.nth(2).locator(".aiperf-badge")
    expect(badge).to_have_text(re.compile(rf"^aiperf \[{count}\]$"))
    cells.nth(2).scroll_into_view_if_needed()
    page.shots("quiet-and-nested")


def test_lab_a_report_shown_under_another_cell_gates_on_the_cell_it_measured(page: Any, lab: Any) -> None:
    # `display(report)` in a later cell: Apply edits the measured cell, whose text is unchanged
    write_notebook(lab, "elsewhere.ipynb", PROBE, "display(build_panel(_report, verify=_fake_verify).view)")
    open_notebook(page, lab, "elsewhere.ipynb")
    run_all(page)
    page.wait_for_function(f"() => {NB}.content.model.cells.get(1).toJSON().execution_count !== null",
                           timeout=120_000)
    later = page.locator(".jp-Notebook .jp-Cell").nth(1).locator(".aiperf-card").filter(has_text="AIP301").first
    expect(later).to_be_visible(timeout=60_000)
    button(later, "Try").click()
    expect(later.locator(".aiperf-equal")).to_contain_text("equal")
    expect(button(later, "Apply")).to_be_enabled()
    expect(page.locator(".jp-Notebook .jp-Cell").nth(1).locator(".aiperf-edited")).to_be_hidden()
    later.scroll_into_view_if_needed()
    page.shots("shown-under-another-cell")
