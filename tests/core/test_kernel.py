"""%%aiperf in a real kernel (nbclient): output order, failing cells stop Run All, the cell id."""

from __future__ import annotations

import json
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionError

ROOT = Path(__file__).resolve().parents[2]


def run_notebook(cells: list[str], allow_errors: bool = False) -> nbformat.NotebookNode:
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(src) for src in cells]
    client = NotebookClient(nb, kernel_name="python3", timeout=60, allow_errors=allow_errors,
                            resources={"metadata": {"path": str(ROOT)}})
    client.execute()
    return nb


def test_outputs_keep_their_order_and_the_report_comes_last():
    nb = run_notebook([
        "%load_ext aiperf_magic",
        "%%aiperf --var r\nprint('first')\nfrom IPython.display import display, HTML\n"
        "display(HTML('<b>middle</b>'))\nprint('last')\n6 * 7",
        "import json; print(json.dumps({'id': r.cell_id, 'wall': r.wall_s, 'source': r.source}))",
    ])
    outputs = nb.cells[1].outputs
    kinds = [(o.output_type, o.get("text", "") or "".join(o.get("data", {}).get("text/plain", ""))) for o in outputs]
    assert kinds[0] == ("stream", "first\n")
    assert kinds[1][0] == "display_data" and "middle" in outputs[1].data["text/html"]
    assert kinds[2] == ("stream", "last\n")
    assert kinds[3] == ("execute_result", "42")
    # the panel, then the static report as the last output (hidden where the panel is drawn)
    assert outputs[4].output_type == "display_data"
    assert "application/vnd.jupyter.widget-view+json" in outputs[4].data
    assert outputs[5].output_type == "display_data" and len(outputs) == 6
    assert "aiperf" in outputs[5].data["text/plain"]
    assert 'class="aiperf-report"' in outputs[5].data["text/html"]
    data = json.loads(nb.cells[2].outputs[0].text)
    assert data["id"] is None  # nbclient sends no cell id (JupyterLab does: see the next test)
    assert data["source"].startswith("print('first')")


def test_a_failing_cell_is_an_error_reply_and_stops_run_all():
    with pytest.raises(CellExecutionError) as info:
        run_notebook(["%load_ext aiperf_magic", "%%aiperf\nx = 1\nraise ValueError('broken data')",
                      "never = True"])
    assert "ValueError" in str(info.value) and "broken data" in str(info.value)


def test_a_failing_cell_shows_one_traceback_at_the_users_line_then_the_report():
    nb = run_notebook(["%load_ext aiperf_magic", "%%aiperf --var r\nx = 1\n{}['missing']",
                       "print(r.error.type, r.error.line)"], allow_errors=True)
    outs = nb.cells[1].outputs
    errors = [o for o in outs if o.output_type == "error"]
    assert len(errors) == 1 and errors[0].ename == "KeyError"
    tb = "\n".join(errors[0].traceback)
    assert "line 3" in tb and "aiperf_magic" not in tb
    assert outs[-1].output_type == "display_data" and "KeyError" in outs[-1].data["text/plain"]
    assert nb.cells[2].outputs[0].text.strip() == "KeyError 2"


