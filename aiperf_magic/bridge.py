"""The kernel side of one-click apply: asks the notebook to rewrite a cell, and the fallbacks.

The JupyterLab 4 / Notebook 7 extension (``labextension/``) listens on the comm target
``aiperf_magic``. Each edit opens one comm whose open message carries the request
``{op, cell_id, source, expect}``; the extension answers ``{ok, reason, new_cell_id}`` and closes
it. Replies arrive as kernel messages after the widget callback that asked has returned, so every
request is asynchronous and ends in exactly one call of its ``on_done``.

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

from .report import Finding, Report

COMM_TARGET = "aiperf_magic"
REPLY_TIMEOUT_S = 5.0
OPS = ("replace", "insert_below", "undo")
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
    ) -> None:
        self._open_comm = open_comm or _default_comm_factory
        self._timer = timer or _default_timer
        self.timeout_s = timeout_s
        self.extension_missing = False  # learned from the last request; the panel shows fallbacks

    def request(
        self,
        op: str,
        cell_id: str | None,
        source: str | None,
        expect: str,
        on_done: Callable[[Reply], None],
    ) -> None:
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
            finish(parse_reply((msg.get("content") or {}).get("data")))

        def on_close(_msg: dict[str, Any]) -> None:
            # A close before any reply means no handler took the request.
            finish(Reply(False, NO_EXTENSION, missing_extension=True))

        payload = {"op": op, "cell_id": cell_id, "source": source, "expect": expect}
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
    new_id = data.get("new_cell_id")
    return Reply(
        ok=data["ok"],
        reason=str(data.get("reason") or ""),
        new_cell_id=new_id if isinstance(new_id, str) else None,
    )


def pick_finding(report: Report, token: str) -> tuple[int, Finding] | str:
    """Finds ``N`` (1-based, as numbered in the panel and text report) or a rule code like AIP301."""
    findings = report.findings
    if token.isdigit():
        n = int(token)
        if 1 <= n <= len(findings):
            return n, findings[n - 1]
        return f"There is no finding {n}: the last report has {len(findings)}."
    for n, finding in enumerate(findings, 1):
        if finding.code.upper() == token.upper():
            return n, finding
    codes = ", ".join(f.code for f in findings) or "none"
    return f"No finding {token!r} in the last report (it has: {codes})."


APPLY_USAGE = "Usage: %aiperf apply N   (N is the finding's number in the last %%aiperf report, or its code)"


def apply_command(ctx: Any, argv: list[str]) -> None:
    """``%aiperf apply N``: puts finding N's rewrite in a new cell below, for you to run.

    The original cell is left as it was. This is the fallback when the notebook extension is
    missing; it works in any front end that honours ``set_next_input`` (JupyterLab, Notebook,
    VS Code, the IPython terminal).
    """
    if len(argv) != 1:
        print(APPLY_USAGE)
        return
    report = ctx.state.last_report
    if report is None:
        print("No %%aiperf report yet: run a cell with %%aiperf first.")
        return
    picked = pick_finding(report, argv[0])
    if isinstance(picked, str):
        print(picked)
        return
    n, finding = picked
    fix = finding.fix
    if fix is None or not fix.source:
        why = fix.reason if fix is not None and fix.reason else "this rule offers no automatic rewrite"
        print(f"Finding {n} ({finding.code}) has no rewrite: {why}.")
        return
    # replace=False: a new cell below, so nothing the user wrote is overwritten.
    ctx.shell.set_next_input(cell_text(report, fix.source), replace=False)
    note = _tried_note(ctx.state.comparisons.get(fix.source), fix.safety)
    print(f"Inserted the rewrite for finding {n} ({finding.code}: {fix.title}) as the next cell.{note}")


def _tried_note(tried: Any, safety: str) -> str:
    """What ``%aiperf try`` proved about this rewrite, for the line printed after inserting it."""
    if tried is None:
        return " It was not checked for equal results; try it first." if safety == "unsafe" else ""
    if tried.blocked:
        return f" It was not tried: {tried.blocked} (a try never repeats that); check it before relying on it."
    if tried.error or tried.refused:
        return " Its try did not complete; check it before relying on it."
    if not tried.equal:
        return f" Careful: its try gave different results ({tried.difference})."
    speed = f", {tried.speedup:.1f}x faster" if tried.speedup else ""
    return f" Its try gave equal results{speed}."
