"""Findings from the run on NumPy arrays used as Python containers: membership in an array (every
element compared at each test) and a Python function NumPy calls once per element (``np.vectorize``).
Recorded hot lines, live namespaces, and the look-alikes that must stay silent."""

from __future__ import annotations

from typing import Any

import pytest

from aiperf_magic.report import Hotspot

from .test_from_run import codes, hot, run_on

np = pytest.importorskip("numpy")
pd = pytest.importorskip("pandas")

MEMBER = ("known = active['customer_id'].values\nkeep = []\nfor cid in orders['customer_id']:\n"
          "    keep.append(cid in known)\n")


def _member_ns(known: Any, orders: int = 60_000) -> dict[str, Any]:
    return {"active": pd.DataFrame({"customer_id": np.arange(10)}), "known": known,
            "orders": pd.DataFrame({"customer_id": np.zeros(orders, dtype=np.int64)}), "keep": []}


def _member_spots(known: str, n: int) -> list[Hotspot]:
    return [hot(4, 0.98, types={"keep": "list", "known": "numpy.ndarray"},
                locals={"known": known}, sizes={"known": n}, loop_line=3)]


def test_membership_in_an_array_counts_every_element_compared() -> None:
    ns = _member_ns(np.arange(40_000, dtype=np.int64))
    (found,) = run_on(MEMBER, _member_spots("ndarray of 40,000 int64", 40_000), ns)
    assert (found.code, found.line) == ("AIP202", 4)
    # the loop's 60,000 iterations come from the frame whose column it walks (the sampler could not size it)
    assert found.evidence["lookups"] == 60_000 and found.evidence["items"] == 40_000
    assert "all 40,000 elements of known" in found.message and "60,000 times" in found.message
    assert found.fix is not None and "set(" in (found.fix.source or ""), found.fix


def test_membership_in_a_small_array_tested_a_few_times_is_left_alone() -> None:
    ns = _member_ns(np.arange(10, dtype=np.int64), orders=500)  # 500 x 10: microseconds
    assert "AIP202" not in [c for c, _ in codes(run_on(MEMBER, _member_spots("ndarray of 10 int64", 10), ns))]


def test_in_on_a_2d_array_is_not_an_element_lookup() -> None:
    # ``row in grid`` on a 2-D array compares rows, not items: no set answers that
    ns = _member_ns(np.zeros((200, 200), dtype=np.int64))
    found = run_on(MEMBER, _member_spots("ndarray (200 x 200) int64", 40_000), ns)
    assert "AIP202" not in [c for c, _ in codes(found)]


def test_membership_in_a_set_stays_silent() -> None:
    ns = _member_ns(set(range(40_000)))
    assert "AIP202" not in [c for c, _ in codes(run_on(MEMBER, _member_spots("set of 40,000 int", 40_000), ns))]


torch = pytest.importorskip("torch")
COUNTS = ("correct = {c: 0 for c in classes}\ntotal = {c: 0 for c in classes}\n"
          "for label, prediction in zip(labels, predictions):\n    if label == prediction:\n"
          "        correct[classes[label]] += 1\n    total[classes[label]] += 1\n")


def _count_spots(n: int, what: str = "Tensor") -> list[Hotspot]:
    kind = "torch.Tensor" if what == "Tensor" else "list"
    text = f"Tensor ({n:,}) int64" if what == "Tensor" else f"list of {n:,} str"
    walk = {"labels": kind, "predictions": kind, "label": kind}
    loop = f"zip(labels, predictions): {n:,} iterations"
    return [hot(4, 0.58, types=walk, locals={"labels": text, "predictions": text}, loop_line=3, loop_count=n,
                loop=loop),
            hot(3, 0.30, callees={"Tensor.__iter__": 6}, types=walk, locals={"labels": text}, loop_line=3,
                loop_count=n, loop=loop),
            hot(6, 0.08, types=walk, loop_line=3, loop_count=n, loop=loop)]


def test_counting_matches_over_a_tensors_items_is_one_tensor_operation() -> None:
    labels = torch.randint(0, 10, (100_000,))
    ns = {"classes": tuple("abcdefghij"), "labels": labels, "predictions": labels.clone()}
    (found,) = run_on(COUNTS, _count_spots(100_000), ns)
    assert (found.code, found.line) == ("AIP201", 3) and found.evidence["iterations"] == 100_000
    assert "0-d tensor" in found.message and "tensor operation" in found.message and "NumPy" not in found.message


