"""The one-click protocol in a real JupyterLab: requests name the notebook the cell ran in, and Undo
only undoes what the extension did.

A copied notebook keeps its cells' ids and text. Opened beside the original, on the same kernel,
it is the hardest case: only the notebook the request names may change.
"""

from __future__ import annotations

import shutil
import time
from typing import Any

import nbformat
import pytest
from playwright.sync_api import expect

from .test_panel_browser import NB, ROW_LOOP, SETUP, button, wait_for_panel

pytestmark = [pytest.mark.browser, pytest.mark.slow]

MAIN = "Array.from(window.jupyterapp.shell.widgets('main')).filter(w => w.context && w.content?.model)"
RUN_IN = """async ([path, code]) => {
  const panel = MAIN.find(w => w.context.path === path);
  const future = panel.sessionContext.session.kernel.requestExecute({code, store_history: false});
  let out = '';
  future.onIOPub = msg => { if (msg.header.msg_type === 'stream') out += msg.content.text; };
  await future.done;
  return out;
}""".replace("MAIN", MAIN)
# Ask the extension for an edit the way the panel does, through the kernel's Bridge.
ASK = """from aiperf_magic.apply.bridge import Bridge
from aiperf_magic.apply.origin import Origin
_replies = []
Bridge().request({op!r}, {cell_id!r}, {source!r}, {expect!r}, _replies.append, notebook=Origin(None, {session!r}))
"""


def sources(page: Any) -> dict[str, list[str]]:
    return page.evaluate(  # type: ignore[no-any-return]
        f"""() => Object.fromEntries({MAIN}.map(w => [w.context.path,
             Array.from({{length: w.content.model.cells.length}},
                        (_, i) => w.content.model.cells.get(i).sharedModel.getSource())]))"""
    )


def panel_of(page: Any, path: str) -> Any:
    # the notebook's own DOM node: both notebooks are visible side by side
    node_id = page.evaluate(f"p => {MAIN}.find(w => w.context.path === p).id", path)
    return page.locator(f"#{node_id}")


def run_cell_in(page: Any, path: str, index: int) -> None:
    """Runs one cell the way a user does: click its prompt, Ctrl+Enter (no new cell below)."""
    panel_of(page, path).locator(".jp-Cell").nth(index).locator(".jp-InputPrompt").click()
    page.wait_for_function(f"p => {NB}.context.path === p", arg=path)
    page.keyboard.press("Control+Enter")


def run_and_wait(page: Any, path: str, index: int) -> None:
    """Runs the cell and waits until the kernel has answered it."""
    run_cell_in(page, path, index)
    page.wait_for_function(
        f"""([p, i]) => {{ const w = {MAIN}.find(w => w.context.path === p);
             const cell = w.content.widgets[i];
             return cell.model.executionCount !== null && cell.promptNode.textContent.indexOf('*') < 0; }}""",
        arg=[path, index],
        timeout=180_000,
    )


def ask(page: Any, path: str, op: str, cell_id: str, source: str | None, expect_text: str) -> str:
    """Sends one request from the kernel, naming the notebook at ``path``; returns the reply."""
    session = page.evaluate(f"p => {MAIN}.find(w => w.context.path === p).sessionContext.session.kernel.clientId", path)
    code = ASK.format(op=op, cell_id=cell_id, source=source, expect=expect_text, session=session)
    page.evaluate(RUN_IN, [path, code])
    deadline = time.monotonic() + 20
    while page.evaluate(RUN_IN, [path, "print(len(_replies))"]).strip() != "1":  # the reply is a kernel message
        assert time.monotonic() < deadline, "no reply from the extension"
        time.sleep(0.2)
    return page.evaluate(RUN_IN, [path, "print(_replies[0].ok, _replies[0].reason)"]).strip()  # type: ignore[no-any-return]


