"""AIP201 for a matrix product in three nested index loops: one outer product per step of the sum's
index, bit for bit what the loops computed (every element gets the same additions in the same
order), in a cell or in a function whose parameters the run shows; refused where the product would
not compute the same."""

from __future__ import annotations

from typing import Any

import pytest

from aiperf_magic.rules import analyze_cell
from tests.fixes.fixer_output import rewritten

torch = pytest.importorskip("torch")
np = pytest.importorskip("numpy")

CELL = """\
import torch
c = torch.zeros(n, m)
for i in range(n):
    for j in range(m):
        for k in range(l):
            c[i, j] += a[i, k] * b[k, j]
"""
FUNCTION = """\
import torch


def matmul(a, b):
    ar, ac = a.shape
    br, bc = b.shape
    assert ac == br
    c = torch.zeros(ar, bc)
    for i in range(ar):
        for j in range(bc):
            for k in range(ac):
                c[i, j] += a[i, k] * b[k, j]
    return c
"""


def rewrite(source: str, which: int = -1, **live: Any) -> str:
    analysis = analyze_cell(source, namespace=live)
    assert analysis.cell is not None and analysis.facts is not None
    loops = sorted(analysis.facts.loops, key=lambda lp: analysis.cell.user_range(lp.node)[0])  # type: ignore[union-attr,index]
    return rewritten(analysis, "AIP201", loops[which].node)


def run(source: str, **values: Any) -> dict[str, Any]:
    ns: dict[str, Any] = {"torch": torch, "np": np, **values}
    exec(source, ns)
    return ns


def operands() -> dict[str, Any]:
    gen = torch.Generator().manual_seed(3)
    return {"a": torch.rand(6, 300, generator=gen), "b": torch.randn(300, 4, generator=gen)}


@pytest.mark.parametrize("which", [0, 1, 2])
def test_the_loops_become_one_outer_product_per_step_bit_for_bit(which: int) -> None:
    values = {**operands(), "n": 6, "m": 4, "l": 300}
    out = rewrite(CELL, which, **values)
    assert "for k in range(l):\n    c += a[:n, k:k + 1] * b[k:k + 1, :m]" in out, out
    assert "for i" not in out and "for j" not in out
    before, after = run(CELL, **values)["c"], run(out, **values)["c"]
    assert torch.equal(before, after)  # the same additions in the same order: no rounding difference
    # the check tells summation orders apart: the same sum rounded once (in float64) is not the loops'
    # 300 roundings (a BLAS product in one call may or may not be, by the CPU it runs on)
    assert not torch.equal(before, (values["a"].double() @ values["b"].double()).float())


def test_in_a_function_the_live_arguments_stand_for_the_parameters() -> None:
    values = operands()
    out = rewrite(FUNCTION, **values)
    # the bounds unpacked from a.shape and b.shape are whole dimensions: no slice for them
    assert "    for k in range(ac):\n        c += a[:, k:k + 1] * b[k:k + 1]\n    return c" in out, out
    assert torch.equal(run(FUNCTION)["matmul"](**values), run(out)["matmul"](**values))


def test_other_nesting_orders_and_a_numpy_product() -> None:
    source = ("import numpy as np\nout = np.zeros((n, m))\nfor k in range(l):\n    for i in range(n):\n"
              "        for j in range(m):\n            out[i][j] += y[k, j] * x[i, k]\n")
    rng = np.random.default_rng(1)
    values = {"x": rng.random((7, 9)), "y": rng.random((9, 5)), "n": 7, "m": 5, "l": 9}
    out = rewrite(source, **values)
    assert "out += x[:n, k:k + 1] * y[k:k + 1, :m]" in out, out
    assert np.array_equal(run(source, **values)["out"], run(out, **values)["out"])


@pytest.mark.parametrize(("source", "live", "why"), [
    (CELL + "print(i)\n", {}, "is read after the loops"),
    (CELL.replace("torch.zeros(n, m)", "torch.zeros(n, m, dtype=torch.float64)"), {}, "its own dtype or device"),
    (CELL.replace("c = torch.zeros(n, m)", "c = start.clone()"), {}, "not a tensor or an array made just before"),
    (CELL.replace("a[i, k] * b[k, j]", "a[i, k] * b[j, k]"), {}, "do not sum x[i, k] * y[k, j]"),
    (CELL.replace("a[i, k] * b[k, j]", "a[i, k] + b[k, j]"), {}, "does not add a product"),
    (CELL.replace("a[i, k] * b[k, j]", "c[i, k] * b[k, j]"), {}, "reads c itself"),
    (CELL.replace("c = torch", "a = a.T\nc = torch"), {}, "a is bound again in the cell"),
    (CELL, {"a": torch.arange(6 * 300).reshape(6, 300)}, "holds torch.int64"),
    (CELL, {"a": torch.rand(6, 300, 2)}, "is not 2-D"),
    (CELL, {"a": [[1.0] * 300] * 6}, "does not show a as a tensor"),
    (CELL.replace("c[i, j] += a[i, k]", "c[t, j] += a[t, k]"), {"t": 0}, "do not sum x[i, k] * y[k, j]"),
])
def test_no_product_where_it_would_not_compute_the_same(source: str, live: dict[str, Any], why: str) -> None:
    values = {**operands(), "n": 6, "m": 4, "l": 300, **live}
    assert why in rewrite(source, **values)


def test_a_fourth_loop_or_another_body_is_left_to_the_other_rewrites() -> None:
    two = "import torch\nc = torch.zeros(n, m)\nfor i in range(n):\n    for j in range(m):\n        c[i, j] = i * j\n"
    assert "outer product" not in rewrite(two, **operands())
    body = CELL.replace("            c[i, j] +=", "            print(k)\n            c[i, j] +=")
    assert "k:k + 1" not in rewrite(body, **operands())
