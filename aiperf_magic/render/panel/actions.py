"""What the panel's buttons do: Try, Apply and Undo of one fix, as small state machines.

The panel never measures: Try calls the injected ``verify`` and keeps the Comparison it returns;
Apply and Undo ask the notebook extension through the Bridge. Bridge replies arrive after the
message that asked has been handled, so each action keeps a little state and calls its
``on_change`` whenever that state moves; the panel then sends the new state to the browser.
Nothing here imports a widget library: the same logic runs under tests with a fake bridge.
"""

from __future__ import annotations

import os
import sys
import threading
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from ...apply.bridge import Bridge, Reply, cell_text, ran_text
from ...report import Comparison, Fix, Report, Samples
from .outcome import outcome

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


def slim(report: Report) -> Report:
    """What the buttons need of a Report (its cell, magic line, id and fixes), without the samples,
    hot lines and frames: a panel lives as long as its kernel, and so does what it holds."""
    return replace(report, samples=Samples(), hotspots=[], frames=[], notes=[], torch_profile=None)


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


def _nothing() -> None:
    return None


class EditAction:
    """Apply and Undo for one edit of the measured cell: a replacement or a new cell below it."""

    def __init__(self, ctx: PanelContext, body: str, *, insert: bool = False, fallback_hint: str = "") -> None:
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
        self.status: tuple[str, str] | None = None  # (kind, text); kind "info", "ok" or "error"
        self.fallback: dict[str, str] | None = None  # Copy's text and the line magic to run instead
        self.on_change: Callable[[], None] = _nothing

    @property
    def can_apply(self) -> bool:
        return not (self.busy or self.applied) and self.allowed

    @property
    def can_undo(self) -> bool:
        return not self.busy and self.applied

    def apply(self) -> None:
        if not self.can_apply:
            return
        op = "insert_below" if self.insert else "replace"
        self._send(op, self.ctx.report.cell_id, self.new_text, self.old_text, self._applied)

    def undo(self) -> None:
        if not self.can_undo:
            return
        if self.insert:
            self._send("undo", self.new_cell_id, None, self.new_text, self._undone)
        else:
            self._send("undo", self.ctx.report.cell_id, self.old_text, self.new_text, self._undone)

    def _send(self, op: str, cell_id: str | None, source: str | None, expect: str, done: Any) -> None:
        self.busy = True
        self.status = ("info", "Asking the notebook to edit the cell…")
        self.on_change()
        self.ctx.bridge.request(op, cell_id, source, expect, done)

    def _applied(self, reply: Reply) -> None:
        if reply.ok:
            self.applied = True
            self.new_cell_id = reply.new_cell_id
            where = "in a new cell below" if self.insert else "to the cell"
            self.status = ("ok", f"Applied {where}. Undo restores it exactly.")
        self._finish(reply)

    def _undone(self, reply: Reply) -> None:
        if reply.ok:
            self.applied = False
            self.status = ("ok", "Undone: the cell is back as it ran.")
        self._finish(reply)

    def _finish(self, reply: Reply) -> None:
        self.busy = False
        if not reply.ok:
            self.status = ("error", reply.reason)
            if reply.missing_extension:
                self.fallback = {"text": self.new_text, "hint": self.fallback_hint}
        self.on_change()


class EarlierCellEdit(EditAction):
    """Apply and Undo for a rewrite of the earlier cell that defines a function the measured cell
    calls: the notebook replaces the nearest cell above the measured one that still holds the text
    that cell ran with (``Fix.cell_ran``), and Undo puts that text back."""

    def __init__(self, ctx: PanelContext, fix: Fix, *, fallback_hint: str = "") -> None:
        super().__init__(ctx, fix.source, fallback_hint=fallback_hint)  # old_text: the measured cell as it ran
        self.name = fix.cell or "the earlier cell"
        self.ran, self.new_text = fix.cell_ran, fix.cell_source

    def apply(self) -> None:
        if not self.can_apply:
            return
        self.busy = True
        self.status = ("info", f"Asking the notebook to edit {self.name}…")
        self.on_change()
        self.ctx.bridge.request("replace_above", self.ctx.report.cell_id, self.new_text, self.old_text, self._applied,
                                above=self.ran, above_name=self.name)

    def undo(self) -> None:
        if self.can_undo:
            self._send("undo", self.new_cell_id, self.ran, self.new_text, self._undone)

    def _applied(self, reply: Reply) -> None:
        if reply.ok:
            self.applied = True
            self.new_cell_id = reply.new_cell_id  # the edited cell: Undo names it
            self.status = ("ok", f"Applied to {self.name}, which defines the function. Run {self.name} again, "
                                 "then this cell, to measure the new code. Undo restores it exactly.")
        elif reply.reason.startswith("Unknown op"):  # an older extension: it edits only the measured cell
            reply = replace(reply, reason=f"This notebook extension cannot edit {self.name}: replace the function "
                                          f"there by hand with the rewrite shown ({self.fallback_hint.strip()})")
        self._finish(reply)


