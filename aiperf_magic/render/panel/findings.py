"""The panel's Findings: one card per finding, with its rule doc, diff, Try, Apply and Undo.

Apply stays disabled until a Try proved the rewrite gives equal results; an unsafe fix can also be
applied after the user ticks the explicit confirmation.
"""

from __future__ import annotations

import importlib
import threading
from typing import Any

import ipywidgets as widgets

from ...report import Comparison, Finding, Fix
from .actions import REPEAT, EditControls, PanelContext, status_html
from .html import MUTED, code_block, comparison_html, diff_block, esc
from .timeline import comparison_figure

WHY_SECTIONS = ("Why is this bad?", "Use instead", "Fix safety")


def rule_doc(code: str) -> str | None:
    """The "Why" of a rule: its documentation's why, what to write instead, and fix safety."""
    try:
        analysis = importlib.import_module("aiperf_magic.rules")
        rule = analysis.all_rules().get(code)
    except Exception:  # no catalog, or it failed to load: the card shows the message alone
        return None
    if rule is None:
        return None
    sections = getattr(rule, "sections", None) or {}
    parts = [f"{name}\n{sections[name]}" for name in WHY_SECTIONS if sections.get(name)]
    return "\n\n".join(parts) if parts else (rule.doc or None)


CARD_LAYOUT = {"border": "1px solid #d0d7de", "padding": "4px", "margin": "4px 0"}


class FixControls:
    """Diff, Try, Apply and Undo for one Fix of the measured cell."""

    def __init__(self, ctx: PanelContext, n: int, fix: Fix, try_label: str = "Try") -> None:
        self.ctx = ctx
        self.fix = fix
        self.comparison: Comparison | None = None
        self.unsafe = fix.safety == "unsafe"
        label = f"Fix: {fix.title}" + (" (unsafe: results may differ)" if self.unsafe else "")
        title = widgets.HTML(f"<div><b>{esc(label)}</b></div>")
        diff = widgets.HTML(diff_block(fix.diff) if fix.diff else code_block(fix.source))
        self.try_button = widgets.Button(
            description=try_label, icon="play", tooltip="Run before and after on copies of your data"
        )
        self.try_button.on_click(lambda _b: self.try_fix())
        self.edit = EditControls(ctx, fix.source, fallback_hint=f"or run  %aiperf apply {n}")
        self.edit.on_change = self.refresh
        self.confirm = widgets.Checkbox(
            value=False,
            description="Allow Apply without an equal Try (I accept that results may differ)",
            indent=False,
            layout={"width": "auto"},
        )
        self.confirm.layout.display = "" if self.unsafe else "none"
        self.confirm.observe(lambda _c: self.refresh(), names="value")
        self.progress = widgets.HTML("")
        self.result = widgets.HTML("")
        self.chart = widgets.Box([])
        # Try never repeats a cell's writes; after a Try refused one, the user may allow them
        runs = 1 + REPEAT  # verification.planned_runs(REPEAT); render does not import verification
        self.allow_io = widgets.Checkbox(
            value=False,
            description=f"Allow the cell's writes (each version runs {runs} more times, for real)",
            indent=False,
            layout={"width": "auto", "display": "none"},
        )
        self.stop_button = widgets.Button(description="Stop", icon="stop", layout={"display": "none"})
        self.cancel = threading.Event()
        self.stop_button.on_click(lambda _b: self.cancel.set())
        buttons = widgets.HBox([self.try_button, self.stop_button, self.edit.apply_button, self.edit.undo_button])
        self.refresh()
        self.parts: list[Any] = [
            title,
            diff,
            buttons,
            self.confirm,
            self.allow_io,
            self.progress,
            self.result,
            self.chart,
            self.edit.status,
            self.edit.fallback,
        ]

    @property
    def proven(self) -> bool:
        c = self.comparison
        return c is not None and c.equal and not c.error and not c.timed_out and not c.blocked

    def refresh(self) -> None:
        self.edit.allowed = self.proven or (self.unsafe and self.confirm.value)
        self.edit.refresh()
        self.try_button.disabled = self.edit.busy

    def try_fix(self) -> None:
        if self.edit.busy:
            return
        self.edit.busy = True
        self.refresh()
        # Widget state is sent as soon as it changes, so this line shows while verify runs.
        self.progress.value = status_html(
            f"Running the original and the rewrite {1 + REPEAT} times each in copies of the kernel…"
        )
        self.result.value = ""
        self.chart.children = ()
        self.cancel.clear()
        options: dict[str, Any] = {"allow_io": self.allow_io.value, "progress": self._progress}
        if not self.ctx.tries_in_background():
            self._run(options)
            return
        # The trials run in forked copies: the kernel only waits, so it waits in a thread and Stop
        # works. The click returns once the copy is taken, so the next cell cannot race the fork.
        started = threading.Event()

        def progress(done: int, total: int, text: str) -> None:
            started.set()
            self._progress(done, total, text)

        options.update(progress=progress, cancel=self.cancel)
        self.stop_button.layout.display = ""
        thread = threading.Thread(target=self._run, args=(options,), name="aiperf-try", daemon=True)
        thread.start()
        while thread.is_alive() and not started.wait(0.05):
            pass

    def _progress(self, done: int, total: int, text: str) -> None:
        stoppable = self.stop_button.layout.display == ""
        self.progress.value = status_html(f"{text} · Stop cancels" if stoppable else text)

    def _run(self, options: dict[str, Any]) -> None:
        try:
            self.comparison = c = self.ctx.run_verify(self.ctx.report.source, self.fix.source, **options)
            self.result.value = comparison_html(c)
            if c.blocked:
                self.allow_io.layout.display = ""
            if c.before_s and c.after_s and not c.error:
                self.chart.children = (comparison_figure(c.before_s, c.after_s),)
        finally:
            self.progress.value = ""
            self.stop_button.layout.display = "none"
            self.edit.busy = False
            self.refresh()


class FindingCard:
    """One finding; ``n`` is its 1-based number in the report (as ``%aiperf apply N`` counts)."""

    def __init__(self, ctx: PanelContext, n: int, finding: Finding) -> None:
        self.finding = finding
        where = f"line {ctx.report.cell_line(finding.line)}" if finding.line else "cell"
        head = widgets.HTML(
            f'<div class="aiperf-finding"><b>{n}. {esc(finding.code)}</b> '
            f'<span style="color:{MUTED}">{esc(where)}</span> {esc(finding.message)}</div>'
        )
        parts: list[Any] = [head]
        doc = rule_doc(finding.code)
        if doc:
            why = widgets.Accordion(children=[widgets.HTML(code_block(doc))])
            why.set_title(0, "Why")
            why.selected_index = None
            parts.append(why)
        fix = finding.fix
        self.controls: FixControls | None = None
        if fix is not None and fix.source:
            self.controls = FixControls(ctx, n, fix)
            parts.extend(self.controls.parts)
        elif fix is not None and fix.reason:
            parts.append(widgets.HTML(f'<div style="color:{MUTED}">No rewrite: {esc(fix.reason)}</div>'))
        self.view = widgets.VBox(parts, layout=CARD_LAYOUT)
        self.view.add_class("aiperf-card")


def findings_view(ctx: PanelContext) -> tuple[Any, list[FindingCard]]:
    cards = [FindingCard(ctx, n, f) for n, f in enumerate(ctx.report.findings, 1)]
    if not cards:
        return widgets.HTML(f'<div style="color:{MUTED}">No known performance traps in this cell.</div>'), cards
    return widgets.VBox([c.view for c in cards]), cards
