"""The panel and one-click apply in a real JupyterLab 4 and Notebook 7, driven in headless Chromium.

Two kinds of notebook are used. The *probe* builds a Report by hand (with a fake verify) inside
the very cell it will rewrite, so the extension, the bridge, the panel's buttons and escaping are
tested whatever rules exist. The *row loop* is the user's path: ``%%aiperf`` on a pandas row loop,
AIP301 found, Try, Apply, Undo, all with the real library.
"""

from __future__ import annotations

import re
from typing import Any

import nbformat
import pytest
from playwright.sync_api import expect

from tests.cluster.cells import HEAVY

pytestmark = [pytest.mark.browser, pytest.mark.slow]

NB = "window.jupyterapp.shell.currentWidget"
XSS_FLAG = "__aiperf_xss"

PROBE = """# aiperf panel probe
from aiperf_magic.render.panel.view import build_panel
from aiperf_magic.report import (ColumnProfile, Comparison, ErrorInfo, Finding, Fix, FrameProfile, Hotspot,
                                 Report, Samples)
_parent = get_ipython().kernel.get_parent()
_first, _body = _parent["content"]["code"].split("\\n", 1)
_xss = "<img src=x onerror='window.__aiperf_xss = 1'><script>window.__aiperf_xss = 2</script>"
_report = Report(
    source=_body, cell_id=_parent["metadata"]["cellId"], magic_line=_first, wall_s=0.5, cpu_s=0.5,
    samples=Samples(t=[0.0, 0.1, 0.2], cpu_percent=[100.0, 95.0, 99.0], rss_bytes=[10**8, 2 * 10**8, 10**8]),
    error=ErrorInfo(type="ValueError", message="bad value " + _xss),
    hotspots=[Hotspot(line=2, seconds=0.4, share=0.8, text="x = '" + _xss + "'")],
    frames=[FrameProfile(name="df", rows=100_000, memory_bytes=800_000, columns=[
        ColumnProfile(name="col " + _xss, dtype="int64", memory_bytes=800_000, reason="value " + _xss)])],
    findings=[Finding(code="AIP301", message="Row loop " + _xss, line=2,
                      fix=Fix(title="Column expression " + _xss, source="total = 42  # rewritten\\n",
                              diff="-" + _xss + "\\n+total = 42  # rewritten"))])
def _fake_verify(before, after, namespace, repeat=5):
    return Comparison(equal=True, speedup=12.5, before_s=0.5, after_s=0.04, repeat=repeat,
                      notes=["probe " + _xss])
display(build_panel(_report, verify=_fake_verify).view)"""
PROBE_REWRITTEN = "# aiperf panel probe\ntotal = 42  # rewritten\n"

SETUP = """%load_ext aiperf_magic
import numpy as np
import pandas as pd
df = pd.DataFrame({"price": np.arange(20_000) * 0.5, "qty": np.arange(20_000) % 7})"""
ROW_LOOP = """%%aiperf
total = 0.0
for _, row in df.iterrows():
    total += row["price"] * row["qty"]"""


def write_notebook(server: Any, name: str, *sources: str) -> None:
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nb.cells = [nbformat.v4.new_code_cell(s) for s in sources]
    nbformat.write(nb, server.root / name)


def open_notebook(page: Any, server: Any, name: str) -> None:
    # ?reset: a fresh workspace, without the notebooks earlier tests left open
    prefix = "lab/tree" if server.app == "lab" else "notebooks"
    page.goto(f"{server.url}/{prefix}/{name}?reset")
    page.wait_for_function(f"() => window.jupyterapp && {NB} && {NB}.sessionContext")
    page.wait_for_function(f"() => {NB}.sessionContext.session?.kernel?.status === 'idle'", timeout=90_000)


def run_all(page: Any) -> None:
    page.evaluate("() => window.jupyterapp.commands.execute('notebook:run-all-cells')")