def test_the_report_carries_the_cell_id_that_jupyterlab_sends():
    import os

    from jupyter_client.manager import start_new_kernel

    # Jupyter Server starts a notebook's kernel with the notebook's path in JPY_SESSION_NAME
    env = {**os.environ, "JPY_SESSION_NAME": str(ROOT / "work" / "train.ipynb")}
    km, kc = start_new_kernel(kernel_name="python3", cwd=str(ROOT), env=env)

    def execute(code: str, cell_id: str) -> dict:
        """An execute request as JupyterLab 4 sends it: the cell id rides in the metadata."""
        content = {"code": code, "silent": False, "store_history": True, "user_expressions": {},
                   "allow_stdin": False, "stop_on_error": True}
        msg = kc.session.msg("execute_request", content, metadata={"cellId": cell_id})
        kc.shell_channel.send(msg)
        while True:
            reply = kc.get_shell_msg(timeout=30)
            if reply["parent_header"].get("msg_id") == msg["header"]["msg_id"]:
                return reply

    try:
        assert execute("%load_ext aiperf_magic", "c0")["content"]["status"] == "ok"
        assert execute("%%aiperf --var r\nx = 1", "cell-1234")["content"]["status"] == "ok"
        origin = "__import__('aiperf_magic.apply.origin').apply.origin.ORIGINS.lookup('cell-1234')"
        reply = kc.execute_interactive("", user_expressions={"id": "r.cell_id", "origin": origin}, timeout=30)
        expressions = reply["content"]["user_expressions"]
        assert expressions["id"]["data"]["text/plain"] == "'cell-1234'"
        # the notebook that ran it: its path, and the session of the connection that sent the request
        assert expressions["origin"]["data"]["text/plain"] == (
            f"Origin(path={str(ROOT / 'work' / 'train.ipynb')!r}, session={kc.session.session!r})"
        )
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=True)


def test_ctrl_c_during_the_work_after_the_cell_stops_it_quietly():
    """Ctrl-C while aiperf profiles the cell's frames: no "Error in callback", no traceback, the
    reply is the cell's own (ok), the report comes with what was done, and the kernel goes on."""
    import time

    from jupyter_client.manager import start_new_kernel

    km, kc = start_new_kernel(kernel_name="python3", cwd=str(ROOT))

    def execute(code: str, interrupt_after: str | None = None) -> tuple[dict, list[dict], float]:
        msg_id = kc.execute(code)
        outputs, interrupted_at = [], 0.0
        while True:
            msg = kc.get_iopub_msg(timeout=120)
            if msg["parent_header"].get("msg_id") != msg_id:
                continue
            outputs.append(msg)
            content = msg["content"]
            if interrupt_after and msg["msg_type"] == "stream" and interrupt_after in content.get("text", ""):
                time.sleep(1.2)  # the body is done: aiperf is profiling frames now (about 0.1 s each)
                interrupted_at = time.monotonic()
                km.interrupt_kernel()
            if msg["msg_type"] == "status" and content["execution_state"] == "idle":
                break
        return kc.get_shell_msg(timeout=30), outputs, time.monotonic() - interrupted_at

    try:
        execute("%load_ext aiperf_magic")
        body = (
            "%%aiperf --text --no-gpu --budget 600 --var r\n"
            "import numpy as np, pandas as pd\n"
            "block = np.arange(20_000 * 150).reshape(20_000, 150).astype(object)\n"
            "for i in range(30):\n"
            "    globals()[f'frame{i}'] = pd.DataFrame(block)\n"
            "print('BODY-DONE', flush=True)\n"
        )
        reply, outputs, waited = execute(body, interrupt_after="BODY-DONE")
        assert reply["content"]["status"] == "ok"
        assert waited < 5, "the work after the cell did not stop at Ctrl-C"
        texts = [m["content"].get("text", "") for m in outputs if m["msg_type"] == "stream"]
        shown = [m["content"]["data"]["text/plain"] for m in outputs if m["msg_type"] == "display_data"]
        assert not [m for m in outputs if m["msg_type"] == "error"]
        assert not any("Error in callback" in t or "Traceback" in t or "KeyboardInterrupt" in t for t in texts)
        (report,) = shown
        assert "Stopped by Ctrl-C during frames" in report and "frames not profiled (stopped by Ctrl-C)" in report
        check = kc.execute_interactive(
            "", user_expressions={"frames": "len(r.frames)",  # aiperf's threads at work (the parked sampler is not)
                                  "threads": "[t.name for t in __import__('aiperf_magic.measure.sampler', "
                                  "fromlist=['live_threads']).live_threads()]"}, timeout=30)
        expressions = check["content"]["user_expressions"]
        assert 1 <= int(expressions["frames"]["data"]["text/plain"]) < 30  # what was done is in the report
        assert expressions["threads"]["data"]["text/plain"] == "[]"
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=True)
