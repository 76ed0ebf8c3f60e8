"""What `%aiperf fix` prints: "rewritten with" only for the fixes its cell holds, in monospace everywhere."""

from __future__ import annotations

import pytest

from aiperf_magic.ipython.commands.fixes import CellFix, fix_command
from aiperf_magic.ipython.subcommands import CommandContext, SessionState
from aiperf_magic.report import Finding, Fix, Report

SRC = "import numpy as np\nsq = [x ** 2 for x in range(10_000)]\n"


@pytest.fixture
def ctx(ip):
    yield CommandContext(ip, SessionState())


def test_a_runtime_finding_is_not_called_applied(ctx) -> None:
    dtype = Finding("AIP303", "smaller dtypes", fix=Fix(title="Convert", source=SRC + "df = df.astype('int8')\n"),
                    fixable=True)
    ctx.state.remember(Report(source=SRC, findings=[Finding("AIP201", "m", line=2, col=6), dtype]))
    out = fix_command(ctx, ["--unsafe"])
    assert out.applied == ["AIP201"]  # the AIP303 rewrite is not in the shown cell
    assert any(s.startswith("AIP303") and "%aiperf apply 2" in s for s in out.skipped)
    assert "the notebook cell is unchanged" in out.text()


def test_nothing_to_rewrite_says_so() -> None:
    out = CellFix(source=SRC, diff="", applied=[], skipped=[])
    assert out.text().startswith("aiperf fix: no rewrite applies") and "applied AIP" not in out.text()


def test_html_is_monospace_and_keeps_diff_lines_apart() -> None:
    out = CellFix(source="a <b>\n", diff="--- cell\n+++ cell\n-a <b>\n+a = 2\n", applied=["AIP201"], skipped=["x"])
    html = out._repr_html_()
    assert 'class="aiperf-fix" style="font-family:' in html and "monospace" in html.split(">", 1)[0]
    assert "<b>" not in html.replace("<b>aiperf", "") and "a &lt;b&gt;" in html
    assert '<div style="background:#ffebe9">-a &lt;b&gt;</div><div style="background:#dafbe1">+a = 2</div>' in html