class FixAction:
    """Try, Apply and Undo for one Fix of the measured cell.

    Apply stays disabled until a Try proved the rewrite gives equal results; an unsafe fix can also
    be applied after the user ticks the explicit confirmation. A "measure first" fix (its gain
    depends on the data's size) is applied only after a Try measured it equal *and* faster: no
    confirmation stands in for that measurement.
    """

    def __init__(self, ctx: PanelContext, n: int, fix: Fix, frame: dict[str, str] | None = None) -> None:
        self.ctx = ctx
        self.n = n
        self.fix = fix
        self.frame = frame  # for a dtype fix: the frame's size before and after, shown beside Try's result
        self.comparison: Comparison | None = None
        self.unsafe = fix.safety == "unsafe"
        self.measure_first = fix.measure_first is not None
        self.confirmed = False
        self.progress = ""
        self.allow_io = False  # the user allowed the cell's writes to run (offered once a Try was blocked)
        self.allow_io_offer = False
        self.stoppable = False  # a Try runs beside the kernel: Stop can end it
        self.cancel = threading.Event()
        hint = f"or run  %aiperf apply {n}"
        self.edit = EarlierCellEdit(ctx, fix, fallback_hint=hint) if fix.cell else EditAction(ctx, fix.source,
                                                                                             fallback_hint=hint)
        self.on_change: Callable[[], None] = _nothing
        self.edit.on_change = self._changed

    @property
    def proven(self) -> bool:
        c = self.comparison
        return (c is not None and c.equal and not c.error and not c.timed_out and not c.refused
                and not getattr(c, "blocked", None))

    @property
    def pays(self) -> bool:
        """Try proved the rewrite equal and measured it faster."""
        c = self.comparison
        return self.proven and c is not None and c.better

    def _changed(self) -> None:
        if self.measure_first:
            self.edit.allowed = self.pays
        else:
            self.edit.allowed = self.proven or (self.unsafe and self.confirmed)
        self.on_change()

    def gate(self) -> str | None:
        """Why Apply stays off after a Try of a measure-first fix (equal, but no faster here)."""
        if self.measure_first and self.proven and not self.pays:
            c = self.comparison
            speed = f"×{c.speedup:.2f}" if c is not None and c.speedup else "No faster"
            cores = os.cpu_count() or 1
            return (
                f"{speed} on this machine: {cores} core{'s' if cores != 1 else ''}; not worth it here. "
                "Equal results, but not faster on this data: Apply stays off for a rewrite whose gain "
                "depends on size."
            )
        return None

    def set_confirmed(self, value: bool) -> None:
        if self.unsafe and not self.measure_first:
            self.confirmed = value
            self._changed()

    def set_allow_io(self, value: bool) -> None:
        self.allow_io = value and self.allow_io_offer
        self.on_change()

    def stop(self) -> None:
        self.cancel.set()

    def try_fix(self) -> None:
        if self.edit.busy:
            return
        self.edit.busy = True
        self.comparison = None
        self.cancel.clear()
        # the state is sent as soon as it changes, so this line shows while verify runs
        self.progress = f"Running the original and the rewrite {1 + REPEAT} times each in copies of the kernel…"
        self._changed()
        options: dict[str, Any] = {
            "allow_io": self.allow_io,
            "progress": self._progress,
            "first_line": self.ctx.report.cell_line(1),
            "expected_s": self.ctx.report.wall_s or None,  # sizes the Try to the cell's time
        }
        if self.fix.rebind:  # a rewrite of an earlier cell's function: the trials rebind it, then run this cell
            options["rebind"] = self.fix.rebind
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
        self.stoppable = True
        thread = threading.Thread(target=self._run, args=(options,), name="aiperf-try", daemon=True)
        thread.start()
        while thread.is_alive() and not started.wait(0.05):
            pass

    def _progress(self, done: int, total: int, text: str) -> None:
        self.progress = f"{text} · Stop cancels" if self.stoppable else text
        self.on_change()

    def _run(self, options: dict[str, Any]) -> None:
        try:
            self.comparison = c = self.ctx.run_verify(self.ctx.report.source, self.fix.source, **options)
            if getattr(c, "blocked", None):
                self.allow_io_offer = True
        finally:
            self.edit.busy = False
            self.stoppable = False
            self.progress = ""
            self._changed()

    def state(self) -> dict[str, Any]:
        edit = self.edit
        return {
            "try": not edit.busy,
            "apply": edit.can_apply,
            "undo": edit.can_undo,
            "busy": edit.busy,
            "progress": self.progress,
            "stop": self.stoppable,
            "allow_io_offer": self.allow_io_offer,
            "allow_io": self.allow_io,
            "runs": 1 + REPEAT,
            "result": outcome(self.comparison, self.frame) if self.comparison is not None else None,
            "status": list(edit.status) if edit.status else None,
            "fallback": edit.fallback,
            "unsafe": self.unsafe,
            "measure_first": self.measure_first,
            "gate": self.gate(),
            "proven": self.proven,  # an equal Try: the "Allow Apply without an equal Try" box has no use left
            "confirmed": self.confirmed,
            "applied": edit.applied,
        }
