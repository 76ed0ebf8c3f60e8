"""Measure-first fixes: their gain depends on size, so they are never applied by default.

``lint --fix`` applies them only with ``--unsafe-fixes``; ``%%aiperf`` proposes them only when the
run's own sizes and times say they pay (``rules.payoff.decide``), and says so; the panel enables
Apply only after a Try measured them equal *and* faster.
"""

from __future__ import annotations

import os
from typing import Any

import libcst as cst
import numpy as np
import pytest

from aiperf_magic.fixes.edits import Edits
from aiperf_magic.render.panel.actions import FixAction, PanelContext
from aiperf_magic.report import Comparison, Finding, Fix, Report
from aiperf_magic.rules import analyze_cell, apply_fixes, attach_fixes
from aiperf_magic.rules.payoff import decide


def _decided(source: str, ns: dict[str, Any], wall_s: float = 0.5, seconds: float | None = None) -> Finding:
    analysis = analyze_cell(source, select=["ALL"], namespace=ns)
    attach_fixes(analysis)
    finding = next(f for f in analysis.findings if f.fix is not None and f.fix.measure_first)
    assert finding.fixable and finding.fix is not None and finding.fix.safety == "unsafe"
    if seconds is not None:
        finding.evidence["seconds"] = seconds
    decide(finding, analysis.node_of(finding), analysis.cell, ns, wall_s, sampled=seconds is not None)
    return finding


@pytest.mark.parametrize(
    ("source", "ns", "pays"),
    [
        ("squares = [v ** 2 for v in xs]\n", {"xs": np.arange(600)}, False),
        ("squares = [v ** 2 for v in xs]\n", {"xs": np.arange(50_000)}, True),
        ("celsius = [(f - 32) * 5 / 9 for f in temps]\n", {"temps": [float(i) for i in range(20_000)]}, False),
        ("celsius = [(f - 32) * 5 / 9 for f in temps]\n", {"temps": [float(i) for i in range(200_000)]}, True),
    ],
)
def test_array_rewrites_are_proposed_only_when_the_run_walked_enough_items(
    source: str, ns: dict[str, Any], pays: bool
) -> None:
    f = _decided(source, ns)
    assert f.fix is not None and f.fix.evidence_note
    if pays:
        assert f.fixable and f.fix.source and f.fix.evidence_note.startswith("proposed because this run shows it pays")
    else:
        assert not f.fixable and not f.fix.source and not f.fix.diff
        assert f.fix.reason and f.fix.reason.startswith("measure first") and "items" in f.fix.reason


def test_a_list_from_a_python_list_is_proposed_only_when_the_loop_was_slower_than_the_round_trip() -> None:
    """The list goes to an array and back (``.tolist()`` keeps its Python numbers): that costs about
    55 ns an item, so a cheap loop over 200,000 items that took 8 ms is not worth it, a costly one is."""
    ns = {"counts": list(range(200_000))}
    cheap = _decided("doubled = [c * 2 for c in counts]\n", ns, seconds=0.008)
    assert not cheap.fixable and cheap.fix is not None and "a list again" in (cheap.fix.reason or "")
    assert "40 ns each" in (cheap.fix.reason or "")
    costly = _decided("doubled = [c * 2 for c in counts]\n", ns, seconds=0.05)
    assert costly.fixable and costly.fix is not None and ".tolist()" in costly.fix.source
    summed = _decided("total = sum(c * 2 for c in counts)\n", ns, seconds=0.008)
    assert summed.fixable  # a sum makes no list again: only the conversion to an array is paid


COMPILE = """\
import torch
from torch import nn

model = nn.Sequential(nn.Linear(8, 8), nn.ReLU(), nn.Linear(8, 2)).eval()
batches = [torch.randn(4, 8) for _ in range(100)]
with torch.inference_mode():
    for xb in batches:
        out = model(xb)
"""


def test_compile_is_not_proposed_for_a_short_loop() -> None:
    ns: dict[str, Any] = {}
    exec(COMPILE, ns)
    short = _decided(COMPILE, ns, wall_s=0.2, seconds=0.2)
    assert not short.fixable and short.fix is not None and "compiling takes tens of seconds" in (short.fix.reason or "")
    long = _decided(COMPILE, ns, wall_s=300.0, seconds=290.0)
    assert long.fixable and long.fix is not None and "repay the compilation" in (long.fix.evidence_note or "")


def test_lint_fix_applies_a_measure_first_rewrite_only_with_unsafe_fixes() -> None:
    assert Edits("x", safety="safe", measure_first="size").needs_consent
    assert not Edits("x", safety="safe").needs_consent
    analysis = analyze_cell("squares = [v ** 2 for v in range(1_000_000)]\n", select=["ALL"])
    assert apply_fixes(analysis) == analysis.source
    assert "np.arange" in apply_fixes(analysis, unsafe=True)


class _NoBridge:
    def request(self, *args: Any) -> None:
        raise AssertionError("no edit expected")


def _action(fix: Fix) -> FixAction:
    report = Report(source="x = 1\n", findings=[Finding("AIP201", "test", line=1, fixable=True, fix=fix)])
    return FixAction(PanelContext(report, bridge=_NoBridge(), namespace={}), 1, fix)  # type: ignore[arg-type]


def test_the_panel_applies_a_measure_first_fix_only_after_try_measured_it_faster() -> None:
    fix = Fix(title="arrays", safety="unsafe", source="x = 2\n", measure_first="size")
    action = _action(fix)
    action.set_confirmed(True)  # no confirmation stands in for the measurement
    assert not action.edit.allowed and action.state()["measure_first"]
    action.comparison = Comparison(equal=True, speedup=0.99)
    action._changed()
    gate = action.state()["gate"] or ""
    assert not action.edit.allowed and "not faster" in gate
    # the measurement and the machine it was made on, as the panel says it
    cores = os.cpu_count() or 1
    assert gate.startswith(f"×0.99 on this machine: {cores} core") and "not worth it here" in gate
    action.comparison = Comparison(equal=True, speedup=3.0)
    action._changed()
    assert action.edit.allowed and action.state()["gate"] is None


LOADER = """\
from torch.utils.data import DataLoader

loader = DataLoader(dataset, batch_size=64, shuffle=True)
"""


def test_loader_workers_stay_proposed_for_try_to_measure() -> None:
    short = _decided(LOADER, {}, wall_s=0.3)
    assert short.fixable and short.fix is not None and "num_workers" in short.fix.source
    assert (short.fix.evidence_note or "").startswith("Try measures whether it pays here: the cell took 0.3 s")
    # Apply still waits for a Try that measured it faster
    action = _action(short.fix)
    action.set_confirmed(True)
    assert not action.edit.allowed


def test_an_array_rewrite_counts_the_items_the_run_counted() -> None:
    source = ("def reciprocals(values):\n    out = np.empty(len(values))\n    for i in range(len(values)):\n"
              "        out[i] = 1.0 / values[i]\n    return out\n")
    analysis = analyze_cell(source, select=["ALL"], namespace={"np": np})
    node = next(n for n in analysis.cell.nodes(cst.For))  # type: ignore[union-attr]
    fix = Fix(title="arrays", safety="unsafe", source="x\n", measure_first="size")
    finding = Finding("AIP201", "loop", line=3, fixable=True, fix=fix, evidence={"iterations": 1_000_000})
    decide(finding, node, analysis.cell, {}, 0.5, sampled=True)
    assert finding.fixable and "1,000,000 items" in (fix.evidence_note or "")
