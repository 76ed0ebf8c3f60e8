"""Numbers one at a time (AIP201) proved by the run's call stacks: a short loop in a helper that
loops of other helpers call many times, a comprehension over ``zip`` of a helper's parameters (what
they held, read on the calling line), a loop whose work is a loop-free helper called per item, and a
running total stored at every step (a cumulative sum). Each case has the counterexamples the
mechanism must leave alone: few calls of a few whole-array steps, slices and lists of indices (not
one element), strings zipped, and a recurrence that no cumulative sum computes."""

from __future__ import annotations

from typing import Any

import pytest

from aiperf_magic.report import Hotspot
from tests.analysis.test_from_run_hand_over import earlier_cell, hot, run_on, shown

np = pytest.importorskip("numpy")

# -- a short loop, three helpers down ---------------------------------------------------------------
KMEANS = ("import math\n"
          "def euclidean_distance(x1, x2):\n"
          "    distance = 0\n"
          "    for i in range(len(x1)):\n"
          "        distance += pow(x1[i] - x2[i], 2)\n"
          "    return math.sqrt(distance)\n"
          "def closest_centroid(sample, centroids):\n"
          "    best, best_d = 0, float('inf')\n"
          "    for i, centroid in enumerate(centroids):\n"
          "        d = euclidean_distance(sample, centroid)\n"
          "        if d < best_d:\n"
          "            best, best_d = i, d\n"
          "    return best\n"
          "def create_clusters(centroids, X):\n"
          "    clusters = [[] for _ in centroids]\n"
          "    for idx, sample in enumerate(X):\n"
          "        clusters[closest_centroid(sample, centroids)].append(idx)\n"
          "    return clusters\n")


def kmeans_lines(file: str, outer: int = 6_000) -> list[Hotspot]:
    def fn(line: int, share: float, function: str, **more: Any) -> Hotspot:
        return hot(line, share, file=file, where="cell [1]", function=function, **more)

    return [
        fn(5, 0.45, "euclidean_distance", own_seconds=0.45, loop_line=4, loop_count=4,
           loop="range(len(x1)): 4 iterations", types={"x1": "numpy.ndarray", "x2": "numpy.ndarray"},
           sizes={"x1": 4, "x2": 4}, locals={"x1": "ndarray of 4 float64", "x2": "ndarray of 4 float64"}),
        fn(10, 0.57, "closest_centroid", own_seconds=0.02, via={"euclidean_distance": 18}, loop_line=9, loop_count=3),
        fn(17, 0.63, "create_clusters", own_seconds=0.02, via={"closest_centroid": 19}, loop_line=16,
           loop_count=outer),
    ]


def test_a_four_step_loop_called_from_loops_of_other_helpers_is_found_with_its_calls() -> None:
    file = earlier_cell(KMEANS, "kmeans-1")
    cell = "for _ in range(12):\n    clusters = create_clusters(centroids, X)\n"
    spots = [hot(2, 0.63, via={"create_clusters": 19}, loop_line=1, loop_count=12)]
    found = run_on(cell, spots, {"np": np}, functions=kmeans_lines(file))
    (finding,) = [f for f in found if f.shown and f.code == "AIP201"]
    assert finding.line == 2
    # 3 centroids x 6,000 samples x 12 passes: the loop of 4 ran 216,000 times
    assert finding.evidence["calls"] == 216_000 and "216,000 times" in finding.message


def test_few_calls_of_a_short_loop_are_not_element_wise() -> None:
    """Not flagged, because the stack says the loop of 4 ran 3 x 2 x 12 times: 288 steps in all."""
    file = earlier_cell(KMEANS, "kmeans-2")
    cell = "for _ in range(12):\n    clusters = create_clusters(centroids, X)\n"
    spots = [hot(2, 0.63, via={"create_clusters": 19}, loop_line=1, loop_count=12)]
    found = run_on(cell, spots, {"np": np}, functions=kmeans_lines(file, outer=2))
    assert "AIP201" not in [c for c, _ in shown(found)]


