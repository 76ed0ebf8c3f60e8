"""Views of the ranked table: text, HTML fragment, standalone page, the plotly chart and the bundle."""

from __future__ import annotations

import re

from aiperf_magic.auto.history import CellRecord, rank
from aiperf_magic.ipython.commands.auto import CellTableView
from aiperf_magic.render.auto_report import (
    bar_chart_svg,
    render_table_document,
    render_table_html,
    render_table_text,
)
from aiperf_magic.report import Finding

EVIL = '<img src=x onerror="alert(1)">'


def table(**kw):
    cells = [
        CellRecord(kind="auto", execution_count=3, cell_id="0f6c1b2a-77aa-4f0e", first_line=f"s = '{EVIL}'",
                   started_at=1, wall_s=2.5, cpu_s=5.0, peak_rss_bytes=300 << 20, gpu_util_mean=41.2,
                   gpu_util_max=97.0, findings=[Finding(code="AIP301", message=f"row loop {EVIL}", line=2)]),
        CellRecord(kind="aiperf", execution_count=7, first_line="train()", started_at=2, wall_s=0.75,
                   cpu_s=0.7, verdict_code="AIP907", verdict_title="CPU-bound", error="ValueError: x"),
    ]
    return rank(cells, **kw)


def test_text_view_lists_cells_ranked_with_their_columns():
    text = render_table_text(table())
    lines = text.splitlines()
    assert lines[0].startswith("aiperf report — 2 profiled cells: 3.25 s wall, 5.70 s CPU")
    assert "1 with findings (AIP301)" in lines[0] and "1 raised" in lines[0]
    assert lines[1].split()[:4] == ["#", "cell", "cell", "id"]
    assert lines[2].split()[:4] == ["1", "[3]", "0f6c1b2a…", "2.50"]
    assert "41% (max 97%)" in lines[2] and "300.0 MB" in lines[2] and "2.0 cores" in lines[2]
    assert "[7] %%aiperf" in lines[3] and "AIP907 CPU-bound" in lines[3] and "raised ValueError" in lines[3]
    assert "#1 line 2 AIP301: row loop" in text


def test_text_view_drops_the_cell_id_column_outside_notebooks():
    t = table()
    t.rows[0].cell_id = None
    assert "cell id" not in render_table_text(t)


def test_html_escapes_every_user_string_and_page_is_self_contained():
    page = render_table_document(table())
    assert EVIL not in page and "<img" not in page
    assert "&lt;img src=x onerror=&quot;alert(1)&quot;&gt;" in page
    assert "<script" not in page and "<link" not in page and not re.search(r"<[^>]*\ssrc=", page)
    assert page.count("<tr>") == 3 and "<svg" in page
    assert 'title="0f6c1b2a-77aa-4f0e"' in page  # the full id on hover


def test_bar_chart_has_one_bar_per_cell_scaled_to_the_slowest():
    svg = bar_chart_svg(table())
    widths = [float(w) for w in re.findall(r'<rect x="\d+" y="\d+" width="([\d.]+)" height="14"', svg)]
    assert len(widths) == 2 and widths[0] > widths[1]
    assert bar_chart_svg(rank([])) == ""
    assert "<svg" not in render_table_html(table(), chart=False)


def test_plotly_figure_and_widget_bundle():
    from aiperf_magic.render.frontend import WIDGET_MIME, can_render_widgets
    from aiperf_magic.render.panel.auto_table import auto_bundle, bar_figure

    fig = bar_figure(table())
    wall, cpu = fig.data
    assert list(wall.x) == [0.75, 2.5] and list(cpu.x) == [0.7, 5.0]  # slowest drawn on top
    assert all("<img" not in label for label in wall.y) and "&lt;img" in wall.y[1]
    bundle = auto_bundle(table(), {"text/plain": "t", "text/html": "h"})
    assert bundle["text/plain"] == "t" and bundle[WIDGET_MIME]["model_id"]
    assert not can_render_widgets()  # no kernel in the test shell: the view stays static
    static = CellTableView(table())._repr_mimebundle_()
    assert set(static) == {"text/plain", "text/html"}
