"""Views of the ranked cell table of ``%aiperf report``: plain text, an HTML fragment, a standalone page.

The bar chart in the HTML views is inline SVG, so a saved report opens offline and weighs a few
kilobytes. Every string that comes from the user's cells (first lines, cell ids, messages, errors)
goes through ``html.escape``.
"""

from __future__ import annotations

from html import escape

from .. import units as fmt
from ..auto.history import CellRecord, CellTable

HEADERS = ("#", "cell", "cell id", "wall", "CPU", "peak mem", "GPU", "verdict", "findings", "first line")
TEXT_FIRST_LINE = 44
_STYLE = (
    "font-family:var(--jp-ui-font-family,system-ui,sans-serif);font-size:13px;line-height:1.45;"
    "border:1px solid var(--jp-border-color2,#ddd);border-radius:6px;padding:8px 12px;max-width:1100px;"
    "overflow-x:auto"
)
_CELL = "padding:2px 8px;text-align:left;vertical-align:top;border-bottom:1px solid #eee"
# The columns before "verdict" hold short values: each stays on one line; a verdict gets some room.
_WIDTH = {**dict.fromkeys(range(7), ";white-space:nowrap"), 7: ";min-width:12em"}
_WALL, _CPU = "#f97316", "#2563eb"


def row_values(rank: int, record: CellRecord) -> list[str]:
    """The table's cells for one record, as the text and HTML views both show them."""
    cell = f"[{record.execution_count}]" if record.execution_count is not None else "[?]"
    if record.kind == "aiperf":
        cell += " %%aiperf"
    gpu = "–"
    if record.gpu_util_mean is not None:
        gpu = f"{record.gpu_util_mean:.0f}% (max {record.gpu_util_max or 0:.0f}%)"
    verdict = " ".join(v for v in (record.verdict_code, record.verdict_title) if v) or "–"
    findings = " ".join([*record.finding_codes, *([f"raised {record.error.split(':', 1)[0]}"]
                                                 if record.error else [])]) or "–"
    return [str(rank), cell, short_id(record.cell_id), fmt.seconds(record.wall_s),
            f"{fmt.seconds(record.cpu_s)} ({record.cores_used:.1f} cores)", fmt.size(record.peak_rss_bytes),
            gpu, verdict, findings, record.first_line]


def short_id(cell_id: str | None) -> str:
    if not cell_id:
        return "–"
    return cell_id if len(cell_id) <= 10 else cell_id[:8] + "…"


def totals_line(table: CellTable) -> str:
    shown = len(table.rows)
    line = (f"{table.cells} profiled cell{'s' * (table.cells != 1)}: {fmt.seconds(table.total_wall_s)} wall, "
            f"{fmt.seconds(table.total_cpu_s)} CPU")
    if shown < table.cells:
        line += f"; the {shown} slowest take {fmt.percent(table.top_share)} of the time"
    if table.with_findings:
        codes = ", ".join(f"{code} ×{n}" if n > 1 else code for code, n in table.codes)
        line += f"; {table.with_findings} with findings ({codes})"
    if table.errors:
        line += f"; {table.errors} raised"
    return line


def _shown(table: CellTable) -> list[int]:
    """Column indices to show: the cell id only where a notebook front end sent one."""
    return [i for i, h in enumerate(HEADERS) if h != "cell id" or any(r.cell_id for r in table.rows)]


def render_table_text(table: CellTable) -> str:
    shown = _shown(table)
    rows = [[HEADERS[c] for c in shown]]
    for i, record in enumerate(table.rows, 1):
        values = row_values(i, record)
        first = values[-1]
        values[-1] = first if len(first) <= TEXT_FIRST_LINE else first[: TEXT_FIRST_LINE - 1] + "…"
        rows.append([values[c] for c in shown])
    widths = [max(len(r[c]) for r in rows) for c in range(len(shown) - 1)]
    lines = [f"aiperf report — {totals_line(table)}"]
    for r in rows:
        lines.append("  ".join(v.ljust(w) for v, w in zip(r, widths, strict=False)) + "  " + r[-1])
    lines.extend(_finding_lines(table))
    lines.extend(f"note: {n}" for n in table.notes)
    lines.append("Run %%aiperf on a cell above for its hot lines, verdict and fixes.")
    return "\n".join(lines)