def test_counting_matches_over_a_few_items_run_once_is_left_alone() -> None:
    labels = torch.randint(0, 10, (300,))
    ns = {"classes": tuple("abcdefghij"), "labels": labels, "predictions": labels.clone()}
    assert run_on(COUNTS, _count_spots(300), ns) == []


def test_counting_matching_strings_is_not_arithmetic() -> None:
    words = [f"w{i % 7}" for i in range(100_000)]
    ns = {"classes": tuple("abcdefghij"), "labels": words, "predictions": list(words)}
    assert "AIP201" not in [c for c, _ in codes(run_on(COUNTS, _count_spots(100_000, "list"), ns))]


VECTORIZE = "to_label = np.vectorize(lambda p: 1 if p >= 0.5 else 0)\nlabels = to_label(probs)\n"


def _vector_spots() -> list[Hotspot]:
    # the lambda is the cell's code: its line keeps its own time, the calling line what NumPy spent between calls
    return [hot(1, 0.87, samples=43), hot(2, 0.13, samples=6, callees={"vectorize.__call__": 6},
                                          types={"probs": "numpy.ndarray"})]


def test_np_vectorize_of_a_numeric_lambda_is_a_loop_over_every_element() -> None:
    (found,) = run_on(VECTORIZE, _vector_spots(), {"np": np, "probs": np.zeros(3_000_000)})
    assert (found.code, found.line) == ("AIP201", 2) and found.evidence["iterations"] == 3_000_000
    assert found.evidence["share"] == pytest.approx(1.0)
    assert "once per element, 3,000,000 times, on probs" in found.message and "a lambda (line " in found.message
    assert found.fix is not None and not found.fixable and "np.where" in (found.fix.reason or "")


def test_np_vectorize_of_a_string_function_or_on_a_few_elements_stays_silent() -> None:
    strings = "to_label = np.vectorize(lambda p: p.strip().lower())\nlabels = to_label(probs)\n"
    assert run_on(strings, _vector_spots(), {"np": np, "probs": np.array(["a "] * 3_000_000)}) == []
    assert run_on(VECTORIZE, _vector_spots(), {"np": np, "probs": np.zeros(200)}) == []


def test_a_plain_numpy_ufunc_call_is_not_vectorize() -> None:
    source = "to_label = np.frombuffer\nlabels = np.where(probs >= 0.5, 1, 0)\n"
    assert run_on(source, _vector_spots(), {"np": np, "probs": np.zeros(3_000_000)}) == []


def test_walking_the_tensor_is_the_loops_own_work_when_it_takes_half_the_samples() -> None:
    # torch's Tensor.__iter__ (unbinding into 0-d tensors) on the loop line: the loop's per-element cost
    labels = torch.randint(0, 10, (100_000,))
    ns = {"classes": tuple("abcdefghij"), "labels": labels, "predictions": labels.clone()}
    spots = _count_spots(100_000)
    spots[0].share = spots[0].seconds = 0.33
    spots[1].share = spots[1].seconds = 0.50
    spots[1].callees = {"Tensor.__iter__": 20}
    (found,) = run_on(COUNTS, spots, ns)
    assert (found.code, found.line) == ("AIP201", 3)


HIST = "hist = [0] * 256\nfor pixel in img.flatten():\n    hist[pixel] += 1\n"


def test_a_loop_over_a_flattened_array_is_sized_by_its_elements() -> None:
    # under half the cell and not sized by the sampler: the live array's elements say it ran 1,000,000 times
    ns = {"img": np.zeros((1_000, 1_000), dtype=np.uint8), "hist": [0] * 256}
    spots = [hot(3, 0.47, types={"hist": "list"}, locals={"hist": "list of 256 int"}, loop_line=2)]
    (found,) = run_on(HIST, spots, ns)
    assert (found.code, found.line) == ("AIP201", 2) and found.evidence["iterations"] == 1_000_000
    small = {"img": np.zeros((20, 20), dtype=np.uint8), "hist": [0] * 256}  # 400 pixels, run once
    assert run_on(HIST, spots, small) == []