def source(page: Any, index: int) -> str:
    return page.evaluate(f"i => {NB}.content.model.cells.get(i).sharedModel.getSource()", index)  # type: ignore[no-any-return]


def card(page: Any, code: str) -> Any:
    return page.locator(".aiperf-card").filter(has_text=code).first


def button(scope: Any, name: str) -> Any:
    # ipywidgets puts an icon glyph before the label
    return scope.get_by_role("button", name=re.compile(rf"(^|\W){re.escape(name)}$"))


def type_into_cell(page: Any, index: int, text: str) -> None:
    page.locator(".jp-Notebook .jp-Cell").nth(index).locator(".cm-content").click()
    page.keyboard.press("Control+End")
    page.keyboard.type(text)


def wait_for_panel(page: Any) -> None:
    panel = page.locator(".aiperf-panel").first
    expect(panel).to_be_visible(timeout=120_000)
    expect(panel.locator(".aiperf-header")).to_be_visible(timeout=60_000)


def show_cell(page: Any, index: int) -> None:
    page.locator(".jp-Notebook .jp-Cell").nth(index).locator(".jp-InputArea").scroll_into_view_if_needed()


def apply_and_undo(page: Any, found: Any, index: int, original: str, shots: Any, rerun: bool = False) -> str:
    """Apply then Undo through the real extension; returns the applied text."""
    button(found, "Apply").click()
    expect(found.locator(".aiperf-status-ok")).to_contain_text("Applied")
    applied = source(page, index)
    assert applied != original
    # the panel now describes code the cell no longer holds, and says so at its top
    stale = panel_of(found).locator(".aiperf-stale")
    expect(stale).to_be_visible()
    expect(stale).to_contain_text("Code changed")
    show_cell(page, index)
    shots("applied")
    if rerun:
        # Re-run runs the cell again through the extension: its new report replaces this panel,
        # and measures the code Apply wrote (no row loop left to report)
        count = page.evaluate(f"i => {NB}.content.model.cells.get(i).toJSON().execution_count", index)
        button(stale, "Re-run").click()
        page.wait_for_function(
            f"([i, n]) => {NB}.content.model.cells.get(i).toJSON().execution_count > n", arg=[index, count],
            timeout=180_000,
        )
        assert source(page, index) == applied
        wait_for_panel(page)
        cell = page.locator(".jp-Notebook .jp-Cell").nth(index)
        expect(cell.locator(".aiperf-stale")).to_be_hidden()
        expect(cell.locator(".aiperf-card").filter(has_text="AIP301")).to_have_count(0)
        shots("re-run")
        return applied
    expect(button(found, "Undo")).to_be_enabled()
    button(found, "Undo").click()
    expect(found.locator(".aiperf-status-ok")).to_contain_text("Undone")
    expect(stale).to_be_hidden()
    assert source(page, index) == original  # byte for byte
    show_cell(page, index)
    shots("undone")
    return applied


def panel_of(found: Any) -> Any:
    return found.locator("xpath=ancestor::div[contains(@class, 'aiperf-panel')][1]")


def refused_after_edit(page: Any, found: Any, index: int, shots: Any) -> None:
    type_into_cell(page, index, "\n# edited by hand")
    edited = source(page, index)
    assert edited.endswith("# edited by hand")
    # the panel turns Apply off as soon as the cell differs from what ran...
    apply = button(found, "Apply")
    expect(apply).to_be_disabled()
    assert "edited after it ran" in (apply.get_attribute("title") or "")
    # ...and the notebook extension still refuses an edit of a changed cell (a click that got through)
    apply.evaluate("b => { b.disabled = false; b.click(); }")
    expect(found.locator(".aiperf-status-error")).to_contain_text("edited after aiperf ran it")
    assert source(page, index) == edited
    found.locator(".aiperf-status-error").scroll_into_view_if_needed()
    shots("refused-after-edit")


