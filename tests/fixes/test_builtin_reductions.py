"""AIP201 for sum/min/max over a NumPy array (found by the run): NumPy's reduction, equal to the
builtin's in value and type (floats summed in order), for every such call on the statement; refused
for 2-D arrays, NaN under min/max, start values, and tensors (their own methods)."""

from __future__ import annotations

from typing import Any

import libcst as cst
import pytest

from aiperf_magic.cell.tree import walk_all
from aiperf_magic.fixes.edits import Edits, rewrite_python
from aiperf_magic.rules import all_rules, analyze_cell
from tests.fixes.fixer_output import rewritten

np = pytest.importorskip("numpy")
CELL = "total = sum(a)\nlow, high = min(a), max(a)\n"


def rewrite(source: str, ns: dict[str, Any], line: int = 1) -> str:
    analysis = analyze_cell(source, namespace=ns)
    assert analysis.cell is not None and analysis.facts is not None
    calls = [n for n in walk_all(analysis.cell.module) if isinstance(n, cst.Call)
             and analysis.cell.code(n.func) in ("sum", "min", "max")]
    call = next(c for c in calls if (analysis.cell.user_range(c) or (0,))[0] == line)
    return rewritten(analysis, "AIP201", call)


@pytest.mark.parametrize(
    "values", [np.random.default_rng(1).random(5_000), np.arange(5_000), np.arange(5_000) % 3 == 0]
)
def test_the_same_values_and_types_as_the_builtins(values: Any) -> None:
    ns = {"np": np, "a": values}
    first, second = rewrite(CELL, ns), rewrite(CELL, ns, line=2)
    assert ("np.cumsum(a)[-1]" if values.dtype.kind == "f" else "np.sum(a)") in first
    assert "low, high = np.min(a), np.max(a)" in second
    for fixed in (first, second):
        before, after = dict(ns), dict(ns)
        exec(CELL, before)
        exec(fixed, after)
        for name in ("total", "low", "high"):
            assert type(before[name]) is type(after[name]) and before[name] == after[name], (name, fixed)


@pytest.mark.parametrize(("source", "values", "why"), [
    (CELL, np.ones((50, 3)), "one-dimensional NumPy array"),
    ("low = min(a)\n", np.array([1.0, np.nan, 0.5] * 100), "holds NaN"),
    ("total = sum(a, 10)\n", np.arange(10), "start value"),
    (CELL, [1, 2, 3], "one-dimensional NumPy array"),
])
def test_no_rewrite_where_numpy_would_answer_otherwise(source: str, values: Any, why: str) -> None:
    assert why in rewrite(source, {"np": np, "a": values})


def test_a_tensor_is_told_its_own_method() -> None:
    torch = pytest.importorskip("torch")
    assert "write a.sum() (the tensor's own reduction)" in rewrite(CELL, {"a": torch.arange(10.0)})


@pytest.mark.parametrize("loop", ["for i in range(len(losses)):\n    total += losses[i].item()\n",
                                  "for x in losses:\n    total += x.item()\n"])
def test_a_sum_of_a_tensors_items_is_one_float64_sum(loop: str) -> None:
    torch = pytest.importorskip("torch")
    source = "total = 0.0\n" + loop + "mean_loss = total / len(losses)\n"
    ns = {"losses": torch.rand(20_000)}
    analysis = analyze_cell(source, namespace=ns)
    assert analysis.cell is not None and analysis.facts is not None
    fixer = all_rules()["AIP201"].fixer
    assert fixer is not None
    edits = fixer(analysis.cell, analysis.facts.loops[0].node, analysis.facts)
    assert isinstance(edits, Edits), edits
    out = rewrite_python(analysis.cell, [edits])
    assert out is not None and "total += losses.double().sum().item()" in out
    before, after = dict(ns), dict(ns)
    exec(source, before)
    exec(out, after)
    assert type(after["total"]) is float and abs(before["total"] - after["total"]) <= 1e-9 * abs(before["total"])


def test_integer_items_keep_the_loop() -> None:
    torch = pytest.importorskip("torch")
    source = "total = 0\nfor x in counts:\n    total += x.item()\n"
    analysis = analyze_cell(source, namespace={"counts": torch.arange(5_000)})
    fixer = all_rules()["AIP201"].fixer
    assert fixer is not None and analysis.cell is not None and analysis.facts is not None
    edits = fixer(analysis.cell, analysis.facts.loops[0].node, analysis.facts)
    out = rewrite_python(analysis.cell, [edits]) if isinstance(edits, Edits) else ""
    assert "double().sum()" not in (out or "")
