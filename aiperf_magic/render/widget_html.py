"""Small HTML pieces the panel's widgets share: escaping, numbers, diffs, comparison results.

Every user-controlled string (cell source, names, values, exception text) goes through ``esc``
before it reaches HTML, so markup in a cell is shown as text, never run.
"""

from __future__ import annotations

import html

from ..report import Comparison
from . import format as fmt

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
    """The outcome of a Try: equality first, then speed, memory and latency."""
    parts = []
    refused = getattr(c, "refused", None)  # verify declined to run (inputs missing, not copyable)
    if refused:
        parts.append(f'<b style="color:{BAD_COLOR}">✗ not run</b>: {esc(refused)}')
    elif c.error:
        parts.append(f'<b style="color:{BAD_COLOR}">✗ error</b> — the run raised:' + code_block(c.error))
    elif c.timed_out:
        parts.append(f'<b style="color:{BAD_COLOR}">✗ timed out</b> before both versions finished.')
    elif c.equal:
        parts.append(f'<b class="aiperf-equal" style="color:{OK_COLOR}">✓ equal</b> results')
    else:
        first = f": {esc(c.difference)}" if c.difference else ""
        parts.append(f'<b class="aiperf-different" style="color:{BAD_COLOR}">✗ different</b>{first}')
    if c.speedup is not None:
        word = "faster" if c.speedup >= 1 else "slower"
        parts.append(f'<span class="aiperf-speedup">speedup ×{c.speedup:.2f}</span> ({word})')
    if c.memory_ratio is not None:
        parts.append(f"peak memory ×{c.memory_ratio:.2f} of before")
    if c.before_p50_s is not None or c.after_p50_s is not None:
        parts.append(
            f"latency p50 {fmt.seconds(c.before_p50_s)} → {fmt.seconds(c.after_p50_s)}, "
            f"p95 {fmt.seconds(c.before_p95_s)} → {fmt.seconds(c.after_p95_s)}"
        )
    if c.repeat:
        parts.append(f"{c.repeat} repeats each")
    notes = "".join(f'<div style="color:{MUTED}">{esc(n)}</div>' for n in c.notes)
    return '<div class="aiperf-comparison">' + " · ".join(parts) + notes + "</div>"
