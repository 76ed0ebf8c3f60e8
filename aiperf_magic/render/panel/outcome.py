"""A Try's outcome for the panel: equal or not, then each number with the values it compares.

The first line says what the user needs (✓ equal and how much faster, or ✗ and why); how it was
measured (repeats, where the trials ran, the method's notes) sits behind a toggle. For a dtype
fix the frame's own size before and after leads: converting a frame costs time and a transient
copy, so its speed and peak-memory ratios alone would make a memory fix look like a regression.
"""

from __future__ import annotations

from typing import Any

from ... import units as fmt
from ...report import Comparison
from ..comparison import headline

# the note Try adds when the original's time in the trials differs from the %%aiperf run's (the
# panel's header) beyond the noise: shown under the numbers, not behind the toggle
HEADER_NOTE = "the original took "


def _mark(c: Comparison) -> tuple[bool, str]:
    proven = c.equal and not (c.error or c.refused or c.timed_out or getattr(c, "blocked", None))
    if proven:
        return True, "✓ equal"
    if c.refused or getattr(c, "blocked", None):
        return False, "✗ not run"
    if not (c.timed_out or c.error or c.difference or c.compared):
        return False, "✗ nothing compared"  # not a difference: there was nothing to tell equal from
    return False, "✗ timed out" if c.timed_out else "✗ error" if c.error else "✗ different"


def _method(c: Comparison) -> list[str]:
    lines = []
    runs = getattr(c, "runs", 0) or c.repeat
    if runs:
        lines.append(f"each version ran {runs} time{'s' if runs != 1 else ''}, interleaved; medians shown")
    isolation = getattr(c, "isolation", None)
    if isolation == "process":
        lines.append("trials ran in forked copies of the kernel: your variables were not touched")
    elif isolation:
        lines.append(f"trials ran {isolation}")
    if c.compared:
        lines.append("compared: " + ", ".join(c.compared))
    return lines + [n for n in c.notes if not n.startswith(HEADER_NOTE)]  # that one shows above


def _partial(c: Comparison) -> list[str]:
    """What the trials' isolation did not cover here (no syscall filter, in-process): never behind the toggle."""
    uncovered = getattr(c, "uncovered", None) or []
    return ["isolation was partial, not covered here: " + "; ".join(uncovered)] if uncovered else []


def _bounds(c: Comparison) -> str:
    """The timing rule's interval beside the times: "; at least ×2.90" when faster, else both ends."""
    if c.faster is None or c.speedup_low is None or c.speedup_high is None:
        return ""
    if c.faster:
        return f"; at least ×{c.speedup_low:.2f}"
    return f"; the runs allow ×{c.speedup_low:.2f} to ×{c.speedup_high:.2f}"


def outcome(c: Comparison, frame: dict[str, str] | None = None) -> dict[str, Any]:
    """The JSON the panel's script shows under a fix after Try."""
    ok, mark = _mark(c)
    facts: list[dict[str, str]] = []
    measured = c.speedup is not None and not c.error and not c.refused
    if frame is not None and ok:
        facts.append({"kind": "frame", "text": f"frame {frame['name']}: {frame['before']} → {frame['after']}"})
    if measured:
        times = f"{fmt.seconds(c.before_s)} → {fmt.seconds(c.after_s)}" + _bounds(c)
        if frame is not None:
            facts.append({"kind": "speedup",
                          "text": f"speedup ×{c.speedup:.2f} ({times}, the conversion included)"})
        else:
            facts.append({"kind": "speedup", "text": f"speedup ×{c.speedup:.2f} ({times})"})
        if c.memory_ratio is not None:
            peaks = f"{fmt.size(c.before_peak_bytes)} → {fmt.size(c.after_peak_bytes)}, " \
                if c.before_peak_bytes is not None and c.after_peak_bytes is not None else ""
            label = "peak memory while running" if frame is not None else "peak memory"
            facts.append({"kind": "memory", "text": f"{label} {peaks}×{c.memory_ratio:.2f}"})
        if c.before_p50_s is not None or c.after_p50_s is not None:
            facts.append({"kind": "latency",
                          "text": f"latency p50 {fmt.seconds(c.before_p50_s)} → {fmt.seconds(c.after_p50_s)}, "
                                  f"p95 {fmt.seconds(c.before_p95_s)} → {fmt.seconds(c.after_p95_s)}"})
    bars = None
    if measured and c.before_s and c.after_s:
        bars = [[fmt.seconds(c.before_s), c.before_s], [fmt.seconds(c.after_s), c.after_s]]
    return {
        "notice": ([n for n in c.notes if n.startswith(HEADER_NOTE)] if measured else []) + _partial(c),
        "ok": ok,
        "mark": mark,
        # the numbers already say "equal and faster" (or, for a dtype fix, "equal and smaller");
        # any other outcome needs its sentence
        "headline": "" if c.better or (ok and frame is not None) else headline(c),
        "blocked": getattr(c, "blocked", None),
        "facts": facts,
        "bars": bars,
        "error": c.error,
        "method": _method(c),
    }
