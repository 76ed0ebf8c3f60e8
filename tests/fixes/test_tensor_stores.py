"""AIP201's index loop into a torch tensor (the static detector leaves tensors to the run, which
hands the fixer the loop): one slice store, equal element for element; refused where a value
indexed is not a tensor."""

from __future__ import annotations

from typing import Any

import libcst as cst
import pytest

from aiperf_magic.fixes.edits import Edits
from aiperf_magic.report import Finding
from aiperf_magic.rules import all_rules, analyze_cell
from aiperf_magic.rules.fixing import to_fix

torch = pytest.importorskip("torch")

LOOP = "c = torch.zeros(n)\nt = 0\nfor i in range(n):\n    c[i] = a[i] * 0.5 + b[i]  # the sum\n"


def fixed(source: str, namespace: dict[str, Any]) -> Edits | str:
    analysis = analyze_cell(source, select=["AIP201"], namespace=namespace)
    assert analysis.cell is not None and analysis.facts is not None
    loop = next(n for n in analysis.cell.nodes(cst.For))
    fixer = all_rules()["AIP201"].fixer
    assert fixer is not None
    out = fixer(analysis.cell, loop, analysis.facts)
    if isinstance(out, Edits):
        fix = to_fix(analysis, Finding(code="AIP201", message="", line=3), out)
        return fix.source or fix.reason or ""
    return out


def data(a: Any) -> dict[str, Any]:
    return {"torch": torch, "n": 3000, "a": a, "b": torch.ones(3000, dtype=torch.float64)}


def test_an_index_loop_into_a_tensor_becomes_one_slice_store_with_the_same_elements() -> None:
    ns = data(torch.arange(3000, dtype=torch.float32))
    new = fixed(LOOP, ns)
    # the comment of the loop body stays, above the new line
    assert new == "c = torch.zeros(n)\nt = 0\n# the sum\nc[:n] = a[:n] * 0.5 + b[:n]\n"
    before, after = dict(ns), dict(ns)
    exec(LOOP, before)
    exec(new, after)
    assert before["c"].dtype == after["c"].dtype and torch.equal(before["c"], after["c"])


@pytest.mark.parametrize(("source", "a", "why"), [
    (LOOP, [float(i) for i in range(3000)], "a is not known to be a torch tensor"),
    ("c = torch.zeros(n)\nfor i in range(n):\n    c[i] = c[i - 1] + a[i]\n", None, "reads c itself"),
    ("c = torch.zeros(n)\nfor i in range(n):\n    c[i] = a[i] * i\n", None, "the loop's index itself"),
    ("c = [0.0] * n\nfor i in range(n):\n    c[i] = a[i] + b[i]\n", None, "not over range(len(a))"),
])
def test_no_slice_store_because(source: str, a: Any, why: str) -> None:
    answer = fixed(source, data(torch.arange(3000.0) if a is None else a))
    assert isinstance(answer, str) and why in answer, answer
