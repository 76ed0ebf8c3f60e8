"""The panel's Findings: one card per finding, with its rule doc, diff, Try, Apply and Undo.

Apply stays disabled until a Try proved the rewrite gives equal results; an unsafe fix can also be
applied after the user ticks the explicit confirmation.
"""

from __future__ import annotations

import importlib
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
        buttons = widgets.HBox([self.try_button, self.edit.apply_button, self.edit.undo_button])
        self.refresh()
        self.parts: list[Any] = [
            title,
            diff,
            buttons,
            self.confirm,
            self.progress,
            self.result,
            self.chart,
            self.edit.status,
            self.edit.fallback,
        ]

    @property
    def proven(self) -> bool:
        c = self.comparison
        return c is not None and c.equal and not c.error and not c.timed_out

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
            f"Running the original and the rewrite {REPEAT} times each on copies of your data…"
        )
        self.result.value = ""
        self.chart.children = ()
        try:
            self.comparison = self.ctx.run_verify(self.ctx.report.source, self.fix.source)
        finally:
            self.edit.busy = False
            self.progress.value = ""
        c = self.comparison
        self.result.value = comparison_html(c)
        if c.before_s and c.after_s and not c.error:
            self.chart.children = (comparison_figure(c.before_s, c.after_s),)
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
