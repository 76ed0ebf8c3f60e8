"""The kernel side of one-click apply: asks the notebook to rewrite a cell, and the fallbacks.

The JupyterLab 4 / Notebook 7 extension (``labextension/``) listens on the comm target
``aiperf_magic``. Each edit opens one comm whose open message carries the request
``{op, cell_id, source, expect, path, session}`` (and ``above``, ``above_name`` for an edit of an earlier
cell): ``path`` and ``session`` name the notebook the
cell ran in (:mod:`.origin`), so that a copied notebook with the same cell ids is never edited in
its place. The extension answers ``{ok, reason, new_cell_id, path}`` and closes the comm; it undoes
only edits it made itself. Replies arrive as kernel messages after the widget callback that asked
has returned, so every request is asynchronous and ends in exactly one call of its ``on_done``.

Without the extension the front end closes the comm at once (no such target), or never answers
(front ends that drop unknown comms); either way the reply says ``missing_extension`` and the
panel switches to its fallbacks: a Copy button and ``%aiperf apply N``, which inserts the fix as a
new cell through ``set_next_input`` while a cell executes, never from a widget callback.

Nothing here imports IPython: the kernel, shell and comm factory are passed in.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from ..report import Report
from .origin import ORIGINS, Origin, Origins, ParentSource, kernel_parent, parent_session

COMM_TARGET = "aiperf_magic"
REPLY_TIMEOUT_S = 5.0
# run: run the cell again if it holds `expect`; replace_above: replace the nearest cell above that holds
# `above` (the earlier cell that defines a function the cell calls) with `source`
OPS = ("replace", "insert_below", "replace_above", "undo", "run")
DEFAULT_MAGIC_LINE = "%%aiperf"

NO_CELL_ID = (
    "This front end did not say which cell ran (JupyterLab 4 and Notebook 7 do), so aiperf cannot "
    "edit it. Use Copy, or %aiperf apply N to insert the fix as a new cell."
)
NO_EXTENSION = (
    "The aiperf-magic notebook extension did not answer (it is not installed or not enabled here). "
    "Use Copy, or %aiperf apply N to insert the fix as a new cell."
)


class CommLike(Protocol):
    def on_msg(self, callback: Callable[[dict[str, Any]], None]) -> None: ...
    def on_close(self, callback: Callable[[dict[str, Any]], None]) -> None: ...
    def close(self) -> None: ...


CommFactory = Callable[..., CommLike]
TimerFactory = Callable[[float, Callable[[], None]], Any]  # returns an object with start()/cancel()


@dataclass
class Reply:
    ok: bool
    reason: str = ""
    new_cell_id: str | None = None
    missing_extension: bool = False  # True: fall back to Copy and ``%aiperf apply``
    path: str | None = None  # the notebook the extension edited (as the front end names it)


def cell_text(report: Report, body: str) -> str:
    """The full cell text for ``body`` under the report's own ``%%aiperf`` line."""
    return f"{report.magic_line or DEFAULT_MAGIC_LINE}\n{body}"


def ran_text(report: Report) -> str:
    """The cell text as it ran (the magic keeps the body exactly as the front end sent it)."""
    return cell_text(report, report.source)


def _default_comm_factory(**kwargs: Any) -> CommLike:
    from comm import create_comm

    return create_comm(**kwargs)  # type: ignore[no-any-return]


def _default_timer(seconds: float, fn: Callable[[], None]) -> Any:
    timer = threading.Timer(seconds, fn)
    timer.daemon = True
    return timer


class Bridge:
    """Sends edit requests to the notebook extension; one comm per request."""

    def __init__(
        self,
        open_comm: CommFactory | None = None,
        timer: TimerFactory | None = None,
        timeout_s: float = REPLY_TIMEOUT_S,
        origins: Origins | None = None,
        parent: ParentSource = kernel_parent,
    ) -> None:
        self._open_comm = open_comm or _default_comm_factory
        self._timer = timer or _default_timer
        self.timeout_s = timeout_s
        self.origins = origins if origins is not None else ORIGINS
        self._parent = parent  # the message being answered: in a button callback, the click
        self.extension_missing = False  # learned from the last request; the panel shows fallbacks

    def request(
        self,
        op: str,
        cell_id: str | None,
        source: str | None,
        expect: str,
        on_done: Callable[[Reply], None],
        *,
        notebook: Origin | None = None,
        above: str | None = None,
        above_name: str | None = None,
    ) -> None:
        """Ask the notebook for one edit. ``notebook`` names where the cell ran; by default the
        notebook recorded when the cell ran (the one whose panel was clicked, if it ran in several).
        ``above`` (for ``replace_above``) is the text the earlier cell to replace ran with, and
        ``above_name`` how the user knows it ("cell [3]")."""
        if op not in OPS:
            raise ValueError(f"op must be one of {OPS}, not {op!r}")
        if not cell_id:
            on_done(Reply(False, NO_CELL_ID, missing_extension=True))
            return
        lock = threading.Lock()
        done = False
        comm: CommLike | None = None
        timer: Any = None

        def finish(reply: Reply) -> None:
            nonlocal done
            with lock:
                if done:
                    return
                done = True
            if timer is not None:
                timer.cancel()
            if comm is not None:
                with contextlib.suppress(Exception):  # already closed by the front end
                    comm.close()
            self.extension_missing = reply.missing_extension
            on_done(reply)

        def on_msg(msg: dict[str, Any]) -> None:
            reply = parse_reply((msg.get("content") or {}).get("data"))
            if reply.ok and reply.new_cell_id:  # an inserted cell lives in the same notebook
                self.origins.remember(reply.new_cell_id, Origin(reply.path or origin.path, origin.session))
            finish(reply)

        def on_close(_msg: dict[str, Any]) -> None:
            # A close before any reply means no handler took the request.
            finish(Reply(False, NO_EXTENSION, missing_extension=True))

        origin = notebook or self.origins.lookup(cell_id, parent_session(self._parent())) or Origin()
        payload = {"op": op, "cell_id": cell_id, "source": source, "expect": expect, **origin.fields()}
        if above is not None:
            payload.update(above=above, above_name=above_name)
        comm = self._open_comm(target_name=COMM_TARGET, data=payload)
        comm.on_msg(on_msg)
        comm.on_close(on_close)
        silent = Reply(False, NO_EXTENSION, missing_extension=True)
        timer = self._timer(self.timeout_s, lambda: finish(silent))
        timer.start()


def parse_reply(data: Any) -> Reply:
    """A Reply from the extension's message, refusing anything malformed."""
    if not isinstance(data, dict) or not isinstance(data.get("ok"), bool):
        return Reply(False, f"The notebook sent an unexpected reply: {data!r}")
    new_id, path = data.get("new_cell_id"), data.get("path")
    return Reply(
        ok=data["ok"],
        reason=str(data.get("reason") or ""),
        new_cell_id=new_id if isinstance(new_id, str) else None,
        path=path if isinstance(path, str) else None,
    )
