"""AIP203 from the run for a list rebuilt by ``+`` in a loop (``all_preds = all_preds + more``): the
live list's final length and the loop's iterations say how many items were copied. Growing in place,
numbers and arrays of a fixed size, and short lists stay silent."""

from __future__ import annotations

from typing import Any

import pytest

from aiperf_magic.report import Hotspot

from .test_from_run import hot, run_on

np = pytest.importorskip("numpy")

GROW = ("all_preds = []\nfor start in range(0, len(scores), 32):\n    batch = scores[start:start + 32]\n"
        "    all_preds = all_preds + (batch > 0.5).astype(int).tolist()\n")


def _spots(line: int = 4) -> list[Hotspot]:
    return [hot(line, 0.97, types={"all_preds": "list", "batch": "numpy.ndarray"},
                locals={"all_preds": "list of 26,400 int"}, loop_line=2)]


def _ns(final: Any, n: int = 128_000) -> dict[str, Any]:
    return {"scores": np.zeros(n), "all_preds": final, "np": np}


def test_a_list_rebuilt_by_plus_is_found_by_the_items_it_copied() -> None:
    (found,) = [f for f in run_on(GROW, _spots(), _ns([0] * 128_000)) if f.code == "AIP203"]
    assert found.line == 4 and found.evidence["iterations"] == 4_000 and found.evidence["items"] == 128_000
    assert found.evidence["copies"] == 256_000_000 and "about 256,000,000 item copies" in found.message
    assert ".extend" in found.message and found.fix is not None and ".extend(...)" in (found.fix.reason or "")


def test_growing_in_place_stays_silent() -> None:
    source = GROW.replace("all_preds = all_preds + ", "all_preds += ")
    assert "AIP203" not in [f.code for f in run_on(source, _spots(), _ns([0] * 128_000))]


def test_a_short_list_or_a_number_or_an_array_of_fixed_size_stays_silent() -> None:
    assert "AIP203" not in [f.code for f in run_on(GROW, _spots(), _ns([0] * 320, n=320))]
    total = ("total = 0\nfor start in range(0, len(scores), 32):\n    batch = scores[start:start + 32]\n"
             "    total = total + batch.sum()\n")
    assert "AIP203" not in [f.code for f in run_on(total, _spots(), _ns(0.0) | {"total": 5.0})]
    acc = ("acc = np.zeros(32)\nfor start in range(0, len(scores), 32):\n    batch = scores[start:start + 32]\n"
           "    acc = acc + batch\n")
    assert "AIP203" not in [f.code for f in run_on(acc, _spots(), _ns(0) | {"acc": np.zeros(32)})]