def test_a_loop_of_a_helper_called_once_stays_judged_by_its_own_length() -> None:
    """Not flagged, because no loop called the helper: 4 iterations, once."""
    file = earlier_cell(KMEANS, "kmeans-3")
    spots = [hot(1, 0.9, via={"euclidean_distance": 18})]
    lines = kmeans_lines(file)[:1]
    found = run_on("d = euclidean_distance(a, b)\n", spots, {"np": np}, functions=lines)
    assert "AIP201" not in [c for c, _ in shown(found)]


# -- indices that pick many items -------------------------------------------------------------------
def test_slices_of_a_tensor_in_a_comprehension_are_not_one_element_at_a_time() -> None:
    """Not flagged, because ``data[i:i + 8]`` takes a block, not one element (a GPT's get_batch)."""
    torch = pytest.importorskip("torch")
    source = "for step in range(1500):\n    xb = torch.stack([data[i:i + 8] for i in ix])\n"
    ns = {"torch": torch, "data": torch.zeros(900_000, dtype=torch.int64), "ix": torch.zeros(32, dtype=torch.int64)}
    spots = [hot(2, 0.9, loop_line=2, loop_count=32, loop="the comprehension's iterable: 32 iterations",
                 types={"data": "torch.Tensor", "i": "torch.Tensor"}, sizes={"data": 900_000, "i": 1})]
    assert "AIP201" not in [c for c, _ in shown(run_on(source, spots, ns))]
    # ... while one element per index is
    single = "for step in range(1500):\n    xb = torch.stack([data[i] * 2 for i in ix])\n"
    assert ("AIP201", 2) in shown(run_on(single, spots, ns))


def test_a_list_of_indices_per_iteration_is_not_one_row_at_a_time() -> None:
    """Not flagged, because ``X[cluster]`` takes each cluster's 2,000 rows at once (k-means' means)."""
    source = "for _ in range(12):\n    centroids = [np.mean(X[cluster], axis=0) for cluster in clusters]\n"
    ns = {"np": np, "X": np.zeros((6_000, 4)), "clusters": [list(range(2_000))] * 3}
    spots = [hot(2, 0.4, callees={"mean": 8}, loop_line=2, loop_count=3,
                 types={"X": "numpy.ndarray", "cluster": "list"}, sizes={"X": 24_000, "cluster": 2_000})]
    assert "AIP201" not in [c for c, _ in shown(run_on(source, spots, ns))]


# -- a comprehension over zip of a helper's parameters ---------------------------------------------
VECTORS = ("def vector_add(v, w):\n"
           "    return [v_i + w_i for v_i, w_i in zip(v, w)]\n"
           "def vector_sum(vectors):\n"
           "    result = vectors[0]\n"
           "    for vector in vectors[1:]:\n"
           "        result = vector_add(result, vector)\n"
           "    return result\n")


def vector_lines(file: str, held: str) -> list[Hotspot]:
    return [hot(2, 0.85, file=file, where="cell [1]", function="vector_add.<locals>.<listcomp>", own_seconds=0.85,
                loop_line=2),
            hot(6, 0.93, file=file, where="cell [1]", function="vector_sum", own_seconds=0.03,
                via={"vector_add": 19}, loop_line=5, locals={"result": held, "vector": held},
                types={"result": "list", "vector": "list"})]


def test_a_comprehension_over_zip_of_parameters_is_numbers_by_what_the_caller_passed() -> None:
    file = earlier_cell(VECTORS, "vectors-1")
    spots = [hot(1, 0.93, via={"vector_sum": 19})]
    found = run_on("total = vector_sum(points)\n", spots, {}, functions=vector_lines(file, "list of 100 int"))
    assert ("AIP201", 1) in shown(found)


def test_the_same_comprehension_over_strings_is_not_arithmetic() -> None:
    """Not flagged, because the caller passed lists of strings: ``+`` joins them."""
    file = earlier_cell(VECTORS, "vectors-2")
    spots = [hot(1, 0.93, via={"vector_sum": 19})]
    found = run_on("total = vector_sum(names)\n", spots, {}, functions=vector_lines(file, "list of 100 str"))
    assert "AIP201" not in [c for c, _ in shown(found)]


