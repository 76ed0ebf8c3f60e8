"""The interactive panel: one anywidget per Report, with Try / Apply / Undo / Re-run.

The panel renders what the Report holds and calls the library for anything new (``verify`` for
Try, the bridge for Apply and Undo); it measures nothing itself. Its state is JSON
(:mod:`.viewmodel` for the report, :mod:`.actions` for what the buttons changed); its view is
``panel.js``, which sends each click back as a custom message handled here.

``panel_outputs`` publishes the panel as its own output, followed by the static text and HTML
views in a second one. Front ends that draw the panel hide that second output (``panel.css``);
everywhere else (nbconvert, GitHub, a notebook reopened without its kernel) it is what shows.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...apply.bridge import Bridge, Reply, cell_text, ran_text
from ...report import Finding, Report
from ..frontend import WIDGET_MIME
from .actions import EarlierCellEdit, FixAction, PanelContext, Verify, shared_bridge, slim
from .viewmodel import panel_data
from .widget import PanelWidget

BY_HAND = "Run the cell again (Ctrl+Enter) to measure the new code."

STALE = "Code changed: this report is for the code as it ran. Re-run the cell to measure the new code."


@dataclass
class FindingCard:
    """One listed finding; ``n`` is its 1-based number in the report (as ``%aiperf apply N`` counts)."""

    n: int
    finding: Finding
    controls: FixAction | None


class Panel:
    """The widget for one Report and the actions behind its buttons."""

    def __init__(self, ctx: PanelContext) -> None:
        report = ctx.report
        self.data = panel_data(report)
        # the cell's text as it ran, and its id: the page disables Apply while that cell holds anything else
        self.data["ran"] = ran_text(report)
        self.data["cell_id"] = report.cell_id
        self.ctx = PanelContext(slim(report), ctx.verify, ctx.bridge, ctx.namespace)
        self.findings: list[FindingCard] = []
        self.actions: dict[str, FixAction] = {}
        for item in self.data["findings"]:
            n = item["n"]
            finding = report.findings[n - 1]
            controls = None
            if "fix" in item and finding.fix is not None:
                controls = FixAction(self.ctx, n, finding.fix, frame=item.get("frame"))
                controls.on_change = self.push
                self.actions[str(n)] = controls
            self.findings.append(FindingCard(n, finding, controls))
        self.rerun_status: tuple[str, str] | None = None
        self.view = PanelWidget(data=self.data, ui=self.ui_state())
        self.view.on_msg(self._on_msg)

    @property
    def stale(self) -> bool:
        """True while an applied fix has changed the cell since it ran."""
        return any(a.edit.applied for a in self.actions.values())

    def ui_state(self) -> dict[str, Any]:
        stale = None
        if self.stale:
            kind, text = self.rerun_status or ("info", STALE)
            stale = {"text": text, "kind": kind}
        return {"fixes": {key: a.state() for key, a in self.actions.items()}, "stale": stale}

    def push(self) -> None:
        if not self.stale:
            self.rerun_status = None
        view = getattr(self, "view", None)
        if view is not None:
            view.ui = self.ui_state()

    def handle(self, content: Any) -> None:
        """One message from the browser: ``{"do", "key", "value"}``; ``do`` is one of try, apply, undo,
        confirm, allow_io, stop (for the fix ``key``) or rerun."""
        if not isinstance(content, dict):
            return
        do, action = content.get("do"), self.actions.get(str(content.get("key")))
        if do == "rerun":
            self.rerun()
        elif action is None:
            return
        elif do == "try":
            action.try_fix()
        elif do == "apply":
            action.edit.apply()
        elif do == "undo":
            action.edit.undo()
        elif do == "confirm":
            action.set_confirmed(content.get("value") is True)
        elif do == "allow_io":
            action.set_allow_io(content.get("value") is True)
        elif do == "stop":
            action.stop()

    def _on_msg(self, _widget: Any, content: Any, _buffers: Any) -> None:
        self.handle(content)

    def rerun(self) -> None:
        applied = next((a for a in self.actions.values() if a.edit.applied), None)
        if applied is None:
            return
        if isinstance(applied.edit, EarlierCellEdit):  # this cell calls the old function until that cell runs
            self.rerun_status = ("info", f"Run {applied.edit.name} again (it defines the function), then this cell.")
            self.push()
            return
        self.rerun_status = ("info", "Asking the notebook to run the cell…")
        self.push()
        # like an edit: the notebook runs the cell only if it still holds the text Apply wrote
        self.ctx.bridge.request("run", self.ctx.report.cell_id, None, cell_text(self.ctx.report, applied.fix.source),
                                self._ran)

    def _ran(self, reply: Reply) -> None:
        if reply.ok:
            self.rerun_status = ("ok", "Running the cell again: its new report replaces this one.")
        else:
            # an older extension refuses "run" as an unknown op: nothing to add to the advice
            known = reply.missing_extension or reply.reason.startswith("Unknown op")
            self.rerun_status = ("info", BY_HAND if known else f"{BY_HAND} ({reply.reason})")
        self.push()


def build_panel(
    report: Report,
    *,
    verify: Verify | None = None,
    bridge: Bridge | None = None,
    namespace: dict[str, Any] | None = None,
) -> Panel:
    ctx = PanelContext(report, bridge=bridge or shared_bridge())
    if verify is not None:
        ctx.verify = verify
    if namespace is not None:
        ctx.namespace = namespace
    return Panel(ctx)


def widget_bundle(panel: Panel) -> dict[str, Any]:
    """The panel's own output. Its text is empty: the static output after it says it all."""
    return {"text/plain": "", WIDGET_MIME: {"version_major": 2, "version_minor": 0, "model_id": panel.view.model_id}}


def panel_outputs(report: Report, text: str, html: str, **deps: Any) -> list[dict[str, Any]]:
    """The panel, then the static views (hidden wherever the panel is drawn)."""
    panel = build_panel(report, **deps)
    return [widget_bundle(panel), {"text/plain": text, "text/html": html}]
