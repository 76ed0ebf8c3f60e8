"""The "Cluster" section of every view: what a Dask or Ray cluster did for the cell.

One place decides what the section says (``cluster_facts``, ``busy_rows``, ``hot_rows``) and draws
the per-worker busy timeline (``busy_svg``: one strip per worker, one cell per time bin, darker
when busier); the text, HTML and panel views lay these out. Worker names and function names come
from the user's cluster: every one is escaped in the SVG and the HTML, and the panel puts them in
with ``textContent``.
"""

from __future__ import annotations

from html import escape

from .. import units as fmt
from ..report import ClusterInfo, Report

MAX_WORKERS = 16  # strips and rows shown; the rest are summed up in one line
MAX_FUNCTIONS = 8
WIDTH, LEFT, ROW, GAP = 900, 170, 16, 4
FONT = 'font-family="system-ui,sans-serif" font-size="12"'
BUSY = ["#f6f8fa", "#dbeafe", "#bfdbfe", "#93c5fd", "#60a5fa", "#3b82f6", "#2563eb", "#1d4ed8", "#1e3a8a"]


def cluster_headline(c: ClusterInfo) -> str:
    """``dask: 2 workers, 2 threads, 4,000 tasks, 0.28 s of task time (median 0.05 ms)``."""
    median = f" (median {c.median_task_ms:.3g} ms)" if c.median_task_ms is not None else ""
    return (f"{c.engine}: {c.workers} worker{'s' if c.workers != 1 else ''}, {c.threads} thread"
            f"{'s' if c.threads != 1 else ''}, {c.tasks:,} task{'s' if c.tasks != 1 else ''}, "
            f"{fmt.seconds(c.task_seconds)} of task time{median}")


def cluster_facts(c: ClusterInfo) -> list[tuple[str, str]]:
    """The section's numbers, as (label, value) pairs, in the order every view shows them."""
    rows = [("cluster", cluster_headline(c))]
    if c.driver_wait_s is not None:
        rows.append(("driver waited", f"{fmt.seconds(c.driver_wait_s)} while the cluster worked "
                                      f"({fmt.seconds(c.span_s)})"))
    if c.per_task_ms is not None:
        rows.append(("per task", f"{c.per_task_ms:.3g} ms of thread time per task"))
    moved = [f"{fmt.size(c.transfer_bytes)} sent between workers" if c.transfer_bytes is not None else "",
             f"{fmt.seconds(c.transfer_s)} in transfers" if c.transfer_s else ""]
    if any(moved):
        rows.append(("transfers", ", ".join(m for m in moved if m)))
    if c.spilled_bytes or c.spill_s:
        rows.append(("spilled", f"{fmt.size(c.spilled_bytes or 0)} to disk, {fmt.seconds(c.spill_s)} on disk"))
    if c.dashboard:
        rows.append(("dashboard", c.dashboard))
    return rows


def busy_rows(c: ClusterInfo) -> tuple[list[tuple[str, float]], str]:
    """(worker, busy share) for the busiest workers, and a line for the rest."""
    ordered = sorted(c.worker_busy.items(), key=lambda kv: (-kv[1], kv[0]))
    shown, rest = ordered[:MAX_WORKERS], ordered[MAX_WORKERS:]
    more = ""
    if rest:
        more = f"{len(rest)} more workers, busy {fmt.percent(sum(v for _, v in rest) / len(rest))} on average"
    return shown, more


def hot_rows(c: ClusterInfo) -> list[tuple[str, str, str]]:
    """(function, seconds, share) of the functions the workers spent their time in."""
    return [(h.function, fmt.seconds(h.seconds), fmt.percent(h.share)) for h in c.worker_hotspots[:MAX_FUNCTIONS]]


def _colour(share: float) -> str:
    return BUSY[min(len(BUSY) - 1, max(0, round(share * (len(BUSY) - 1))))]


def _runs(values: list[float]) -> list[tuple[int, int, str]]:
    """(first bin, bins, colour) for each run of bins drawn in the same colour, idle runs left out:
    a steadily busy worker is one rectangle, so the picture stays small on a large cluster."""
    runs: list[tuple[int, int, str]] = []
    for i, value in enumerate(values):
        colour = _colour(value) if value > 0 else ""
        if runs and runs[-1][2] == colour and runs[-1][0] + runs[-1][1] == i:
            runs[-1] = (runs[-1][0], runs[-1][1] + 1, colour)
        else:
            runs.append((i, 1, colour))
    return [r for r in runs if r[2]]


