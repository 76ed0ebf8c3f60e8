"""What the panel's buttons do: the shared context, and Apply / Undo of one proposed edit.

The panel never measures: Try calls the injected ``verify`` and shows the Comparison it returns;
Apply and Undo ask the notebook extension through the Bridge. Bridge replies arrive after the
button callback has returned, so the controls keep a small state and redraw when one comes.
"""

from __future__ import annotations

import sys
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import ipywidgets as widgets

from ...apply.bridge import Bridge, Reply, cell_text, ran_text
from ...report import Comparison, Report
from .html import BAD_COLOR, MUTED, OK_COLOR, esc

Verify = Callable[..., Comparison]
REPEAT = 5


def _default_verify(
    before: str, after: str, namespace: dict[str, Any], repeat: int = REPEAT, **options: Any
) -> Comparison:
    from ...verification import verify

    return verify(before, after, namespace, repeat=repeat, **options)


def _user_namespace() -> dict[str, Any]:
    # IPython installs the user's namespace as the ``__main__`` module, in terminals and kernels.
    main = sys.modules.get("__main__")
    return vars(main) if main is not None else {}


_BRIDGE: Bridge | None = None


def shared_bridge() -> Bridge:
    """One Bridge per kernel, so a missing extension is learned once for every panel."""
    global _BRIDGE
    if _BRIDGE is None:
        _BRIDGE = Bridge()
    return _BRIDGE


@dataclass
class PanelContext:
    """What a panel's buttons need, injected so tests can use fakes."""

    report: Report
    verify: Verify = _default_verify
    bridge: Bridge = field(default_factory=shared_bridge)
    namespace: dict[str, Any] = field(default_factory=_user_namespace)

    def run_verify(self, before: str, after: str, **options: Any) -> Comparison:
        """Calls verify; a verify that raises becomes a Comparison carrying the error.

        ``options`` (allow_io, progress, cancel) reach the real verify only; an injected one gets none.
        """
        try:
            if options and self.verify is _default_verify:
                return self.verify(before, after, self.namespace, repeat=REPEAT, **options)
            return self.verify(before, after, self.namespace, repeat=REPEAT)
        except Exception as exc:
            text = "".join(traceback.format_exception_only(type(exc), exc)).strip()
            return Comparison(equal=False, error=text)

    def tries_in_background(self) -> bool:
        """True when Try may run beside the kernel: the real verify, in forked copies (a Stop button works)."""
        from ...verification import fork_available

        return self.verify is _default_verify and fork_available()[0]


def status_html(text: str, kind: str = "info") -> str:
    color = {"ok": OK_COLOR, "error": BAD_COLOR}.get(kind, MUTED)
    return f'<div class="aiperf-status aiperf-status-{kind}" style="color:{color}">{esc(text)}</div>'


def copy_html(text: str, hint: str = "") -> str:
    """A Copy button for front ends without the extension; the text is escaped, never markup."""
    return (
        '<div class="aiperf-fallback">'
        '<button class="aiperf-copy" '
        "onclick=\"navigator.clipboard.writeText(this.parentElement.querySelector('pre').textContent)\">"
        "Copy</button> "
        f'<span style="color:{MUTED}">{esc(hint)}</span>'
        f'<pre style="display:none">{esc(text)}</pre></div>'
    )


class EditControls:
    """Apply and Undo for one edit of the measured cell: a replacement or a new cell below it."""

    def __init__(
        self,
        ctx: PanelContext,
        body: str,
        *,
        insert: bool = False,
        apply_label: str = "Apply",
        fallback_hint: str = "",
    ) -> None:
        self.ctx = ctx
        self.insert = insert
        report = ctx.report
        # Apply keeps the cell's own ``%%aiperf`` line; an inserted cell holds only the new code.
        self.new_text = body if insert else cell_text(report, body)
        self.old_text = ran_text(report)
        self.fallback_hint = fallback_hint
        self.allowed = False  # set by the owner: Try proved equality, or the user confirmed
        self.applied = False
        self.busy = False
        self.new_cell_id: str | None = None
        self.apply_button = widgets.Button(description=apply_label, icon="check", disabled=True)
        self.undo_button = widgets.Button(description="Undo", icon="undo", disabled=True)
        self.status = widgets.HTML("")
        self.fallback = widgets.HTML("")
        self.apply_button.on_click(lambda _b: self.apply())
        self.undo_button.on_click(lambda _b: self.undo())
        self.on_change: Callable[[], None] = lambda: None

    def refresh(self) -> None:
        self.apply_button.disabled = self.busy or self.applied or not self.allowed
        self.undo_button.disabled = self.busy or not self.applied

    def apply(self) -> None:
        if self.busy or self.applied or not self.allowed:
            return
        self._send(
            "insert_below" if self.insert else "replace",
            self.ctx.report.cell_id,
            self.new_text,
            self.old_text,
            self._applied,
        )

    def undo(self) -> None:
        if self.busy or not self.applied:
            return
        if self.insert:
            self._send("undo", self.new_cell_id, None, self.new_text, self._undone)
        else:
            self._send("undo", self.ctx.report.cell_id, self.old_text, self.new_text, self._undone)

    def _send(self, op: str, cell_id: str | None, source: str | None, expect: str, done: Any) -> None:
        self.busy = True
        self.status.value = status_html("Asking the notebook to edit the cell…")
        self.refresh()
        self.on_change()
        self.ctx.bridge.request(op, cell_id, source, expect, done)

    def _applied(self, reply: Reply) -> None:
        if reply.ok:
            self.applied = True
            self.new_cell_id = reply.new_cell_id
            where = "in a new cell below" if self.insert else "to the cell"
            self.status.value = status_html(f"Applied {where}. Undo restores it exactly.", "ok")
        self._finish(reply)

    def _undone(self, reply: Reply) -> None:
        if reply.ok:
            self.applied = False
            self.status.value = status_html("Undone: the cell is back as it ran.", "ok")
        self._finish(reply)

    def _finish(self, reply: Reply) -> None:
        self.busy = False
        if not reply.ok:
            self.status.value = status_html(reply.reason, "error")
            if reply.missing_extension:
                self.fallback.value = copy_html(self.new_text, self.fallback_hint)
        self.refresh()
        self.on_change()
