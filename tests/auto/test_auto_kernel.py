"""Auto mode in a real kernel, driven as JupyterLab drives it: notes land in the cell's own output,
cell ids are kept, and ``%aiperf report`` carries the widget view beside its text and HTML."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
WIDGET_MIME = "application/vnd.jupyter.widget-view+json"


@pytest.fixture(scope="module")
def kernel():
    from jupyter_client.manager import start_new_kernel

    km, kc = start_new_kernel(kernel_name="python3", cwd=str(ROOT))
    try:
        yield kc
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=True)


def execute(kc: Any, code: str, cell_id: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """One execute request with the cell id in its metadata; returns (reply content, iopub outputs)."""
    content = {"code": code, "silent": False, "store_history": True, "user_expressions": {},
               "allow_stdin": False, "stop_on_error": True}
    msg = kc.session.msg("execute_request", content, metadata={"cellId": cell_id})
    kc.shell_channel.send(msg)
    msg_id = msg["header"]["msg_id"]
    while True:
        reply = kc.get_shell_msg(timeout=60)
        if reply["parent_header"].get("msg_id") == msg_id:
            break
    outputs = []
    while True:
        io = kc.get_iopub_msg(timeout=60)
        if io["parent_header"].get("msg_id") != msg_id:
            continue
        if io["msg_type"] == "status" and io["content"]["execution_state"] == "idle":
            return reply["content"], outputs
        if io["msg_type"] in ("stream", "execute_result", "display_data", "error"):
            outputs.append(io)


def stdout(outputs: list[dict[str, Any]]) -> str:
    return "".join(o["content"]["text"] for o in outputs if o["msg_type"] == "stream")


def test_notes_cell_ids_and_the_report_in_a_kernel(kernel):
    assert execute(kernel, "%load_ext aiperf_magic", "c-load")[0]["status"] == "ok"
    reply, out = execute(kernel, "%aiperf auto on --threshold 0.2", "c-auto")
    assert reply["status"] == "ok" and "aiperf auto: on" in stdout(out)

    reply, out = execute(kernel, "import time\ntime.sleep(0.3)", "c-slow")
    assert stdout(out).startswith(f"aiperf [{reply['execution_count']}]: ")  # in the slow cell's own output
    reply, out = execute(kernel, "x = 1", "c-fast")
    assert reply["status"] == "ok" and out == []  # quiet
    reply, out = execute(kernel, "raise RuntimeError('nope')", "c-fail")
    assert reply["status"] == "error"

    reply, out = execute(kernel, "%aiperf report", "c-report")
    (result,) = [o for o in out if o["msg_type"] == "execute_result"]
    data = result["content"]["data"]
    assert "import time" in data["text/plain"] and "aiperf-cells" in data["text/html"]
    assert data[WIDGET_MIME]["model_id"]  # plotly chart and table as widgets in a live kernel

    code = ("import json\nrows = _.table.rows\n"
            "print(json.dumps([[r.cell_id, r.first_line, r.error] for r in rows]))")
    reply, out = execute(kernel, code, "c-inspect")
    rows = json.loads(stdout(out))
    assert rows[0][:2] == ["c-slow", "import time"]
    assert {r[0] for r in rows} == {"c-slow", "c-fast", "c-fail"}
    assert [r[2] for r in rows if r[0] == "c-fail"] == ["RuntimeError: nope"]

    reply, out = execute(kernel, "%aiperf auto off", "c-off")
    assert "off" in stdout(out)
    reply, out = execute(kernel, "import threading\nprint(sorted(t.name for t in threading.enumerate() "
                                 "if t.name.startswith('aiperf-')))", "c-threads")
    assert stdout(out).strip() == "[]"