def busy_svg(c: ClusterInfo) -> str | None:
    """One strip per worker (the busiest first), one cell per bin; None when there is nothing to draw."""
    shown, more = busy_rows(c)
    bins = max((len(c.busy_bins.get(w, [])) for w, _ in shown), default=0)
    if not shown or bins == 0 or c.bin_s <= 0:
        return None
    inner = WIDTH - LEFT - 10
    step = inner / bins
    height = 24 + len(shown) * (ROW + GAP) + (18 if more else 0) + 20
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" '
             f'viewBox="0 0 {WIDTH} {height}" {FONT}>',
             f'<text x="{LEFT}" y="14" font-weight="600">Workers busy (darker: busier), per '
             f'{escape(fmt.seconds(c.bin_s))}</text>']
    y = 24
    for worker, share in shown:
        label = worker if len(worker) <= 26 else "…" + worker[-25:]
        parts.append(f'<text x="{LEFT - 6}" y="{y + 12}" text-anchor="end">{escape(label)} '
                     f'{escape(fmt.percent(share))}</text>')
        for first, count, colour in _runs(c.busy_bins.get(worker, [])):  # one rect per run of a colour
            parts.append(f'<rect x="{LEFT + first * step:.1f}" y="{y}" width="{max(count * step, 0.5):.1f}" '
                         f'height="{ROW}" fill="{colour}"/>')
        parts.append(f'<rect x="{LEFT}" y="{y}" width="{inner}" height="{ROW}" fill="none" stroke="#d0d7de"/>')
        y += ROW + GAP
    if more:
        parts.append(f'<text x="{LEFT}" y="{y + 12}" fill="#57606a">{escape(more)}</text>')
        y += 18
    end = bins * c.bin_s
    parts.append(f'<text x="{LEFT}" y="{y + 12}" fill="#57606a">0 s</text>')
    parts.append(f'<text x="{LEFT + inner}" y="{y + 12}" text-anchor="end" fill="#57606a">'
                 f'{escape(fmt.seconds(end))} after the cell started</text>')
    parts.append("</svg>")
    return "".join(parts)


def cluster_text(report: Report) -> list[str]:
    """The section as lines of text (empty without a cluster)."""
    c = report.cluster
    if c is None:
        return []
    lines = ["Cluster"] + [f"  {label:<14} {value}" for label, value in cluster_facts(c)]
    shown, more = busy_rows(c)
    if shown:
        lines.append("  workers busy")
        lines += [f"    {fmt.percent(share):>4} {'█' * max(0, round(share * 20)):<20} {worker}"
                  for worker, share in shown]
        if more:
            lines.append(f"    ({more})")
    hot = hot_rows(c)
    if hot:
        lines.append("  worker functions")
        lines += [f"    {seconds:>9} {share:>4}  {name}" for name, seconds, share in hot]
    lines += [f"  note: {n}" for n in c.notes]
    return lines


def cluster_html(report: Report, muted: str) -> str:
    """The section as static HTML (empty without a cluster)."""
    c = report.cluster
    if c is None:
        return ""
    facts = "".join(f"<tr><td>{escape(k)}</td><td>{_link(v) if k == 'dashboard' else escape(v)}</td></tr>"
                    for k, v in cluster_facts(c))
    svg = busy_svg(c) or ""
    hot = "".join(f"<tr><td><code>{escape(n)}</code></td><td>{escape(s)}</td><td>{escape(p)}</td></tr>"
                  for n, s, p in hot_rows(c))
    hot_table = (f'<table><tr><th style="text-align:left">worker function</th><th>time</th><th>share</th></tr>'
                 f"{hot}</table>") if hot else ""
    notes = "".join(f'<div style="{muted}">{escape(n)}</div>' for n in c.notes)
    return (f"<details open><summary>Cluster ({escape(cluster_headline(c))})</summary><table>{facts}</table>"
            f"{svg}{hot_table}{notes}</details>")


def _link(url: str) -> str:
    if url.startswith(("http://", "https://")):
        return f'<a href="{escape(url, quote=True)}" target="_blank" rel="noopener">{escape(url)}</a>'
    return escape(url)


def cluster_panel(report: Report) -> dict[str, object] | None:
    """The section as the panel's JSON (None without a cluster)."""
    c = report.cluster
    if c is None:
        return None
    _, more = busy_rows(c)
    return {
        "summary": cluster_headline(c),
        "facts": [[k, v] for k, v in cluster_facts(c)],
        "svg": busy_svg(c),
        "more": more,
        "functions": [{"name": n, "time": s, "share": p} for n, s, p in hot_rows(c)],
        "notes": list(c.notes),
    }