def check_probe(page: Any, server: Any, name: str) -> None:
    shots = page.shots
    write_notebook(server, name, PROBE)
    open_notebook(page, server, name)
    run_all(page)
    wait_for_panel(page)
    found = card(page, "AIP301")
    found.scroll_into_view_if_needed()
    shots("panel")
    # markup in messages, titles, diffs and notes is text, and none of it ran
    expect(found).to_contain_text("Row loop <img src=x onerror=")
    panel = page.locator(".aiperf-panel")
    for shown in ("bad value <img src=x", "col <img src=x", "value <img src=x", "x = '<img src=x"):
        expect(panel).to_contain_text(shown)
    assert page.evaluate(f"() => window.{XSS_FLAG}") is None
    original = source(page, 0)
    expect(button(found, "Apply")).to_be_disabled()
    button(found, "Try").click()
    expect(found.locator(".aiperf-equal")).to_contain_text("equal")
    expect(found.locator(".aiperf-speedup")).to_contain_text("×12.50")
    expect(button(found, "Apply")).to_be_enabled()
    shots("tried")
    assert apply_and_undo(page, found, 0, original, shots) == PROBE_REWRITTEN
    if server.app == "lab":
        refused_after_edit(page, found, 0, shots)
    assert page.evaluate(f"() => window.{XSS_FLAG}") is None


def test_lab_probe_try_apply_undo_refuse_and_xss(page: Any, lab: Any) -> None:
    check_probe(page, lab, "probe.ipynb")


def test_notebook7_probe_smoke(page: Any, notebook7: Any) -> None:
    check_probe(page, notebook7, "probe7.ipynb")


def test_lab_without_the_extension_falls_back_to_copy(page: Any, lab: Any) -> None:
    # A comm target nobody registered is what a front end without the extension sees.
    missing = "import aiperf_magic.apply.bridge as _bridge\n_bridge.COMM_TARGET = 'aiperf_magic_absent'\n"
    write_notebook(lab, "fallback.ipynb", PROBE.replace("\n", "\n" + missing, 1))
    open_notebook(page, lab, "fallback.ipynb")
    run_all(page)
    wait_for_panel(page)
    found = card(page, "AIP301")
    original = source(page, 0)
    button(found, "Try").click()
    expect(found.locator(".aiperf-equal")).to_be_visible()
    button(found, "Apply").click()
    expect(found.locator(".aiperf-status-error")).to_contain_text("did not answer")
    expect(found.locator(".aiperf-copy")).to_be_visible()
    expect(found.locator(".aiperf-fallback")).to_contain_text("%aiperf apply 1")
    assert source(page, 0) == original
    page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=lab.url)
    found.locator(".aiperf-copy").click()
    assert page.evaluate("() => navigator.clipboard.readText()") == PROBE_REWRITTEN
    found.locator(".aiperf-fallback").scroll_into_view_if_needed()
    page.shots("fallback")


def test_lab_magic_cell_shows_the_panel(page: Any, lab: Any) -> None:
    busy = "%%aiperf\nimport time\nend = time.perf_counter() + 1.0\nwhile time.perf_counter() < end:\n    pass"
    write_notebook(lab, "magic.ipynb", "%load_ext aiperf_magic", busy)
    open_notebook(page, lab, "magic.ipynb")
    run_all(page)
    wait_for_panel(page)
    panel = page.locator(".aiperf-panel")
    expect(panel.locator(".aiperf-header")).to_contain_text("wall")
    # the static copy published after the panel is hidden wherever the panel is drawn
    expect(page.locator(".aiperf-report")).to_be_attached()
    expect(page.locator(".aiperf-report")).to_be_hidden()
    # the timeline is one click away, drawn as an image (no plotting library in the page's state)
    timeline = panel.locator("details.aiperf-section").filter(has_text="Timeline")
    expect(timeline.locator("img.aiperf-timeline")).to_be_hidden()
    timeline.locator("summary").click()
    expect(timeline.locator("img.aiperf-timeline")).to_be_visible()
    assert timeline.locator("img.aiperf-timeline").evaluate("i => i.naturalWidth > 0 && i.complete")
    assert page.locator(".js-plotly-plot").count() == 0
    page.shots("magic-panel")


