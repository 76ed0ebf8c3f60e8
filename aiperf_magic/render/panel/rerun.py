"""Re-run after Apply: asks the notebook to run the measured cell again.

The request travels like the edits do (one comm on the extension's target, the request in the
open message) as ``{op: "run", cell_id, expect}``: run the cell if it holds ``expect``. A
notebook extension that does not know the op answers with a refusal, and the panel then tells the
user to run the cell themselves; no cell is ever run that holds other text than the panel expects.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable
from typing import Any

from ...apply.bridge import COMM_TARGET, Reply, parse_reply

RUN_OP = "run"
TIMEOUT_S = 5.0
BY_HAND = "Run the cell again (Ctrl+Enter) to measure the new code."


def _create_comm(**kwargs: Any) -> Any:
    from comm import create_comm

    return create_comm(**kwargs)


def request_run(
    cell_id: str | None,
    expect: str,
    on_done: Callable[[Reply], None],
    *,
    open_comm: Callable[..., Any] | None = None,
    timeout_s: float = TIMEOUT_S,
) -> None:
    """Sends one run request; ``on_done`` gets exactly one Reply (a refusal when nobody answers)."""
    if not cell_id:
        on_done(Reply(False, BY_HAND))
        return
    lock = threading.Lock()
    done = False
    comm: Any = None

    def finish(reply: Reply) -> None:
        nonlocal done
        with lock:
            if done:
                return
            done = True
        timer.cancel()
        if comm is not None:
            with contextlib.suppress(Exception):
                comm.close()
        on_done(reply)

    timer = threading.Timer(timeout_s, lambda: finish(Reply(False, BY_HAND, missing_extension=True)))
    timer.daemon = True
    try:
        request = {"op": RUN_OP, "cell_id": cell_id, "expect": expect}
        comm = (open_comm or _create_comm)(target_name=COMM_TARGET, data=request)
    except Exception as exc:  # no kernel comm layer (a plain shell)
        on_done(Reply(False, f"{BY_HAND} ({type(exc).__name__})"))
        return
    comm.on_msg(lambda msg: finish(parse_reply((msg.get("content") or {}).get("data"))))
    comm.on_close(lambda _msg: finish(Reply(False, BY_HAND, missing_extension=True)))
    timer.start()
