"""AIP502 with the run: ``inference_mode`` is not proposed where a name the loop binds or fills still
holds a tensor with its autograd graph after the cell (the rewrite would leave it without one, and
Try would show ``requires_grad True became False``); the same loop whose kept values carry no graph
(the loss as numbers, ``.argmax`` results) gets the rewrite."""

from __future__ import annotations

from typing import Any

import pytest

from aiperf_magic.rules import analyze_cell
from aiperf_magic.rules.fixing import attach_fixes

torch = pytest.importorskip("torch")

LOOP = """\
model.eval()
correct = 0
for images, labels in test_batches:
    outputs = model(images)
    correct += int((outputs.argmax(1) == labels).sum())
"""


def fix_of(source: str, ns: dict[str, Any]) -> Any:
    analysis = analyze_cell(source, select=["AIP502"], namespace=ns)
    attach_fixes(analysis)
    found = [f for f in analysis.findings if f.code == "AIP502"]
    assert found, analysis.findings
    return found[0].fix


def run(source: str) -> dict[str, Any]:
    torch.manual_seed(0)
    ns: dict[str, Any] = {"torch": torch, "model": torch.nn.Linear(4, 3),
                          "test_batches": [(torch.randn(8, 4), torch.randint(0, 3, (8,))) for _ in range(3)]}
    exec(source, ns)
    return ns


def test_a_kept_output_with_its_graph_gets_no_inference_mode() -> None:
    fix = fix_of(LOOP, run(LOOP))
    assert not fix.source and "outputs holds a tensor with its autograd graph" in (fix.reason or ""), fix


def test_kept_values_without_a_graph_get_the_rewrite() -> None:
    detached = LOOP.replace("outputs = model(images)", "outputs = model(images).detach()")
    fix = fix_of(detached, run(detached))
    assert fix.source and "inference_mode()" in fix.source, fix.reason
    listed = LOOP.replace("correct = 0\n", "kept = []\n").replace(
        "    correct += int((outputs.argmax(1) == labels).sum())\n", "    kept.append(outputs)\n")
    assert "kept holds a tensor" in (fix_of(listed, run(listed)).reason or "")  # filled in the loop: the same


def test_without_a_run_the_rewrite_is_proposed_and_try_decides() -> None:
    assert "inference_mode()" in fix_of(LOOP, {}).source
