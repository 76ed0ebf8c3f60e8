"""``%aiperf rules``, ``%aiperf explain`` and ``%%aiperf`` findings, in a real IPython shell."""

from __future__ import annotations

from typing import Any

import pytest
from IPython.core.error import UsageError

from aiperf_magic.rules.catalog import RuleDoc, RuleTable, explain, markdown_html
from aiperf_magic.rules.registry import Rule


def test_rules_line_magic_returns_the_catalog(ip: Any) -> None:
    table = ip.run_line_magic("aiperf", "rules")
    assert isinstance(table, RuleTable) and len(table.rules) == 36 and table.rules[-1].code == "AIP914"
    text = ip.display_formatter.format(table)[0]["text/plain"]
    assert "AIP301" in text and "dataframe-row-loop" in text
    assert "<table" in table._repr_html_()
    only = ip.run_line_magic("aiperf", "rules AIP3")
    assert [r.code for r in only.rules] == ["AIP301", "AIP302", "AIP303", "AIP304"]


def test_explain_line_magic(ip: Any) -> None:
    doc = ip.run_line_magic("aiperf", "explain AIP301")
    assert isinstance(doc, RuleDoc) and doc.rule is not None
    plain = ip.display_formatter.format(doc)[0]["text/plain"]
    assert "## Why is this bad?" in plain and "iterrows" in plain
    html = doc._repr_html_()
    assert "<h4>Why is this bad?</h4>" in html and "<pre><code>" in html
    with pytest.raises(UsageError, match=r"Unknown rule code 'AIP399'\. Did you mean AIP301"):
        ip.run_line_magic("aiperf", "explain AIP399")
    with pytest.raises(UsageError, match="usage: %aiperf explain CODE"):
        ip.run_line_magic("aiperf", "explain")
    verdict = ip.run_line_magic("aiperf", "explain AIP901")
    assert verdict.rule is not None and "## Why is this bad?" in verdict.text() and "gpu-starved" in verdict.text()


def test_cell_magic_puts_findings_in_the_report(ip: Any) -> None:
    ip.run_cell("import torch.utils.data as tud\nfrom aiperf_magic.report import Report")
    ip.run_cell(
        "class Photos(tud.Dataset):\n"
        "    def __len__(self):\n        return 8\n"
        "    def __getitem__(self, i):\n        return open(f'{i}.png', 'rb').read()\n"
        "photos = Photos()\n"
    )
    ip.run_cell("%%aiperf --var rep --text --no-gpu\nloader = tud.DataLoader(photos, batch_size=16)\n")
    report = ip.user_ns["rep"]
    codes = [(f.code, f.line) for f in report.findings]
    assert ("AIP101", 1) in codes  # line 1 of the body; `tud` resolved through the live namespace


def test_html_escapes_user_text() -> None:
    rule = Rule("AIP999", "x", "<script>alert(1)</script>", "## What it does\n<b>`<i>`</b>\n")
    assert "<script>" not in RuleTable([rule])._repr_html_()
    assert "<b>" not in RuleDoc(rule)._repr_html_()
    assert "&lt;script&gt;" in RuleDoc(None, "<script>")._repr_html_()
    assert "<code>&lt;i&gt;</code>" in markdown_html("`<i>`")


def test_explain_is_case_insensitive() -> None:
    assert explain(" aip101 ").rule is not None


def test_cell_magic_reads_functions_defined_in_earlier_cells(ip: Any) -> None:
    ip.run_cell("def crunch(n):\n    total = 0\n    for i in range(n):\n        total += i % 7\n    return total\n")
    ip.run_cell(
        "%%aiperf --var rep2 --text --no-gpu\n"
        "from concurrent.futures import ThreadPoolExecutor\n"
        "with ThreadPoolExecutor(2) as ex:\n"
        "    totals = list(ex.map(crunch, [1000, 1000]))\n"
    )
    assert [(f.code, f.line) for f in ip.user_ns["rep2"].findings if f.code.startswith("AIP4")] == [("AIP401", 2)]
