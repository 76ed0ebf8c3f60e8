"""AIP201 for two nested index loops storing into every [i, j] (a causal mask, a grid of i and j):
one store of the whole grid, equal to the loops' stores; the inner loop of another shape is left to
the other rewrites; refused where the grid would not store the same."""

from __future__ import annotations

from typing import Any

import pytest

from aiperf_magic.rules import analyze_cell
from tests.fixes.fixer_output import rewritten

torch = pytest.importorskip("torch")
np = pytest.importorskip("numpy")

MASK = """\
mask = torch.zeros(n, n)
for i in range(n):
    for j in range(n):
        if j > i:
            mask[i, j] = float("-inf")
"""
GRID = """\
d = np.zeros((n, m))
for i in range(n):
    for j in range(m):
        d[i][j] = abs(i - j) * scale + 1
"""


def rewrite(source: str, inner: bool = True) -> str:
    analysis = analyze_cell(source)
    assert analysis.cell is not None and analysis.facts is not None
    loops = sorted(analysis.facts.loops, key=lambda lp: analysis.cell.user_range(lp.node)[0])  # type: ignore[union-attr,index]
    return rewritten(analysis, "AIP201", loops[1 if inner else 0].node)


def run(source: str, **values: Any) -> dict[str, Any]:
    ns: dict[str, Any] = {"torch": torch, "np": np, **values}
    exec(source, ns)
    return ns


@pytest.mark.parametrize("inner", [True, False])
def test_a_causal_mask_is_one_store(inner: bool) -> None:
    out = rewrite("import torch\n" + MASK, inner)
    assert "mask[:n, :n][torch.arange(n)[None, :] > torch.arange(n)[:, None]] = float(\"-inf\")" in out, out
    assert torch.equal(run(MASK, n=17)["mask"], run(out, n=17)["mask"])


def test_a_grid_of_the_indices_into_a_larger_array() -> None:
    out = rewrite("import numpy as np\n" + GRID)
    assert "d[:n, :m] = " in out, out
    before, after = run(GRID, n=9, m=13, scale=0.5), run(out, n=9, m=13, scale=0.5)
    assert np.array_equal(before["d"], after["d"]) and before["d"].dtype == after["d"].dtype


@pytest.mark.parametrize(("source", "why"), [
    (MASK + "print(i, j)\n", "is read after the loops"),
    (MASK.replace('float("-inf")', "i * 2.0"), "not a number"),
    (MASK.replace("mask = torch.zeros(n, n)", "mask = make(n)"), "not a tensor or an array made just before"),
    (GRID.replace("abs(i - j) * scale + 1", "f(i, j)"), "not arithmetic of the loops' indices"),
])
def test_no_grid_where_it_would_not_store_the_same(source: str, why: str) -> None:
    assert why in rewrite("import torch\nimport numpy as np\n" + source)


def test_another_inner_loop_is_left_to_the_other_rewrites() -> None:
    source = "import numpy as np\nout = np.zeros(m)\nfor i in range(n):\n    for j in range(m):\n        out[j] = j * 2\n"
    assert "[:n, :m]" not in rewrite(source)
