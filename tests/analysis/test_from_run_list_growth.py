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


INSERT = ("window = np.empty(0)\nmedians = []\nfor x in latencies:\n"
          "    window = np.insert(window, np.searchsorted(window, x), x)\n"
          "    medians.append(window[len(window) // 2])\n")


def test_an_array_kept_sorted_by_np_insert_is_copied_at_every_step() -> None:
    spots = [hot(4, 0.9, types={"window": "numpy.ndarray"}, loop_line=3)]
    ns = {"np": np, "latencies": np.ones(20_000), "window": np.ones(20_000), "medians": [1.0] * 20_000}
    (found,) = [f for f in run_on(INSERT, spots, ns) if f.code == "AIP203"]
    assert found.line == 4 and found.evidence["copies"] == 200_000_000
    assert "window = np.insert(window, ...) made a new array at each of 20,000 iterations" in found.message
    assert "bisect.insort" in found.message and found.fix is not None and not found.fix.source
    # another array made from it (not the same name rebound), or a short one: nothing copied over and over
    other = INSERT.replace("    window = np.insert(window,", "    shown = np.insert(window,")
    assert "AIP203" not in [f.code for f in run_on(other, spots, ns | {"shown": np.ones(20_000)})]
    short = ns | {"latencies": np.ones(300), "window": np.ones(300)}
    assert "AIP203" not in [f.code for f in run_on(INSERT, spots, short)]
