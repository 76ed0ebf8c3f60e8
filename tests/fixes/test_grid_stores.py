"""AIP201 for two nested index loops storing into every [i, j] (a causal mask, a grid of i and j):
one store of the whole grid, equal to the loops' stores; the inner loop of another shape is left to
the other rewrites; refused where the grid would not store the same."""

from __future__ import annotations

from typing import Any

import pytest

from aiperf_magic.rules import analyze_cell
from tests.fixes.fixer_output import rewritten
from tests.fixes.test_reviewed_output import diagnostics, ruff_binary

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
    source = (
        "import numpy as np\nout = np.zeros(m)\nfor i in range(n):\n"
        "    for j in range(m):\n        out[j] = j * 2\n"
    )
    assert "[:n, :m]" not in rewrite(source)


PIXELS = """\
height, width, _ = img.shape
gray = np.zeros((height, width))
for i in range(height):
    for j in range(width):
        r, g, b = img[i, j]
        gray[i, j] = 0.299 * r + 0.587 * g + 0.114 * b
"""


def live_rewrite(source: str, **values: Any) -> str:
    """The inner loop's rewrite, the fixer seeing the names the cell's run left (as inside %%aiperf)."""
    ns = run(source, **values)
    analysis = analyze_cell(source, namespace=ns)
    assert analysis.cell is not None and analysis.facts is not None
    loops = sorted(analysis.facts.loops, key=lambda lp: analysis.cell.user_range(lp.node)[0])  # type: ignore[union-attr,index]
    return rewritten(analysis, "AIP201", loops[1].node)


def image(channels: int = 3, dtype: Any = np.uint8) -> Any:
    return np.random.default_rng(5).integers(0, 256, (37, 23, channels)).astype(dtype)


def test_a_pixel_unpacked_and_weighted_is_one_expression_of_the_channels() -> None:
    out = live_rewrite(PIXELS, img=image())
    assert ("gray[:height, :width] = 0.299 * img[:height, :width, 0] + 0.587 * img[:height, :width, 1]"
            " + 0.114 * img[:height, :width, 2]") in out, out
    assert "for " not in out and "import" not in out
    before, after = run(PIXELS, img=image())["gray"], run(out, img=image())["gray"]
    assert np.array_equal(before, after) and before.dtype == after.dtype  # the same float64 operations
    if ruff_binary() is not None:  # a reviewer's check: nothing unused or undefined left behind
        earlier = "import numpy as np\nimg = np.zeros((2, 2, 3))\n"
        assert set(diagnostics(earlier + out)) <= set(diagnostics(earlier + PIXELS))


def test_values_named_in_the_body_are_the_grids_of_their_values() -> None:
    source = PIXELS.replace("        gray[i, j] = 0.299 * r + 0.587 * g + 0.114 * b\n",
                            "        y = 0.5 * r + 0.25 * g\n"
                            "        gray[i][j] = y + 0.25 * b / 255.0 + img[i, j, 0] * 0.1\n")
    out = live_rewrite(source, img=image())
    assert "(0.5 * img[:height, :width, 0] + 0.25 * img[:height, :width, 1])" in out, out
    assert np.array_equal(run(source, img=image())["gray"], run(out, img=image())["gray"])


@pytest.mark.parametrize(("source", "values", "why"), [
    # uint8 + uint8 wraps in both, but the scalar warns at each wrap and the array does not
    (PIXELS.replace("0.299 * r + 0.587 * g + 0.114 * b", "(r + g + b) / 3"), {}, "may wrap"),
    (PIXELS, {"img": image(channels=4)}, "as many channels as names"),
    (PIXELS + "print(r)\n", {}, "is read after the loops"),
    (PIXELS.replace("gray = np.zeros", "img = img[::-1]\ngray = np.zeros"), {}, "not a pixel of an array of the run"),
    (PIXELS.replace("0.299 * r", "0.299 * gray[i, j - 1]"), {}, "read gray itself"),
    (PIXELS.replace("        r, g, b = img[i, j]\n", "        r, g, b = img[i, j]\n        s = s + 0.5 * r\n"),
     {"s": 0.0}, "the value of s is not arithmetic of the element"),
])
def test_no_grid_of_a_body_whose_elements_the_grid_would_not_compute_alike(source: str, values: dict[str, Any],
                                                                            why: str) -> None:
    values = {"img": image(), **values}
    ns = {"torch": torch, "np": np, **values}
    try:
        exec(source, ns)
    except Exception:
        pass
    analysis = analyze_cell(source, namespace=ns)
    assert analysis.cell is not None and analysis.facts is not None
    loops = sorted(analysis.facts.loops, key=lambda lp: analysis.cell.user_range(lp.node)[0])  # type: ignore[union-attr,index]
    assert why in rewritten(analysis, "AIP201", loops[1].node)


def test_a_body_with_other_statements_is_left_to_the_other_rewrites() -> None:
    source = PIXELS.replace("        r, g, b = img[i, j]\n", "        print(i)\n        r, g, b = img[i, j]\n")
    assert "gray[:height, :width]" not in live_rewrite(source, img=image())