# -- a loop whose work is a loop-free helper per item -----------------------------------------------
CONV = ("def conv_single_step(a_slice, W, b):\n"
        "    s = a_slice * W\n"
        "    return np.sum(s) + float(b)\n"
        "def conv_forward(A, W, b):\n"
        "    Z = np.zeros((A.shape[0], 8, 8, 4))\n"
        "    for i in range(A.shape[0]):\n"
        "        for h in range(8):\n"
        "            for w in range(8):\n"
        "                for c in range(4):\n"
        "                    a_slice = A[i, h:h + 3, w:w + 3, :]\n"
        "                    Z[i, h, w, c] = conv_single_step(a_slice, W[..., c], b[..., c])\n"
        "    return Z\n")


def conv_lines(file: str, helper_loops: bool, window: int = 27) -> list[Hotspot]:
    def fn(line: int, share: float, function: str, **more: Any) -> Hotspot:
        return hot(line, share, file=file, where="cell [1]", function=function, **more)

    helper = {"loop_line": 2, "loop_count": 27} if helper_loops else {}
    return [fn(11, 0.9, "conv_forward", own_seconds=0.07, via={"conv_single_step": 16}, callees={"sum": 5},
               loop_line=9, loop_count=4, types={"Z": "numpy.ndarray", "a_slice": "numpy.ndarray"},
               sizes={"Z": 2560, "a_slice": window}),
            fn(3, 0.5, "conv_single_step", own_seconds=0.5, callees={"sum": 5}, types={"s": "numpy.ndarray"},
               sizes={"s": window}, **helper),
            fn(2, 0.3, "conv_single_step", own_seconds=0.3, **helper)]


def test_a_loop_calling_a_loop_free_helper_per_item_owns_the_helpers_time() -> None:
    file = earlier_cell(CONV, "conv-1")
    spots = [hot(1, 0.9, via={"conv_forward": 18})]
    found = run_on("Z = conv_forward(A_prev, W, b)\n", spots, {"np": np}, functions=conv_lines(file, False))
    (finding,) = [f for f in found if f.shown and f.code == "AIP201"]
    assert finding.line == 1 and "one element of Z" in finding.message


def test_a_loop_calling_a_helper_on_large_arrays_per_item_is_not_element_work() -> None:
    """Not flagged, because each call works on 1,000,000 elements: a task per item, not one element."""
    file = earlier_cell(CONV, "conv-3")
    spots = [hot(1, 0.9, via={"conv_forward": 18})]
    lines = conv_lines(file, False, window=1_000_000)
    found = run_on("Z = conv_forward(A_prev, W, b)\n", spots, {"np": np}, functions=lines)
    assert "AIP201" not in [c for c, _ in shown(found)]


def test_a_loop_calling_a_helper_with_loops_of_its_own_is_not_its_time() -> None:
    """Not flagged here, because the helper's own loop is where the time went (a site of its own)."""
    file = earlier_cell(CONV, "conv-2")
    spots = [hot(1, 0.9, via={"conv_forward": 18})]
    found = run_on("Z = conv_forward(A_prev, W, b)\n", spots, {"np": np}, functions=conv_lines(file, True)[:1])
    assert "AIP201" not in [c for c, _ in shown(found)]


# -- a running total stored at every step -----------------------------------------------------------
WALK = ("walks = []\n"
        "for _ in range(1000):\n"
        "    position = 0\n"
        "    walk = [position]\n"
        "    for i in range(1000):\n"
        "        step = 1 if random.randint(0, 1) else -1\n"
        "        position += step\n"
        "        walk.append(position)\n"
        "    walks.append(walk)\n")
WALK_SPOTS = [hot(8, 0.5, loop_line=5, loop_count=1000, loop="range(1000): 1,000 iterations"),
              hot(6, 0.45, callees={"Random.randint": 18}, loop_line=5, loop_count=1000)]


def test_a_running_total_stored_at_every_step_is_a_cumulative_sum() -> None:
    import random

    found = run_on(WALK, WALK_SPOTS, {"random": random})
    (finding,) = [f for f in found if f.shown and f.code == "AIP201"]
    assert finding.line == 5 and "running total (position)" in finding.message


@pytest.mark.parametrize("update", [
    "        position = 4 * position * (1 - position)\n",  # the logistic map: no sum computes it
    "        position += step if position < 10 else -step\n",  # the step depends on the total
])
def test_a_total_that_feeds_back_into_its_own_steps_stays_a_recurrence(update: str) -> None:
    """Not flagged, because each step reads what the last one made."""
    import random

    source = WALK.replace("        position += step\n", update)
    assert "AIP201" not in [c for c, _ in shown(run_on(source, WALK_SPOTS, {"random": random}))]


