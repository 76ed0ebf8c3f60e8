"""The one before/after-cell hook: ``%%aiperf`` cells are measured in full, other cells lightly when
auto mode is on.

IPython runs every cell itself (so ``_``, ``Out``, display, ``!cmd``, ``%magic``, top-level
``await``, exceptions and KeyboardInterrupt behave as usual); this hook only starts a measurement
in ``pre_run_cell`` and finishes it in ``post_run_cell``. A cell that calls ``run_cell`` itself is
covered by the outer measurement: the inner events are counted and passed over.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from ..cell.source import split_magic_cell
from ..measure import warmup

_EVENTS = ("pre_run_cell", "post_run_cell")
_NO_RESULT: Any = object()  # shells older than IPython 7 call post_run_cell without a result


class Measurer(Protocol):
    """What the hook drives: ``begin`` returns a handle (None: nothing to measure), ``end`` finishes it."""

    def begin(self, raw: str | None, cell_id: str | None, execution_count: int | None) -> Any: ...

    def end(self, handle: Any, result: Any) -> None: ...


@dataclass
class _Current:
    measurer: Measurer | None
    handle: Any
    raw: str | None


class CellHook:
    """Registered once per shell, when the extension loads; removed when it unloads."""

    def __init__(self, shell: Any, full: Measurer, light: Any) -> None:
        self.shell = shell
        self.full = full  # %%aiperf cells
        self.light = light  # () -> the auto mode measurer when auto mode is on, else None
        self._current: _Current | None = None
        self._nested = 0

    def register(self) -> None:
        for name in _EVENTS:
            if getattr(self, name) not in self.shell.events.callbacks[name]:
                self.shell.events.register(name, getattr(self, name))

    def unregister(self) -> None:
        for name in _EVENTS:
            try:
                self.shell.events.unregister(name, getattr(self, name))
            except ValueError:
                pass
        self.cancel()

    def cancel(self) -> None:
        """Stop whatever is being measured, without a report (the extension unloads mid-cell)."""
        current, self._current, self._nested = self._current, None, 0
        cancel = getattr(getattr(current, "handle", None), "cancel", None)
        if callable(cancel):
            cancel()

    @property
    def measuring_full(self) -> bool:
        return self._current is not None and self._current.measurer is self.full

    # Both take their argument as optional: IPython 8 and 9 pass ExecutionInfo / ExecutionResult,
    # older shells called these events without arguments.
    def pre_run_cell(self, info: Any = None) -> None:
        raw = getattr(info, "raw_cell", None) if info is not None else None
        if self._current is not None:
            self._nested += 1  # the cell called run_cell itself: the outer measurement covers it
            if self.measuring_full and raw is not None and split_magic_cell(raw) is not None:
                note = getattr(self._current.handle, "notes", None)
                if isinstance(note, list):
                    note.append("nested %%aiperf ignored: the outer cell is measured")
            return
        if raw is not None and "aiperf" in raw:
            warmup.wait()  # the cell uses aiperf: let the background loading finish (its clocks start after)
        cell_id = getattr(info, "cell_id", None) or parent_cell_id(self.shell)
        count = getattr(self.shell, "execution_count", None)
        full = raw is not None and split_magic_cell(raw) is not None
        measurer: Measurer | None = self.full if full else self.light()
        handle = None
        if measurer is not None:
            try:
                handle = measurer.begin(raw, cell_id, count)
            except KeyboardInterrupt:  # an exception out of a hook is "Error in callback" and a traceback
                print("aiperf: measurement not started (Ctrl-C)")
                handle = None
            except Exception as exc:  # never break the user's cell
                print(f"aiperf: measurement not started ({type(exc).__name__}: {exc})")
                handle = None
        self._current = _Current(measurer if handle is not None else None, handle, raw)

    def post_run_cell(self, result: Any = _NO_RESULT) -> None:
        if self._nested:
            self._nested -= 1
            return
        current, self._current = self._current, None
        if current is None or current.measurer is None:
            return
        try:
            current.measurer.end(current.handle, result)
        except KeyboardInterrupt:
            # Ctrl-C in aiperf's own work after the cell: IPython would print "Error in callback" and a
            # traceback, and the cell's reply would not change; stop quietly instead.
            cancel = getattr(current.handle, "cancel", None)
            if callable(cancel):
                cancel()
            print("aiperf: stopped by Ctrl-C (the cell's own result is unchanged).")


def parent_cell_id(shell: Any) -> str | None:
    """The notebook cell id JupyterLab 4 / Notebook 7 send with each execute request."""
    kernel: Any = getattr(shell, "kernel", None)
    try:
        parent = kernel.get_parent() if hasattr(kernel, "get_parent") else getattr(kernel, "_parent_header", {})
        cell_id = (parent or {}).get("metadata", {}).get("cellId")
        return str(cell_id) if cell_id else None
    except Exception:
        return None
