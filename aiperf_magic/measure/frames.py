"""The pandas profiler: frames the cell created or changed, their memory, and smaller dtypes (AIP303).

Before the cell: a snapshot of (id, shape, dtypes) of every DataFrame/Series in the user's
namespace — no memory is measured there, so it costs microseconds per frame. After it: each frame
that is new or whose snapshot differs is profiled column by column (``frames_columns``), within a
time budget per frame, and gets an AIP303 finding whose fix appends one ``astype`` statement.
Nothing here runs, or imports pandas, unless the user's process already imported it.
"""

from __future__ import annotations

import ast
import difflib
import sys
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..report import Finding, Fix, FrameProfile, Report
from .frame_budget import biggest_first, estimate_left_out, frame_share, spread_order

if TYPE_CHECKING:
    from .run import CellRun

FRAME_BUDGET_S = 1.0  # profiling of one frame stops taking new columns after this
MAX_FRAMES = 20  # frames profiled per cell; more are named in a note
MAX_COLUMNS = 500  # columns profiled per frame
STATE_KEY = "frames.snapshot"
# Below this saving a dtype change is not worth a finding (a loop's leftover `row` Series, a tiny
# lookup table): the frame is still listed in the report, only the advice is withheld.
MIN_SAVING_BYTES = 256 * 1024

Signature = tuple[int, tuple[int, ...], tuple[str, ...]]


def _pandas() -> Any | None:
    return sys.modules.get("pandas")


def _is_frame(pd: Any, value: Any) -> bool:
    return isinstance(value, (pd.DataFrame, pd.Series))


def _signature(value: Any) -> Signature:
    dtypes = tuple(map(str, value.dtypes)) if hasattr(value, "columns") else (str(value.dtype),)
    return id(value), tuple(value.shape), dtypes


def snapshot(namespace: dict[str, Any]) -> dict[str, Signature]:
    """Ids, shapes and dtypes of the frames in ``namespace`` (names starting with "_" are IPython's)."""
    pd = _pandas()
    if pd is None:
        return {}
    return {
        name: _signature(value)
        for name, value in list(namespace.items())
        if not name.startswith("_") and _is_frame(pd, value)
    }


def changed_frames(namespace: dict[str, Any], before: dict[str, Signature]) -> list[tuple[str, Any]]:
    pd = _pandas()
    if pd is None:
        return []
    out = []
    seen: set[int] = set()
    for name, value in list(namespace.items()):
        if name.startswith("_") or not _is_frame(pd, value):
            continue
        if before.get(name) != _signature(value) and id(value) not in seen:
            seen.add(id(value))  # one frame under two names is profiled, and fixed, once
            out.append((name, value))
    return out


def profile_frame(
    name: str, frame: Any, *, budget_s: float = FRAME_BUDGET_S, clock: Callable[[], float] = time.perf_counter
) -> FrameProfile:
    """Columns, memory and suggested dtypes of one DataFrame or Series."""
    from .frame_columns import FULL_ROWS, profile_column

    is_frame = frame.ndim == 2  # a DataFrame; a Series has one dimension
    prof = FrameProfile(name=name, kind="DataFrame" if is_frame else "Series", rows=len(frame))
    labels = list(frame.columns) if is_frame else [frame.name if frame.name is not None else name]
    duplicated = is_frame and frame.columns.has_duplicates
    if duplicated:
        prof.notes.append("duplicate column names: those columns get no suggestion")
    deadline = clock() + budget_s
    measured: dict[int, Any] = {}
    order = spread_order(min(len(labels), MAX_COLUMNS))  # wherever time runs out, spread across the frame
    # text/object columns cost about a microsecond per value: when they cannot all fit, fewer rows each
    started, quick = clock(), len(frame) * len(order) * 1e-6 > budget_s
    for k, i in enumerate(order):
        if k and clock() > deadline:
            break
        if k == 1:  # the first column tells whether every column fits
            quick = quick or (clock() - started) * len(order) > budget_s
        label = labels[i]
        try:  # a column is taken out of the frame only when it is profiled
            column = profile_column(label, frame.iloc[:, i] if is_frame else frame, quick=quick)
        except Exception as exc:  # odd data must never cost the report
            prof.notes.append(f"column {label!r} skipped: {type(exc).__name__}: {exc}")
            continue
        if duplicated and labels.count(label) > 1:
            column.suggested_dtype, column.saving_bytes, column.reason = None, 0, "duplicate column name"
        measured[i] = column
    prof.columns = [measured[i] for i in sorted(measured)]
    left_out = estimate_left_out(frame, measured, len(labels))
    if len(measured) < len(labels):
        prof.notes.append(
            f"profiled {len(measured)} of {len(labels)} columns, spread across the frame (budget {budget_s:.2g} s); "
            f"the memory of the others is estimated"
        )
    deep_index = len(frame) <= FULL_ROWS  # a huge object index would take seconds to measure deeply
    index_bytes = int(frame.index.memory_usage(deep=deep_index))
    prof.memory_bytes = index_bytes + sum(c.memory_bytes for c in prof.columns) + left_out
    prof.saving_bytes = sum(c.saving_bytes for c in prof.columns if c.suggested_dtype)
    if any(c.measured_on != "full" for c in prof.columns):
        prof.notes.append("memory of big columns estimated from a sample of their rows")
    prof.fix_source = astype_statement(prof, {str(label): label for label in labels})
    return prof