def _finding_lines(table: CellTable) -> list[str]:
    """One line per distinct finding of the cells shown (the table only has room for the codes)."""
    out = []
    for i, record in enumerate(table.rows, 1):
        seen = set()
        for f in record.findings:
            if (f.code, f.message) in seen:
                continue
            seen.add((f.code, f.message))
            where = f" line {f.line}" if f.line else ""
            out.append(f"  #{i}{where} {f.code}: {f.message}")
    return ["Findings", *out] if out else []


def render_table_html(table: CellTable, chart: bool = True) -> str:
    """An HTML fragment: totals, the bar chart (inline SVG) unless ``chart`` is False, the table."""
    parts = [f'<div class="aiperf-cells" style="{_STYLE}">',
             f"<div><b>aiperf report</b> · {escape(totals_line(table))}</div>"]
    if chart:
        parts.append(bar_chart_svg(table))
    shown = _shown(table)
    head = "".join(f'<th style="{_CELL}">{escape(HEADERS[c])}</th>' for c in shown)
    body = []
    for i, record in enumerate(table.rows, 1):
        values = [escape(v) for v in row_values(i, record)]
        values[2] = f'<span title="{escape(record.cell_id or "")}">{values[2]}</span>'
        values[-1] = f"<code>{values[-1]}</code>"
        if record.findings:
            items = "".join(f"<li><b>{escape(f.code)}</b>{escape(f' line {f.line}' if f.line else '')}: "
                            f"{escape(f.message)}</li>" for f in record.findings)
            values[8] = f"<details><summary>{values[8]}</summary><ul>{items}</ul></details>"
        body.append("<tr>" + "".join(f'<td style="{_CELL}{_WIDTH.get(c, "")}">{values[c]}</td>' for c in shown)
                    + "</tr>")
    parts.append(f'<table style="border-collapse:collapse"><tr>{head}</tr>{"".join(body)}</table>')
    if table.notes:
        notes = "".join(f"<li>{escape(n)}</li>" for n in table.notes)
        parts.append(f'<ul style="color:#666">{notes}</ul>')
    parts.append("<div style=\"color:#666\">Run <code>%%aiperf</code> on a cell above for its hot lines, "
                 "verdict and fixes.</div></div>")
    return "".join(parts)


def render_table_document(table: CellTable) -> str:
    """A complete page (no script, no external file) for ``%aiperf report --save PATH.html``."""
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            "<title>aiperf report</title></head><body>\n" + render_table_html(table) + "\n</body></html>\n")


def bar_chart_svg(table: CellTable, width: int = 640, bar: int = 14) -> str:
    """Horizontal bars of the cells shown: wall time (orange) with CPU time (blue) over it."""
    rows = table.rows
    if not rows:
        return ""
    label_w, gap = 190, 4
    top = max(max(r.wall_s, r.cpu_s) for r in rows) or 1.0
    scale = (width - label_w - 70) / top
    height = len(rows) * (bar + gap) + gap
    items = []
    for i, r in enumerate(rows):
        y = gap + i * (bar + gap)
        count = f"[{r.execution_count}] " if r.execution_count is not None else ""
        label = f"#{i + 1} {count}{r.first_line}"
        label = label if len(label) <= 30 else label[:29] + "…"
        items.append(
            f'<text x="0" y="{y + bar - 3}" font-size="11">{escape(label)}</text>'
            f'<rect x="{label_w}" y="{y}" width="{max(1.0, r.wall_s * scale):.1f}" height="{bar}" '
            f'fill="{_WALL}">'
            f"<title>{escape(f'wall {fmt.seconds(r.wall_s)}, CPU {fmt.seconds(r.cpu_s)}')}</title></rect>"
            f'<rect x="{label_w}" y="{y + bar / 3:.1f}" width="{r.cpu_s * scale:.1f}" height="{bar / 3:.1f}" '
            f'fill="{_CPU}"/>'
            f'<text x="{label_w + max(1.0, r.wall_s * scale, r.cpu_s * scale) + 4:.1f}" y="{y + bar - 3}" '
            'font-size="11">'
            f"{escape(fmt.seconds(r.wall_s))}</text>"
        )
    legend = (f'<div style="font-size:11px;color:#666"><span style="color:{_WALL}">■</span> wall time '
              f'<span style="color:{_CPU}">■</span> CPU time</div>')
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" role="img" '
            f'aria-label="wall time of the slowest cells">{"".join(items)}</svg>{legend}')