def test_lab_copied_notebook_sharing_cell_ids_edits_only_the_one_that_ran(page: Any, lab: Any) -> None:
    shots = page.shots
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nb.cells = [nbformat.v4.new_code_cell(SETUP, id="setup-cell"), nbformat.v4.new_code_cell(ROW_LOOP, id="loop-cell")]
    nbformat.write(nb, lab.root / "original.ipynb")
    shutil.copyfile(lab.root / "original.ipynb", lab.root / "copy.ipynb")  # same ids, same text

    page.goto(f"{lab.url}/lab/tree/original.ipynb?reset")
    page.wait_for_function(f"() => window.jupyterapp && {NB} && {NB}.sessionContext")
    page.wait_for_function(f"() => {NB}.sessionContext.session?.kernel?.status === 'idle'", timeout=90_000)
    kernel_id = page.evaluate(f"() => {NB}.sessionContext.session.kernel.id")
    page.evaluate(
        """k => window.jupyterapp.commands.execute('docmanager:open',
             {path: 'copy.ipynb', kernel: {id: k}, options: {mode: 'split-right'}})""",
        kernel_id,
    )
    page.wait_for_function(f"() => {NB}.context.path === 'copy.ipynb'")
    page.wait_for_function(f"k => {NB}.sessionContext.session?.kernel?.id === k", arg=kernel_id)
    page.wait_for_function(f"() => {NB}.sessionContext.session?.kernel?.status === 'idle'")
    clients = page.evaluate(f"() => {MAIN}.map(w => w.sessionContext.session.kernel.clientId)")
    paths = page.evaluate(f"() => {MAIN}.map(w => w.context.path)")
    assert paths == ["original.ipynb", "copy.ipynb"] and len(set(clients)) == 2  # one connection each

    # Both run the same cell id, the copy last: "the latest run" would name the copy. (Only the first
    # connection to a kernel in a page handles comms, so the original shows the panel.)
    run_and_wait(page, "original.ipynb", 0)
    run_and_wait(page, "original.ipynb", 1)
    wait_for_panel(panel_of(page, "original.ipynb"))
    run_and_wait(page, "copy.ipynb", 0)
    run_and_wait(page, "copy.ipynb", 1)
    lookup = "from aiperf_magic.apply.origin import ORIGINS\nprint(ORIGINS.lookup('loop-cell').session)"
    latest = page.evaluate(RUN_IN, ["original.ipynb", lookup])
    assert latest.strip() == clients[1], (latest, clients)  # the kernel saw the copy run it last
    shots("both-ran")
    before = sources(page)
    assert before["copy.ipynb"] == before["original.ipynb"] == [SETUP, ROW_LOOP]
    # Apply in the original's panel: the request names the original, though the copy ran last
    found = panel_of(page, "original.ipynb").locator(".aiperf-card").filter(has_text="AIP301").first
    found.scroll_into_view_if_needed()
    button(found, "Try").click()
    expect(found.locator(".aiperf-equal")).to_contain_text("equal", timeout=180_000)
    button(found, "Apply").click()
    expect(found.locator(".aiperf-status-ok")).to_contain_text("Applied")
    after = sources(page)
    assert after["copy.ipynb"] == [SETUP, ROW_LOOP]  # the copy is untouched
    assert after["original.ipynb"][0] == SETUP and "iterrows" not in after["original.ipynb"][1]
    shots("applied-in-the-original-only")
    button(found, "Undo").click()
    expect(found.locator(".aiperf-status-ok")).to_contain_text("Undone")
    assert sources(page) == before
    shots("undone-in-the-original")

    # Undo is only for what the extension did: a cell it never inserted is not deleted...
    reply = ask(page, "original.ipynb", "undo", "setup-cell", None, SETUP)
    assert reply.startswith("False aiperf did not make this edit"), reply
    # ... and a cell it never replaced is not rewritten, even when its text matches
    reply = ask(page, "original.ipynb", "undo", "loop-cell", "x = 1\n", ROW_LOOP)
    assert reply.startswith("False aiperf did not make this edit"), reply
    assert sources(page) == before
    # an insert made by the extension can be undone, once
    reply = ask(page, "original.ipynb", "insert_below", "loop-cell", "inserted = True\n", ROW_LOOP)
    assert reply == "True", reply
    new_id = page.evaluate(f"() => {MAIN}.find(w => w.context.path === 'original.ipynb').content.model.cells.get(2).id")
    now = sources(page)
    assert now["original.ipynb"][2] == "inserted = True\n" and now["copy.ipynb"] == before["copy.ipynb"]
    reply = ask(page, "original.ipynb", "undo", new_id, None, "inserted = True\n")
    assert reply == "True", reply
    assert sources(page) == before
    shots("forged-undo-refused")
