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
    from jupyter_client.manager import start_new_kernel

    km, kc = start_new_kernel(kernel_name="python3", cwd=str(ROOT))

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
        reply = kc.execute_interactive("", user_expressions={"id": "r.cell_id"}, timeout=30)
        assert reply["content"]["user_expressions"]["id"]["data"]["text/plain"] == "'cell-1234'"
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=True)