def test_lab_two_notebooks_on_one_kernel_edit_only_the_cell_that_ran(page: Any, lab: Any) -> None:
    # Both notebooks hold the same text; only the cell id tells them apart.
    write_notebook(lab, "shared_a.ipynb", PROBE)
    write_notebook(lab, "shared_b.ipynb", PROBE)
    open_notebook(page, lab, "shared_b.ipynb")
    kernel_id = page.evaluate(f"() => {NB}.sessionContext.session.kernel.id")
    page.evaluate(
        "k => window.jupyterapp.commands.execute('docmanager:open', {path: 'shared_a.ipynb', kernel: {id: k}})",
        kernel_id,
    )
    page.wait_for_function(f"() => {NB}.context.path === 'shared_a.ipynb'")
    page.wait_for_function(f"k => {NB}.sessionContext.session?.kernel?.id === k", arg=kernel_id)
    page.wait_for_function(f"() => {NB}.sessionContext.session?.kernel?.status === 'idle'")
    run_all(page)
    wait_for_panel(page)
    found = card(page.locator(".jp-NotebookPanel:not(.lm-mod-hidden)"), "AIP301")
    button(found, "Try").click()
    expect(found.locator(".aiperf-equal")).to_be_visible()
    button(found, "Apply").click()
    expect(found.locator(".aiperf-status-ok")).to_contain_text("Applied")
    sources = page.evaluate(
        """() => Object.fromEntries(Array.from(window.jupyterapp.shell.widgets('main'))
             .filter(w => w.context && w.content && w.content.model)
             .map(w => [w.context.path, w.content.model.cells.get(0).sharedModel.getSource()]))"""
    )
    assert sources == {"shared_a.ipynb": PROBE_REWRITTEN, "shared_b.ipynb": PROBE}
    page.shots("applied-in-a-only")


def test_lab_reopened_notebook_panel_still_applies(page: Any, lab: Any) -> None:
    # The kernel keeps running; the reopened notebook restores the panel from it.
    write_notebook(lab, "reopen.ipynb", PROBE)
    open_notebook(page, lab, "reopen.ipynb")
    run_all(page)
    wait_for_panel(page)
    button(card(page, "AIP301"), "Try").click()
    expect(card(page, "AIP301").locator(".aiperf-equal")).to_be_visible()
    page.evaluate(f"async () => {{ await {NB}.context.save(); {NB}.dispose(); }}")
    page.wait_for_function("() => !window.jupyterapp.shell.currentWidget?.context")
    page.evaluate("() => window.jupyterapp.commands.execute('docmanager:open', {path: 'reopen.ipynb'})")
    page.wait_for_function(f"() => {NB}?.context?.path === 'reopen.ipynb'")
    wait_for_panel(page)
    found = card(page, "AIP301")
    button(found, "Apply").click()
    expect(found.locator(".aiperf-status-ok")).to_contain_text("Applied")
    assert source(page, 0) == PROBE_REWRITTEN
    page.shots("reopened-and-applied")


