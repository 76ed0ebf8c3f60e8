"""AIP201 for a loop body of several statements: per-element temporaries feeding running sums (a
gradient step written per sample, a cost summed term by term) become arrays and sums, in a cell or
in a function whose loop runs over ``range(m)`` with ``m = x.shape[0]``; refused where the arrays
would not compute the same."""

from __future__ import annotations

from typing import Any

import pytest

from aiperf_magic.rules import analyze_cell
from tests.fixes.fixer_output import rewritten

np = pytest.importorskip("numpy")

GRADIENT = """\
import numpy as np


def mse_grads(features, targets, slope, bias):
    n = features.shape[0]
    g_slope = 0.0
    g_bias = 0.0
    for k in range(n):
        pred = slope * features[k] + bias
        resid = pred - targets[k]  # the sample's share
        g_slope += 2 * resid * features[k]
        g_bias += 2 * resid
    return g_slope / n, g_bias / n
"""
COST = """\
import numpy as np
cost_sum = 0
for i in range(len(xs)):
    f = w * xs[i] + b
    cost = (f - ys[i]) ** 2
    cost_sum = cost_sum + cost
"""


def rewrite(source: str, **live: Any) -> str:
    analysis = analyze_cell(source, namespace=live)
    assert analysis.cell is not None and analysis.facts is not None
    (loop,) = [lp for lp in analysis.facts.loops if lp.kind == "for"]
    return rewritten(analysis, "AIP201", loop.node)


def data() -> dict[str, Any]:
    rng = np.random.default_rng(4)
    x = rng.uniform(5.0, 22.5, 500)
    return {"x": x, "y": 1.2 * x - 3.9 + rng.normal(0, 3.0, 500), "xs": x, "ys": 2.0 * x, "w": 1.1, "b": -0.5}


def test_a_gradient_summed_per_sample_in_a_function_becomes_arrays_and_sums_with_the_same_result() -> None:
    out = rewrite(GRADIENT, **data())
    assert "for i in range" not in out, out
    assert "pred = slope * np.asarray(features) + bias" in out
    assert "resid = pred - np.asarray(targets)[:n]" in out
    assert "g_slope += (2 * resid * np.asarray(features)).sum()" in out and "g_bias += (2 * resid).sum()" in out
    assert "# the sample's share" in out  # the user's comment is kept
    before: dict[str, Any] = {}
    after: dict[str, Any] = {}
    exec(GRADIENT, before)
    exec(out, after)
    d = data()
    got = after["mse_grads"](d["x"], d["y"], d["w"], d["b"])
    want = before["mse_grads"](d["x"], d["y"], d["w"], d["b"])
    assert np.allclose(got, want, rtol=1e-12, atol=0) and type(got[0]) is type(want[0])


def test_a_cost_summed_as_acc_equals_acc_plus_term_over_range_len() -> None:
    out = rewrite(COST, **data())
    assert "cost_sum += cost.sum()" in out and "np.asarray(ys)" in out, out
    before, after = dict(data()), dict(data())
    exec(COST, before)
    exec(out, after)
    assert np.isclose(after["cost_sum"], before["cost_sum"], rtol=1e-12)


@pytest.mark.parametrize(("body", "reason"), [
    # a temporary read after the loop would hold an array, not the last element's value
    ("    f = w * xs[i] + b\n    total += f\nprint(f)\n", "f is read after the loop"),
    # the running total is read by a step: each step depends on the one before
    ("    f = w * xs[i] + total\n    total += f\n", None),
    # a temporary read before this pass sets it carries the previous element's value
    ("    total += t\n    t = xs[i] * 2\n", None),
    # a call per element is not arithmetic
    ("    f = float(xs[i])\n    total += f * 2\n", None),
])
def test_bodies_that_arrays_would_not_compute_the_same_are_not_rewritten(body: str, reason: str | None) -> None:
    source = "import numpy as np\ntotal = 0\nfor i in range(len(xs)):\n" + body
    out = rewrite(source, **data())
    assert "np.asarray(xs)" not in out, out
    if reason is not None:
        assert reason in out, out


@pytest.mark.parametrize("source", [
    # read after the block that holds the loop
    "total = 0\nif w:\n    for i in range(len(xs)):\n        f = w * xs[i] + b\n        total += f\nprint(f)\n",
    # read before the loop inside an outer loop: the next pass sees the last element's value
    "total = 0\nfor r in range(3):\n    print(f)\n    for i in range(len(xs)):\n        f = w * xs[i] + b\n"
    "        total += f\n",
])
def test_a_temporary_read_later_from_an_enclosing_block_keeps_the_loop(source: str) -> None:
    analysis = analyze_cell(source, namespace=data())
    assert analysis.cell is not None and analysis.facts is not None
    inner = max((lp for lp in analysis.facts.loops if lp.kind == "for"),
                key=lambda lp: analysis.cell.user_range(lp.node)[0])  # type: ignore[union-attr,index]
    out = rewritten(analysis, "AIP201", inner.node)
    assert "f is read after the loop" in out, out