def test_a_total_read_by_a_condition_stays_a_recurrence() -> None:
    """Not a cumulative sum, because ``if position > best`` reads the total at every step; the nest of
    a million such steps is still told, as nested loops whose steps read what earlier steps wrote
    (the walks can go side by side, one array step at a time), or as its random steps drawn one at a time."""
    import random

    source = WALK.replace("        walk.append(position)\n",
                          "        walk.append(position)\n        if position > best:\n            best = position\n")
    found = [f for f in run_on(source, WALK_SPOTS, {"random": random, "best": 0}) if f.shown and f.code == "AIP201"]
    assert all("running total" not in f.message and "cumulative sum" not in f.message for f in found)
    assert all("nested loops" in f.message or "random.randint() called for one value at a time" in f.message
               for f in found)


def test_a_short_loop_over_a_stack_of_matrices_called_many_times_is_whole_array_work() -> None:
    """Not flagged, because ``W[i]`` is a 64 x 64 matrix of a stack of three: each step is a product."""
    helper = ("def forward(x):\n    outs = []\n    for i in range(3):\n        outs.append(np.tanh(W[i] @ x))\n"
              "    return outs\n")
    file = earlier_cell(helper, "stack-1")
    lines = [hot(4, 0.9, file=file, where="cell [1]", function="forward", own_seconds=0.9, loop_line=3, loop_count=3,
                 callees={"tanh": 4}, types={"W": "numpy.ndarray", "x": "numpy.ndarray"}, sizes={"W": 12_288},
                 locals={"W": "ndarray of 12,288 float64 (3 x 64 x 64)", "x": "ndarray of 64 float64"})]
    spots = [hot(2, 0.9, via={"forward": 18}, loop_line=1, loop_count=100_000)]
    cell = "for x in inputs:\n    y = forward(x)\n"
    assert "AIP201" not in [c for c, _ in shown(run_on(cell, spots, {"np": np}, functions=lines))]
    # ... while one number of the stack at a time is element-wise
    summed = "def forward(x):\n    s = 0.0\n    for i in range(3):\n        s += W[i, 0, 0] * x\n    return s\n"
    one = [hot(4, 0.9, file=earlier_cell(summed, "stack-2"), where="cell [1]",
               function="forward", own_seconds=0.9, loop_line=3, loop_count=3, types={"W": "numpy.ndarray"},
               sizes={"W": 12_288}, locals={"W": "ndarray of 12,288 float64 (3 x 64 x 64)"})]
    assert ("AIP201", 2) in shown(run_on(cell, spots, {"np": np}, functions=one))


def test_a_total_reset_on_the_way_is_not_one_cumulative_sum() -> None:
    """Not flagged, because ``position = 0`` inside the loop restarts the sum: no single cumsum is it."""
    import random

    source = WALK.replace("        position += step\n", "        position += step\n        if i % 100 == 0:\n"
                          "            position = 0\n")
    assert "AIP201" not in [c for c, _ in shown(run_on(source, WALK_SPOTS, {"random": random}))]


def test_nested_loops_of_a_helper_called_a_few_times_are_still_their_own_count() -> None:
    """The inner loop's 100 iterations, called 5 times, are not all: the outer loop of 100 runs it too."""
    helper = ("def blur(img, out):\n    for i in range(100):\n        for j in range(100):\n"
              "            out[i, j] = (img[i, j] + img[i, j - 1]) / 2\n")
    file = earlier_cell(helper, "nested-1")
    lines = [hot(4, 0.9, file=file, where="cell [1]", function="blur", own_seconds=0.9, loop_line=3, loop_count=100,
                 types={"img": "numpy.ndarray", "out": "numpy.ndarray"}, sizes={"img": 10_000, "out": 10_000},
                 locals={"img": "ndarray of 10,000 float64 (100 x 100)"})]
    spots = [hot(2, 0.9, via={"blur": 18}, loop_line=1, loop_count=5)]
    cell = "for _ in range(5):\n    blur(img, out)\n"
    assert ("AIP201", 2) in shown(run_on(cell, spots, {"np": np}, functions=lines))
