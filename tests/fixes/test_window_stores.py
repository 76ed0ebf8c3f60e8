"""AIP201 for a moving window stored per index (a moving average): one reduction over a sliding window
view, equal to the loop's for both ways of writing the window; refused where the run does not show
a 1-D array and a window it fits, or the slice is not the index's window."""

from __future__ import annotations

from typing import Any

import pytest

from aiperf_magic.rules import analyze_cell
from tests.fixes.fixer_output import rewritten

np = pytest.importorskip("numpy")

BEFORE = ("ma = np.full(len(prices), np.nan)\nfor i in range(window, len(prices)):\n"
          "    ma[i] = prices[i - window:i].{r}()\n")
ENDING = ("ma = np.zeros(len(prices))\nfor i in range(window - 1, len(prices)):\n"
          "    ma[i] = prices[i - window + 1:i + 1].{r}()\n")


def rewrite(source: str, ns: dict[str, Any]) -> str:
    analysis = analyze_cell(source, namespace=ns)
    assert analysis.cell is not None and analysis.facts is not None
    return rewritten(analysis, "AIP201", analysis.facts.loops[0].node)


@pytest.mark.parametrize("shape", [BEFORE, ENDING])
@pytest.mark.parametrize("reducer", ["mean", "sum", "max", "std"])
def test_every_window_at_once_equals_the_loop(shape: str, reducer: str) -> None:
    ns = {"np": np, "prices": 100 + np.random.default_rng(3).normal(0, 1, 3_000).cumsum(), "window": 20}
    source = "import numpy as np\n" + shape.format(r=reducer)
    out = rewrite(source, ns)
    assert "sliding_window_view(prices, window)" in out and f".{reducer}(axis=1)" in out, out
    before, after = dict(ns), dict(ns)
    exec(source, before)
    exec(out, after)
    assert np.allclose(before["ma"], after["ma"], rtol=1e-12, atol=0, equal_nan=True)


@pytest.mark.parametrize(("source", "ns", "why"), [
    (BEFORE.format(r="mean"), {"prices": np.ones((40, 2)), "window": 5}, "one-dimensional NumPy array"),
    (BEFORE.format(r="mean"), {"prices": np.ones(4), "window": 5}, "an int from 1 to len(prices)"),
    (BEFORE.format(r="mean").replace("i - window:i", "i - window:i - 1"), {"prices": np.ones(40), "window": 5},
     "not the window of the loop's index"),
    (BEFORE.format(r="mean").replace("range(window, len(prices))", "range(window, 30)"),
     {"prices": np.ones(40), "window": 5}, "not range(start, len(a))"),
])
def test_no_rewrite_where_the_windows_would_differ(source: str, ns: dict[str, Any], why: str) -> None:
    assert why in rewrite("import numpy as np\n" + source, {"np": np, **ns})
