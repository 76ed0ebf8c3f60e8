"""Small HTML pieces the panel's widgets share: escaping, numbers, diffs, comparison results.

Every user-controlled string (cell source, names, values, exception text) goes through ``esc``
before it reaches HTML, so markup in a cell is shown as text, never run.
"""

from __future__ import annotations

import html

from ... import units as fmt
from ...report import Comparison
from ..comparison import headline

OK_COLOR = "#1a7f37"
BAD_COLOR = "#cf222e"
MUTED = "#57606a"


def esc(value: object) -> str:
    return html.escape(str(value), quote=True)


def code_block(text: str) -> str:
    return (
        '<pre style="margin:4px 0;padding:6px;background:#f6f8fa;white-space:pre-wrap;'
        f'font-size:12px">{esc(text)}</pre>'
    )


def diff_block(diff: str) -> str:
    """A unified diff with added and removed lines tinted."""
    lines = []
    for line in diff.splitlines():
        color = ""
        if line.startswith("+") and not line.startswith("+++"):
            color = "background:#dafbe1"
        elif line.startswith("-") and not line.startswith("---"):
            color = "background:#ffebe9"
        lines.append(f'<span style="{color}">{esc(line)}</span>')
    return (
        '<pre class="aiperf-diff" style="margin:4px 0;padding:6px;background:#f6f8fa;font-size:12px">'
        + "\n".join(lines)
        + "</pre>"
    )


def comparison_html(c: Comparison) -> str:
    """The outcome of a Try: equal ✓ / different ✗ with the verdict sentence, then speed and latency."""
    proven = c.equal and not (c.error or c.refused or c.timed_out or c.blocked)
    if proven:
        mark = f'<b class="aiperf-equal" style="color:{OK_COLOR}">✓ equal</b>'
    else:
        outcomes = ((c.blocked, "not tried"), (c.refused, "not run"), (c.timed_out, "timed out"), (c.error, "error"))
        label = next((text for cond, text in outcomes if cond), "different")
        mark = f'<b class="aiperf-different" style="color:{BAD_COLOR}">✗ {label}</b>'
    # the numbers below already say "equal and faster"; any other outcome needs its sentence
    parts = [mark if c.better else f"{mark} {esc(headline(c))}"]
    if c.speedup is not None and not c.error and not c.refused:
        parts.append(f'<span class="aiperf-speedup">speedup ×{c.speedup:.2f}</span>')
        if c.memory_ratio is not None:
            parts.append(f"peak memory ×{c.memory_ratio:.2f} of before")
        if c.before_p50_s is not None or c.after_p50_s is not None:
            parts.append(
                f"latency p50 {fmt.seconds(c.before_p50_s)} → {fmt.seconds(c.after_p50_s)}, "
                f"p95 {fmt.seconds(c.before_p95_s)} → {fmt.seconds(c.after_p95_s)}"
            )
        if c.repeat:
            parts.append(f"{c.repeat} repeats each")
    error = code_block(c.error) if c.error else ""
    notes = "".join(f'<div style="color:{MUTED}">{esc(n)}</div>' for n in c.notes)
    return '<div class="aiperf-comparison">' + " · ".join(parts) + error + notes + "</div>"