def test_lab_row_loop_from_slow_cell_to_applied_rewrite_and_back(page: Any, lab: Any) -> None:
    shots = page.shots
    write_notebook(lab, "rowloop.ipynb", SETUP, ROW_LOOP)
    open_notebook(page, lab, "rowloop.ipynb")
    run_all(page)
    wait_for_panel(page)
    found = card(page, "AIP301")
    expect(found).to_be_visible()
    found.scroll_into_view_if_needed()
    shots("panel")
    original = source(page, 1)
    assert original == ROW_LOOP
    button(found, "Try").click()
    expect(found.locator(".aiperf-equal")).to_contain_text("equal", timeout=180_000)
    speed = found.locator(".aiperf-speedup").inner_text()
    match = re.search(r"×([0-9.]+)", speed)
    assert match and float(match.group(1)) > 1.0, speed
    expect(button(found, "Apply")).to_be_enabled()
    shots("tried")
    applied = apply_and_undo(page, found, 1, original, shots)
    assert applied.startswith("%%aiperf\n") and "iterrows" not in applied
    refused_after_edit(page, found, 1, shots)
    # the fallback line magic puts the same rewrite in a new cell below it
    page.evaluate(
        f"""() => {{ const nb = {NB}.content;
             nb.model.sharedModel.insertCell(2, {{cell_type: 'code', source: '%aiperf apply 1'}});
             nb.activeCellIndex = 2;
             return window.jupyterapp.commands.execute('notebook:run-cell'); }}"""
    )
    page.wait_for_function(f"() => {NB}.content.model.cells.length === 4")
    assert source(page, 3) == applied
    show_cell(page, 3)
    shots("apply-n-inserted")


def test_lab_rerun_after_apply_measures_the_new_code(page: Any, lab: Any) -> None:
    write_notebook(lab, "rerun.ipynb", SETUP, ROW_LOOP)
    open_notebook(page, lab, "rerun.ipynb")
    run_all(page)
    wait_for_panel(page)
    found = card(page, "AIP301")
    button(found, "Try").click()
    expect(found.locator(".aiperf-equal")).to_contain_text("equal", timeout=180_000)
    applied = apply_and_undo(page, found, 1, ROW_LOOP, page.shots, rerun=True)
    assert "iterrows" not in applied


CLUSTER_SETUP = """%load_ext aiperf_magic
from distributed import Client, LocalCluster
cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0", silence_logs=40)
client = Client(cluster)"""
ODD_KEY = "<img src=x onerror='window.__aiperf_xss = 3'>-1"  # a task key is the user's text
CLUSTER_CELL = "%%aiperf\n" + HEAVY + f"odd = client.submit(heavy, 60, key={ODD_KEY!r}).result()"


def test_lab_cluster_cell_shows_the_cluster_section(page: Any, lab: Any) -> None:
    pytest.importorskip("distributed")
    write_notebook(lab, "cluster.ipynb", CLUSTER_SETUP, CLUSTER_CELL, "client.close()\ncluster.close()")
    open_notebook(page, lab, "cluster.ipynb")
    run_all(page)
    wait_for_panel(page)
    panel = page.locator(".aiperf-panel")
    # the driver waited on the workers: the verdict says so and names their function
    expect(panel.locator(".aiperf-verdict")).to_contain_text("AIP910", timeout=60_000)
    expect(panel.locator(".aiperf-verdict")).to_contain_text("heavy")
    section = panel.locator("details.aiperf-section").filter(has_text="Cluster (")
    expect(section.locator("summary")).to_contain_text("2 workers")
    assert section.evaluate("d => d.open")  # open from the start: the cell's work was on the cluster
    facts = section.locator("table.aiperf-cluster")
    expect(facts).to_contain_text("tasks")
    expect(facts.locator("a")).to_have_attribute("href", re.compile(r"^http://127\.0\.0\.1:\d+/status$"))
    expect(panel.locator(".aiperf-verdict")).not_to_contain_text("onerror")  # under 1 %: not named
    busy = section.locator("img.aiperf-cluster-busy")
    expect(busy).to_be_visible()
    assert busy.evaluate("i => i.naturalWidth > 0 && i.complete")
    functions = section.locator("table.aiperf-hotspots")
    expect(functions.locator("code").first).to_have_text("heavy")
    # a task key is the user's text: shown as text, never as markup
    expect(functions).to_contain_text("<img src=x onerror='window.__aiperf_xss = 3'>")
    assert section.locator("table.aiperf-hotspots img").count() == 0
    assert page.evaluate(f"() => window.{XSS_FLAG}") is None
    section.scroll_into_view_if_needed()
    page.shots("cluster-panel")