def fix_columns(prof: FrameProfile) -> list[Any]:
    """The columns the fix changes: the lossless suggestions, or the lossy ones when there are no others."""
    suggested = [c for c in prof.columns if c.suggested_dtype]
    safe = [c for c in suggested if c.safe]
    return safe or suggested


def astype_statement(prof: FrameProfile, labels: dict[str, Any] | None = None) -> str | None:
    """``name = name.astype(...)`` for the fix's columns; ``labels`` maps column names back to labels."""
    labels = labels or {}
    columns = fix_columns(prof)
    if not columns:
        return None
    if prof.kind == "Series":
        return f"{prof.name} = {prof.name}.astype({columns[0].suggested_dtype!r})"
    # DataFrame columns keep their original labels (ints, tuples of a MultiIndex): repr is valid Python
    mapping = ", ".join(f"{labels.get(c.name, c.name)!r}: {c.suggested_dtype!r}" for c in columns)
    return f"{prof.name} = {prof.name}.astype({{{mapping}}})"


def _assignment_line(source: str, name: str) -> int | None:
    """Last line of the cell body that assigns ``name`` (None when the body is not plain Python)."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return None
    lines = [
        node.lineno
        for node in ast.walk(tree)
        if isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign))
        for target in (node.targets if isinstance(node, ast.Assign) else [node.target])
        for sub in ast.walk(target)
        if isinstance(sub, ast.Name) and sub.id == name
    ]
    return max(lines) if lines else None


def _mb(n: int) -> str:
    return f"{n / 1024**2:.1f} MB"  # binary megabytes, as the report views print sizes


def frame_finding(prof: FrameProfile, source: str) -> Finding | None:
    """AIP303 for one frame: what it costs, what the suggestions save, and the astype fix."""
    columns = fix_columns(prof)
    if not columns or prof.fix_source is None:
        return None
    safe = all(c.safe for c in columns)
    saved = sum(c.saving_bytes for c in columns)
    if saved < MIN_SAVING_BYTES:
        return None
    share = 100.0 * saved / prof.memory_bytes if prof.memory_bytes else 0.0
    changes = ", ".join(f"{c.name}→{c.suggested_dtype}" for c in columns[:6])
    more = f" (+{len(columns) - 6} more)" if len(columns) > 6 else ""
    # the frame's size after the conversion, not the transient peak while astype copies it
    message = (
        f"{prof.kind} `{prof.name}` uses {_mb(prof.memory_bytes)}; with smaller dtypes it would use "
        f"{_mb(prof.memory_bytes - saved)} ({share:.0f} % less): {changes}{more}."
    )
    lossy = [c for c in prof.columns if c.suggested_dtype and not c.safe and c not in columns]
    if lossy:
        message += f" Lossy float32 would also fit {', '.join(c.name for c in lossy[:6])}."
    new_source = source.rstrip("\n") + "\n" + prof.fix_source + "\n"
    # compared with its last line ended, so the diff shows only the added line (not "-})" then "+})")
    ended = source.rstrip("\n") + "\n"
    diff = "".join(
        line if line.endswith("\n") else line + "\n"
        for line in difflib.unified_diff(
            ended.splitlines(keepends=True), new_source.splitlines(keepends=True), "cell", "cell (fixed)"
        )
    )
    title = f"Convert {prof.name} to smaller dtypes" + ("" if safe else " (float32 rounds values)")
    fix = Fix(title=title, safety="safe" if safe else "unsafe", source=new_source, diff=diff)
    return Finding(
        code="AIP303",
        message=message,
        line=_assignment_line(source, prof.name),
        name="memory-heavy-dtypes",
        fix=fix,
        fixable=True,
    )


class FramesStage:
    """Snapshots frames before the cell and profiles the new or changed ones after it."""

    name = "frames"

    def __init__(self, budget_s: float = FRAME_BUDGET_S) -> None:
        self.budget_s = budget_s

    def before(self, run: CellRun) -> None:
        run.state[STATE_KEY] = snapshot(run.user_ns)

    def after(self, run: CellRun, report: Report) -> None:
        if _pandas() is None:
            return
        # biggest first, each with a fair share of the after-cell budget (run.deadline)
        frames = biggest_first(changed_frames(run.user_ns, run.state.get(STATE_KEY, {})))
        if len(frames) > MAX_FRAMES:
            skipped = ", ".join(name for name, _ in frames[MAX_FRAMES:])
            report.notes.append(f"frames not profiled (more than {MAX_FRAMES} changed): {skipped}")
        frames = frames[:MAX_FRAMES]
        deadline, clock = getattr(run, "deadline", None), getattr(run, "clock", time.perf_counter)
        for done, (name, frame) in enumerate(frames):
            share = frame_share(deadline, clock, len(frames) - done, self.budget_s)
            if share is None:
                left = ", ".join(n for n, _ in frames[done:])
                report.notes.append(f"frames not profiled (the after-cell budget was spent; %%aiperf --budget S "
                                    f"gives more): {left}")
                return
            try:
                prof = profile_frame(name, frame, budget_s=share, clock=clock)
            except KeyboardInterrupt:
                left = ", ".join(n for n, _ in frames[done:])
                report.notes.append(f"frames not profiled (stopped by Ctrl-C): {left}")
                raise
            except Exception as exc:
                report.notes.append(f"frame {name} not profiled: {type(exc).__name__}: {exc}")
                continue
            prof.line = _assignment_line(report.source, name)  # the view names its line and its memory
            report.frames.append(prof)
            finding = frame_finding(prof, report.source)
            if finding is not None:
                report.findings.append(finding)
