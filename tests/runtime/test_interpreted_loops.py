"""Shapes the run proves costly that no element-wise rewrite of the loop itself names, on real
``%%aiperf`` runs: a function of numbers called per element, a loop carried within each of many
calls, a first-order linear recurrence, small tensor operations per item (AIP201); a commit or a file
append per item and a blocking call inside gathered coroutines (AIP402); ``DataFrame.map`` of a
Python function (AIP302); and the counterexamples each must leave alone."""

from __future__ import annotations

from typing import Any

import libcst as cst
import pytest

from .test_findings_from_run import measured, shown

np = pytest.importorskip("numpy")


ESCAPE = """\
import numpy as np

def escape_count(c, maxiter):
    z = 0
    for n in range(maxiter):
        if abs(z) > 2:
            return n
        z = z * z + c
    return maxiter

xs, ys = np.linspace(-2.2, 0.8, 120), np.linspace(-1.2, 1.2, 90)
"""


def test_a_function_of_numbers_called_per_element_is_found_on_the_loop_that_calls_it(ip: Any) -> None:
    report = measured(ip, ESCAPE, (
        "counts = np.zeros((90, 120), dtype=int)\n"
        "for j in range(90):\n"
        "    for i in range(120):\n"
        "        counts[j, i] = escape_count(complex(xs[i], ys[j]), 60)\n"))
    (found,) = shown(report, "AIP201")
    assert found.line == 3 and "escape_count() called on one element at a time, 10,800 calls" in found.message
    assert "written over whole arrays" in found.message and not found.fixable
    assert found.fix is not None and "by hand" in (found.fix.reason or "")


RAY = """\
import numpy as np

rng = np.random.default_rng(3)
angles = np.sort(rng.uniform(0, 2 * np.pi, 40))
poly = list(zip(np.cos(angles).tolist(), np.sin(angles).tolist()))
points = rng.uniform(-1.1, 1.1, (8_000, 2)).tolist()
"""


def test_a_loop_carried_within_each_of_many_calls_is_found(ip: Any) -> None:
    report = measured(ip, RAY, (
        "def inside(x, y, poly):\n"
        "    n = len(poly)\n"
        "    odd = False\n"
        "    p1x, p1y = poly[0]\n"
        "    for i in range(n + 1):\n"
        "        p2x, p2y = poly[i % n]\n"
        "        if min(p1y, p2y) < y <= max(p1y, p2y) and x <= max(p1x, p2x) and p1y != p2y:\n"
        "            if x <= (y - p1y) * (p2x - p1x) / (p2y - p1y) + p1x:\n"
        "                odd = not odd\n"
        "        p1x, p1y = p2x, p2y\n"
        "    return odd\n"
        "\n"
        "flags = [inside(x, y, poly) for x, y in points]\n"))
    (found,) = shown(report, "AIP201")
    assert found.line == 5 and "called once per element 8,000 times" in found.message


def test_a_first_order_linear_recurrence_is_found_and_a_nonlinear_one_is_not(ip: Any) -> None:
    setup = ("import numpy as np\nclose = 100 + np.cumsum(np.random.default_rng(1).normal(0, 1, 300_000))\n"
             "alpha = 0.07\n")
    report = measured(ip, setup, (
        "ema = np.empty_like(close)\n"
        "ema[0] = close[0]\n"
        "for i in range(1, len(close)):\n"
        "    ema[i] = alpha * close[i] + (1 - alpha) * ema[i - 1]\n"))
    (found,) = shown(report, "AIP201")
    assert found.line == 3 and "the recurrence of ema computed one step at a time over 299,999 steps" in found.message
    assert "lfilter" in found.message and "ewm" in found.message
    # the logistic map: each value a nonlinear function of the last, run once: no array form
    report = measured(ip, setup, (
        "x = np.empty(300_000)\n"
        "x[0] = 0.1\n"
        "for t in range(len(x) - 1):\n"
        "    x[t + 1] = 4.0 * x[t] * (1 - x[t])\n"))
    assert not shown(report, "AIP201")


def test_text_grown_at_the_top_level_is_found_and_not_called_arithmetic(ip: Any) -> None:
    setup = "words = [f'word{i % 97}' for i in range(30_000)]\n"
    report = measured(ip, setup, "text = ''\nfor w in words:\n    text += w + ' '\n")
    assert not shown(report, "AIP201")
    (found,) = shown(report, "AIP203")
    assert found.line == 3 and "text grew by + at each of 30,000 iterations" in found.message
    assert "''.join(parts)" in found.message and not found.fixable
    # in a function the same loop grows the string in place: fast, and nothing to say
    report = measured(ip, setup, (
        "def joined(words):\n"
        "    text = ''\n"
        "    for w in words * 20:\n"
        "        text += w + ' '\n"
        "    return text\n"
        "\n"
        "text = joined(words)\n"))
    assert not shown(report, "AIP203") and not shown(report, "AIP201")


def test_bytes_grown_from_a_stream_of_unknown_length_are_counted_by_their_chunks(ip: Any) -> None:
    """A generator's chunks have no count to read: the chunk the cell kept says how many made the
    whole; a join of the same chunks is left alone."""
    setup = ("def stream(total, size=8192):\n"
             "    block = bytes(range(256)) * (size // 256)\n"
             "    for _ in range(total // size):\n"
             "        yield block\n")
    report = measured(ip, setup, "content = b''\nfor chunk in stream(4 * 2**20):\n    content += chunk\n")
    (found,) = shown(report, "AIP203")
    assert found.line == 3 and "content grew by + at each of about 512 iterations" in found.message
    assert "b''.join(chunks)" in found.message and "never grown in place" in found.message
    report = measured(ip, setup, "parts = []\nfor chunk in stream(4 * 2**20):\n    parts.append(chunk)\n"
                                 "content = b''.join(parts)\n")
    assert not shown(report, "AIP203")


def test_whole_array_work_in_each_call_is_not_one_element_at_a_time(ip: Any) -> None:
    report = measured(ip, (
        "import numpy as np\n"
        "rng = np.random.default_rng(5)\n"
        "pooled = rng.normal(0, 1, 9_000)\n"
        "def run_model():\n"
        "    rng.shuffle(pooled)\n"
        "    return pooled[:4_000], pooled[4_000:]\n"
        "def statistic(data):\n"
        "    a, b = data\n"
        "    return abs(a.mean() - b.mean())\n"), "stats = [statistic(run_model()) for _ in range(3_000)]\n")
    assert not shown(report, "AIP201")


def test_small_tensor_operations_per_pair_are_found(ip: Any) -> None:
    pytest.importorskip("torch")
    report = measured(ip, (
        "import torch\n"
        "torch.manual_seed(0)\n"
        "def iou(a, b):\n"
        "    x1, y1 = torch.max(a[0], b[0]), torch.max(a[1], b[1])\n"
        "    x2, y2 = torch.min(a[2], b[2]), torch.min(a[3], b[3])\n"
        "    inter = (x2 - x1).clamp(0) * (y2 - y1).clamp(0)\n"
        "    return inter / ((a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter)\n"
        "boxes = [[float(v) for v in row] for row in torch.rand(60, 4).sort(dim=1).values]\n"), (
        "def suppress(boxes):\n"
        "    boxes = list(boxes)\n"
        "    kept = []\n"
        "    while boxes:\n"
        "        chosen = boxes.pop(0)\n"
        "        boxes = [b for b in boxes if iou(torch.tensor(chosen), torch.tensor(b)) < 0.5]\n"
        "        kept.append(chosen)\n"
        "    return kept\n"
        "\n"
        "kept = [suppress(boxes) for _ in range(12)]\n"))
    (found,) = shown(report, "AIP201")
    assert found.line == 6 and "torch operations on tensors of a few elements" in found.message


def test_a_commit_per_row_is_found_and_one_commit_is_not(ip: Any, tmp_path: Any) -> None:
    setup = (f"import sqlite3\nconn = sqlite3.connect({str(tmp_path / 'r.db')!r})\n"
             "conn.execute('CREATE TABLE IF NOT EXISTS r (a INTEGER, b REAL)')\n"
             "rows = [(i, i * 0.5) for i in range(400)]\n")
    report = measured(ip, setup, (
        "for row in rows:\n"
        "    conn.execute('INSERT INTO r VALUES (?, ?)', row)\n"
        "    conn.commit()\n"))
    (found,) = shown(report, "AIP402")
    assert found.line == 3 and "400 commits, one per item" in found.message and "sqlite3.Connection" in found.message
    assert "one transaction" in found.message and not found.fixable
    report = measured(ip, setup, "for row in rows * 200:\n    conn.execute('INSERT INTO r VALUES (?, ?)', row)\n"
                                 "conn.commit()\n")
    # one commit: no transaction per row; the 80,000 inserts sent one call at a time are another trap
    assert not any("commit" in f.message.split(".")[0] for f in shown(report, "AIP402"))
    assert all("executemany" in f.message for f in shown(report, "AIP402"))


def test_a_file_appended_to_per_record_is_found_and_a_file_per_record_is_not(ip: Any, tmp_path: Any) -> None:
    pytest.importorskip("pandas")
    setup = (f"import os\nimport pandas as pd\nfrom pathlib import Path\nout = Path({str(tmp_path)!r})\n"
             "records = [{'id': i, 'name': f'n{i}', 'price': i * 1.5} for i in range(300)]\n")
    report = measured(ip, setup, (
        "path = out / 'all.csv'\n"
        "for record in records:\n"
        "    pd.DataFrame([record]).to_csv(path, mode='a', header=not os.path.exists(path), index=False)\n"))
    (found,) = shown(report, "AIP402")
    assert found.line == 3 and "path opened, appended to and closed again 300 times" in found.message
    report = measured(ip, setup, (
        "for record in records:\n"
        "    pd.DataFrame([record]).to_csv(out / f\"{record['id']}.csv\", mode='a', index=False)\n"))
    assert not shown(report, "AIP402")


def test_a_blocking_call_in_gathered_coroutines_is_found_and_an_awaited_sleep_is_not(ip: Any) -> None:
    setup = "import asyncio, time\n"
    report = measured(ip, setup, (
        "async def fetch(i):\n"
        "    time.sleep(0.01)\n"
        "    return i\n"
        "\n"
        "results = await asyncio.gather(*[fetch(i) for i in range(40)])\n"))
    (found,) = shown(report, "AIP402")
    assert found.line == 2 and "inside the coroutine fetch(); the cell ran 40 of them together" in found.message
    assert "asyncio.to_thread" in found.message
    report = measured(ip, setup, (
        "async def fetch(i):\n"
        "    await asyncio.sleep(0.2)\n"
        "    return i\n"
        "\n"
        "results = await asyncio.gather(*[fetch(i) for i in range(40)])\n"))
    assert not shown(report, "AIP402")


def test_dataframe_map_of_a_python_function_counts_every_element(ip: Any) -> None:
    pytest.importorskip("pandas")
    report = measured(ip, (
        "import numpy as np\nimport pandas as pd\n"
        "basket = pd.DataFrame(np.random.default_rng(2).integers(0, 3, (400, 1_500)).astype(float))\n"
        "def encode(x):\n"
        "    if x <= 0:\n"
        "        return 0\n"
        "    return 1\n"), "sets = basket.map(encode)\n")
    # (600,000 calls: long enough for the sampler on a busy machine; 200,000 took 80 ms, too few samples)
    (found,) = shown(report, "AIP302")
    assert found.line == 1 and "600,000 times, on basket (400 rows x 1,500 columns)" in found.message
    assert "Element-wise `map`" in found.message


def test_a_helper_called_under_inference_mode_is_not_told_to_turn_autograd_off(ip: Any) -> None:
    pytest.importorskip("torch")
    setup = (
        "import torch\nfrom torch import nn\ntorch.manual_seed(0)\n"
        "encoder = nn.Sequential(nn.Linear(64, 256), nn.ReLU(), nn.Linear(256, 64)).eval()\n"
        "data = torch.randn(20_000, 64)\n"
        "def embed_all(x, size=32):\n"
        "    return torch.cat([encoder(x[i:i + size]) for i in range(0, len(x), size)])\n")
    report = measured(ip, setup, "with torch.inference_mode():\n    emb = embed_all(data)\n")
    assert not shown(report, "AIP502")
    report = measured(ip, setup, "emb = embed_all(data)\n")
    assert shown(report, "AIP502")


def test_nested_loops_whose_steps_read_earlier_steps_are_found_and_a_single_recurrence_is_not(ip: Any) -> None:
    setup = ("import numpy as np\nrng = np.random.default_rng(4)\nV = 70\n"
             "dist = rng.uniform(1, 10, (V, V)).tolist()\n")
    report = measured(ip, setup, (
        "for k in range(V):\n"
        "    for i in range(V):\n"
        "        for j in range(V):\n"
        "            dist[i][j] = min(dist[i][j], dist[i][k] + dist[k][j])\n"))
    (found,) = shown(report, "AIP201")
    assert found.line == 3 and "nested loops, 343,000 steps" in found.message and "np.minimum per k" in found.message


def test_an_edit_distance_over_two_strings_is_nested_arithmetic_on_character_codes(ip: Any) -> None:
    """The strings are only read one character at a time and compared: codes, not text being worked
    on; the bounds are ``len(a) + 1``, sized from the live strings."""
    setup = ("import random\nrandom.seed(8)\n"
             "a = ''.join(random.choice('ACGT') for _ in range(600))\n"
             "b = ''.join(random.choice('ACGT') for _ in range(600))\n")
    report = measured(ip, setup, (
        "d = [[0] * (len(b) + 1) for i in range(len(a) + 1)]\n"
        "for i in range(len(a) + 1):\n"
        "    d[i][0] = i\n"
        "for j in range(len(b) + 1):\n"
        "    d[0][j] = j\n"
        "for i in range(1, len(a) + 1):\n"
        "    for j in range(1, len(b) + 1):\n"
        "        cost = 0 if a[i - 1] == b[j - 1] else 1\n"
        "        d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)\n"))
    (found,) = shown(report, "AIP201")
    assert found.line == 7 and "nested loops, 360,000 steps" in found.message, found.message


def test_a_string_is_codes_only_when_every_use_is_one_character_compared() -> None:
    from aiperf_magic.rules.from_run.interpreted import characters_compared

    def loop(body: str) -> cst.CSTNode:
        return cst.parse_module(f"for i in range(n):\n    {body}\n").body[0]

    assert characters_compared(loop("s = 1 if a[i] == b[i] else 0"), "a")
    assert not characters_compared(loop("s = 1 if a[i:i + 2] == b[i] else 0"), "a")  # a slice is text
    assert not characters_compared(loop("out.append(a[i].upper())"), "a")  # worked on, not compared
    assert characters_compared(loop("s = 1 if a[i] == b[i] else len(a)"), "a")  # its length is a number
    assert not characters_compared(loop("s = 1 if a[i] == b[i] else a.count('G')"), "a")  # the whole string


def test_a_range_bound_is_sized_from_sums_of_live_integers() -> None:
    from aiperf_magic.rules.evidence import live_int

    def bound(text: str) -> int | None:
        return live_int(cst.parse_expression(text), {"n": 10, "xs": [1, 2, 3], "seq": "ACGT", "flag": True})

    assert (bound("n + 1"), bound("len(xs) - 1"), bound("2 * n"), bound("n // 3")) == (11, 2, 20, 3)
    assert bound("len(seq) + 1") == 5  # a string's length: its characters
    assert bound("n // 0") is None and bound("n + m") is None and bound("n / 2") is None


def test_a_python_key_over_many_points_at_every_step_is_a_call_per_element(ip: Any) -> None:
    """``max(pending, key=lambda p: gap(p, chosen))`` in a loop calls the key for every pending point at
    every step (farthest-point sampling); a key in C, or a key over words, is left alone."""
    setup = ("import math, random\nrandom.seed(12)\n"
             "points = [(random.random(), random.random()) for _ in range(1_500)]\n"
             "def gap(p, chosen):\n    return min(math.hypot(p[0] - q[0], p[1] - q[1]) for q in chosen[-3:])\n")
    cell = ("chosen = [points[0]]\n"
            "pending = list(points[1:])\n"
            "for step in range(300):\n"
            "    far = max(pending, key=lambda p: gap(p, chosen))\n"
            "    chosen.append(far)\n"
            "    pending.remove(far)\n")
    report = measured(ip, setup, cell)
    (found,) = shown(report, "AIP201")
    assert found.line == 4
    assert "max() calls its key, gap() through a lambda, once for each item of pending" in found.message
    assert "300 steps" in found.message and "argmin" in found.message
    words = ("import random\nrandom.seed(13)\n"
             "words = [''.join(random.choice('abcdefgh') for _ in range(9)) for _ in range(1_500)]\n")
    report = measured(ip, words, (
        "picked = []\n"
        "for step in range(300):\n"
        "    picked.append(max(words, key=lambda w: w.count(words[step][0]) * len(w)))\n"))
    assert not [f for f in shown(report, "AIP201") if "calls its key" in f.message]
    report = measured(ip, words, "longest = []\nfor step in range(2_000):\n    longest.append(max(words, key=len))\n")
    assert not [f for f in shown(report, "AIP201") if "calls its key" in f.message]


def test_side_by_side_comprehensions_in_a_function_called_from_a_loop_are_found(ip: Any) -> None:
    setup = ("import numpy as np\nrng = np.random.default_rng(6)\n"
             "y_true = rng.integers(0, 2, 4_000).tolist()\ny_prob = rng.random(4_000).tolist()\n")
    report = measured(ip, setup, (
        "def rates(y_true, y_prob, threshold):\n"
        "    pred = [1 if p >= threshold else 0 for p in y_prob]\n"
        "    tp = sum(1 for t, p in zip(y_true, pred) if t == 1 and p == 1)\n"
        "    fp = sum(1 for t, p in zip(y_true, pred) if t == 0 and p == 1)\n"
        "    return tp, fp\n"
        "\n"
        "points = []\n"
        "for threshold in np.linspace(0, 1, 200):\n"
        "    points.append(rates(y_true, y_prob, threshold))\n"))
    lines = {f.line for f in shown(report, "AIP201")}
    assert lines and lines <= {2, 3, 4}, lines


def test_a_function_called_per_step_is_found_by_its_operators_when_no_value_was_read(ip: Any) -> None:
    setup = "import math\ndef f(x):\n    return math.exp(-x * x) * math.cos(3 * x)\n"
    report = measured(ip, setup, (
        "def simpson(f, a, b, n):\n"
        "    h = (b - a) / n\n"
        "    s = f(a) + f(b)\n"
        "    for i in range(1, n):\n"
        "        s += (4 if i % 2 else 2) * f(a + i * h)\n"
        "    return s * h / 3\n"
        "\n"
        "area = simpson(f, -4.0, 4.0, 300_000)\n"))
    (found,) = shown(report, "AIP201")
    assert found.line == 4 and "f() called on one element at a time, 299,999 calls" in found.message


def test_list_scans_by_count_min_and_remove_are_membership_tests_by_another_name(ip: Any) -> None:
    setup = "import random\nrandom.seed(3)\nwords = [f'w{random.randrange(900)}' for _ in range(5_000)]\n"
    report = measured(ip, setup, "freq = [words.count(w) for w in words]\n")
    (found,) = shown(report, "AIP202")
    assert "each `.count()` test scans words" in found.message and "collections.Counter" in found.message
    setup = ("import random\nrandom.seed(5)\nnodes = 2_600\n"
             "graph = {n: [(random.randrange(nodes), random.uniform(1, 9)) for _ in range(3)] for n in range(nodes)}\n")
    report = measured(ip, setup, (
        "dist = {n: float('inf') for n in graph}\n"
        "dist[0] = 0.0\n"
        "unvisited = list(graph)\n"
        "while unvisited:\n"
        "    current = min(unvisited, key=lambda n: dist[n])\n"
        "    unvisited.remove(current)\n"
        "    for neighbour, weight in graph[current]:\n"
        "        if dist[current] + weight < dist[neighbour]:\n"
        "            dist[neighbour] = dist[current] + weight\n"))
    found = shown(report, "AIP202")
    assert found and found[0].line in (5, 6) and "heap" in found[0].message, [f.message for f in found]


def test_calls_awaited_one_by_one_in_a_loop_are_found_and_gathered_ones_are_not(ip: Any) -> None:
    setup = "import asyncio, time\nitems = list(range(30))\n"
    report = measured(ip, setup, (
        "async def fetch_all(items):\n"
        "    out = []\n"
        "    for i in items:\n"
        "        out.append(await asyncio.to_thread(time.sleep, 0.01))\n"
        "    return out\n"
        "\n"
        "results = await fetch_all(items)\n"))
    (found,) = shown(report, "AIP402")
    assert found.line == 4 and "suspended at `await`, one iteration at a time" in found.message
    assert "30 calls" in found.message and "asyncio.gather" in found.message
    # the cell's time went to the line it waited on, not to nowhere
    assert max(h.share for h in report.hotspots) > 0.8
    report = measured(ip, setup, (
        "results = await asyncio.gather(*(asyncio.to_thread(time.sleep, 0.05) for i in items))\n"))
    assert not shown(report, "AIP402")


def test_a_function_the_cell_defines_and_calls_per_element_gets_its_callers_time(ip: Any) -> None:
    """The sampler gives a function of the measured cell its own lines' time, so the loop calling it
    looks cheap; the loop with the cell's functions it calls is the cost (a logistic score per pair)."""
    setup = ("import math\nimport random\nrandom.seed(8)\n"
             "users = [[random.gauss(0, 1) for _ in range(3)] for _ in range(1_500)]\n"
             "items = [[random.gauss(0, 1) for _ in range(3)] for _ in range(400)]\n")
    report = measured(ip, setup, (
        "def sigmoid(z):\n"
        "    return 1.0 / (1.0 + math.exp(-z))\n"
        "\n"
        "def score(u, v):\n"
        "    return sigmoid(u[0] * v[0] + u[1] * v[1] + u[2] * v[2])\n"
        "\n"
        "def scores_for(u):\n"
        "    return [score(u, v) for v in items]\n"
        "\n"
        "table = [scores_for(u) for u in users]\n"))
    (found,) = shown(report, "AIP201")
    assert found.line == 8, found.message
    assert "score() called on one element at a time, 600,000 calls" in found.message
    assert "with score(), sigmoid() it calls" in found.message


def test_a_function_the_cell_defines_that_works_on_whole_arrays_is_not_per_element(ip: Any) -> None:
    setup = "import numpy as np\nrng = np.random.default_rng(9)\nbatches = [rng.random(200_000) for _ in range(60)]\n"
    report = measured(ip, setup, (
        "def standardise(x):\n"
        "    return (x - x.mean()) / x.std()\n"
        "\n"
        "scaled = [standardise(b) for b in batches]\n"))
    assert not shown(report, "AIP201")


def test_calls_from_a_comprehension_over_zipped_columns_are_counted(ip: Any) -> None:
    """Its iterator has no length for the sampler to read: the columns it zips have one."""
    setup = ("import numpy as np\nimport pandas as pd\n"
             "def cubic_root(b, a, guess=1.0):\n"
             "    x = guess\n"
             "    for _ in range(40):\n"
             "        f = x * x * x + a * x - b\n"
             "        if abs(f) < 1e-12:\n"
             "            break\n"
             "        x -= f / (3 * x * x + a)\n"
             "    return x\n"
             "rng = np.random.default_rng(4)\n"
             "eqs = pd.DataFrame({'a': rng.uniform(0.5, 3.0, 100_000), 'b': rng.uniform(1.0, 50.0, 100_000)})\n")
    pd = pytest.importorskip("pandas")
    assert pd is not None
    report = measured(ip, setup, (
        "eqs['x'] = [cubic_root(b, a)\n"
        "            for b, a in zip(eqs['b'], eqs['a'])]\n"))
    (found,) = shown(report, "AIP201")
    assert found.line in (1, 2), found.message
    assert "cubic_root(), called once per element 100,000 times" in found.message, found.message


@pytest.fixture
def slow_server(tmp_path: Any) -> Any:
    """A local HTTP server in a process of its own that takes 15 ms to answer each request."""
    import socket
    import subprocess
    import sys
    import time

    script = tmp_path / "server.py"
    script.write_text(
        "import http.server, sys, time\n"
        "class H(http.server.BaseHTTPRequestHandler):\n"
        "    def do_GET(self):\n"
        "        time.sleep(0.015)\n"
        "        body = b'{\"value\": 1}'\n"
        "        self.send_response(200)\n"
        "        self.send_header('Content-Length', str(len(body)))\n"
        "        self.end_headers()\n"
        "        self.wfile.write(body)\n"
        "    def log_message(self, *a):\n"
        "        pass\n"
        "http.server.HTTPServer(('127.0.0.1', int(sys.argv[1])), H).serve_forever()\n", encoding="utf-8")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = subprocess.Popen([sys.executable, str(script), str(port)])
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            break
        except OSError:
            time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    server.kill()
    server.wait()


def test_requests_of_a_client_named_by_its_own_class_are_network_waits(ip: Any, slow_server: str) -> None:
    """urllib3's PoolManager sends through ``RequestMethods.request``: the verb, not the class, says
    the call waits for an answer."""
    pytest.importorskip("urllib3")
    setup = (f"import json\nimport urllib3\nhttp = urllib3.PoolManager()\nbase = {slow_server!r}\n"
             "symbols = list(range(50))\n")
    report = measured(ip, setup, (
        "quotes = {}\n"
        "for symbol in symbols:\n"
        "    resp = http.request('GET', f'{base}/item/{symbol}')\n"
        "    quotes[symbol] = json.loads(resp.data)['value']\n"))
    (found,) = shown(report, "AIP402")
    assert found.line == 2 and "waiting on the network, 50 requests one after another" in found.message


def test_network_callees_are_told_by_their_verb() -> None:
    from aiperf_magic.rules.from_run.callees import is_network

    assert is_network("RequestMethods.request") and is_network("PoolManager.urlopen") and is_network("urlopen")
    assert not is_network("Series.get") and not is_network("DataFrame.apply") and not is_network("Random.choice")


def test_a_list_scanned_inside_an_applied_lambda_is_a_scan_per_row(ip: Any) -> None:
    pytest.importorskip("pandas")
    setup = ("import numpy as np\nimport pandas as pd\nrng = np.random.default_rng(12)\n"
             "vocab = [f'w{i}' for i in range(3_000)]\n"
             "tokens = pd.Series(rng.choice(vocab, 40_000))\nstop = vocab[::2]\n")
    report = measured(ip, setup, "kept = tokens[tokens.map(lambda w: w not in stop)]\n")
    (found,) = shown(report, "AIP202")
    assert found.line == 1 and "each `in` test scans stop, list of 1,500 str" in found.message
    assert "once for each of 40,000 rows of tokens" in found.message and "a set built once" in found.message
    report = measured(ip, setup + "stop_set = set(stop)\n", "kept = tokens[tokens.map(lambda w: w not in stop_set)]\n")
    assert not shown(report, "AIP202")


def test_a_queue_taken_from_the_front_of_a_list_is_found_and_a_deque_is_not(ip: Any) -> None:
    setup = "import collections\njobs = list(range(120_000))\n"
    report = measured(ip, setup, (
        "queue = list(jobs)\n"
        "done = 0\n"
        "while queue:\n"
        "    job = queue.pop(0)\n"
        "    done += job % 7\n"))
    (found,) = shown(report, "AIP202")
    assert found.line == 4 and "each `.pop(0)` moves every other item of queue" in found.message
    assert "collections.deque" in found.message
    report = measured(ip, setup, (
        "queue = collections.deque(jobs)\n"
        "done = 0\n"
        "while queue:\n"
        "    job = queue.popleft()\n"
        "    done += job % 7\n"))
    assert not shown(report, "AIP202")


def test_random_values_drawn_one_per_call_are_found_where_they_are_drawn(ip: Any) -> None:
    setup = ("import random\nrandom.seed(2)\n"
             "def simulate_path(steps, mu=0.0002, sigma=0.01):\n"
             "    price = 100.0\n"
             "    for _ in range(steps):\n"
             "        price *= 1 + random.gauss(mu, sigma) + random.uniform(-1e-4, 1e-4)\n"
             "    return price\n")
    report = measured(ip, setup, "finals = [simulate_path(250) for _ in range(2_000)]\n")
    (found,) = shown(report, "AIP201")
    assert "called for one value at a time, 500,000 draws" in found.message, found.message
    assert "random.gauss()" in found.message and "random.uniform()" in found.message
    assert "NumPy Generator" in found.message
    report = measured(ip, "import numpy as np\nrng = np.random.default_rng(2)\n", (
        "returns = rng.normal(0.0002, 0.01, (2_000, 250))\n"
        "finals = 100.0 * np.prod(1 + returns, axis=1)\n"))
    assert not shown(report, "AIP201")


TRAIN_ROWS = """\
import torch
from torch import nn
torch.manual_seed(0)
X = torch.randn(1_500, 20)
y = (X[:, :1] > 0).float()
net = nn.Sequential(nn.Linear(20, 64), nn.ReLU(), nn.Linear(64, 1))
loss_fn = nn.BCEWithLogitsLoss()
opt = torch.optim.SGD(net.parameters(), lr=0.01)
"""


def test_training_on_one_row_per_step_is_told_to_batch_and_a_batched_loop_is_not(ip: Any) -> None:
    pytest.importorskip("torch")
    report = measured(ip, TRAIN_ROWS, (
        "for i in range(len(X)):\n"
        "    opt.zero_grad()\n"
        "    loss = loss_fn(net(X[i].unsqueeze(0)), y[i:i + 1])\n"
        "    loss.backward()\n"
        "    opt.step()\n"))
    (found,) = shown(report, "AIP506")
    assert found.line == 1 and "1,500 forward and backward passes of net, each on one row of X" in found.message
    assert "mini-batches" in found.message and not found.fixable
    report = measured(ip, TRAIN_ROWS, (
        "for epoch in range(40):\n"
        "    for i in range(0, len(X), 64):\n"
        "        opt.zero_grad()\n"
        "        loss = loss_fn(net(X[i:i + 64]), y[i:i + 64])\n"
        "        loss.backward()\n"
        "        opt.step()\n"))
    assert not shown(report, "AIP506")


def test_a_tensor_built_from_a_list_of_arrays_is_found_and_a_stacked_one_is_not(ip: Any) -> None:
    pytest.importorskip("torch")
    setup = ("import random\nimport numpy as np\nimport torch\nrandom.seed(1)\n"
             "rows = [np.random.default_rng(i).random(96, dtype=np.float32) for i in range(5_000)]\n")
    report = measured(ip, setup, (
        "total = 0.0\n"
        "for step in range(80):\n"
        "    batch = random.sample(rows, 256)\n"
        "    xb = torch.tensor(batch, dtype=torch.float32)\n"
        "    total += float(xb.sum())\n"))
    (found,) = shown(report, "AIP201")
    assert found.line == 4 and "torch.tensor() read batch (list of 256 ndarray) one element at a time" in found.message
    assert "np.stack" in found.message and not found.fixable
    report = measured(ip, setup, (
        "total = 0.0\n"
        "for step in range(80):\n"
        "    batch = random.sample(rows, 256)\n"
        "    xb = torch.from_numpy(np.stack(batch))\n"
        "    total += float(xb.sum())\n"))
    assert not shown(report, "AIP201")


PANDAS_SALES = """\
import numpy as np
import pandas as pd
rng = np.random.default_rng(21)
n = 120_000
sales = pd.DataFrame({"store": rng.integers(0, 2_500, n), "units": rng.integers(1, 9, n),
                      "price": rng.uniform(1, 50, n).round(2)})
sales.loc[rng.random(n) < 0.1, "price"] = np.nan
sales["region"] = sales["store"] % 12
fixes = {f"S{i:03d}": f"store {i}" for i in range(200)}
names = pd.Series(rng.choice(list(fixes), 100_000))
"""


def test_pandas_called_per_group_or_per_key_is_found_and_one_call_is_not(ip: Any) -> None:
    pytest.importorskip("pandas")
    report = measured(ip, PANDAS_SALES, (
        "rows = []\n"
        "for store, g in sales.groupby('store'):\n"
        "    rows.append({'store': store, 'n': len(g), 'units': g['units'].sum(), 'price': g['price'].mean()})\n"
        "per_store = pd.DataFrame(rows)\n"))
    (found,) = shown(report, "AIP301")
    assert found.line == 2 and "one per group of sales" in found.message and "named aggregations" in found.message
    report = measured(ip, PANDAS_SALES, "per_store = sales.groupby('store').agg(n=('units', 'size'), "
                                        "units=('units', 'sum'), price=('price', 'mean'))\n")
    assert not shown(report, "AIP301")
    report = measured(ip, PANDAS_SALES, "for old, new in fixes.items():\n    names = names.replace(old, new)\n")
    (found,) = shown(report, "AIP301")
    assert found.line == 1 and "pandas called in each of 200 iterations" in found.message
    assert "one replace or map with the whole mapping" in found.message
    report = measured(ip, PANDAS_SALES, "names = names.replace(fixes)\n")
    assert not shown(report, "AIP301")
    # a frame rebuilt from itself at each step is AIP203's growth, not pandas per item
    report = measured(ip, PANDAS_SALES, "df = pd.DataFrame()\nfor i in range(1_500):\n"
                                        "    df = pd.concat([df, sales.iloc[[i]]], ignore_index=True)\n")
    assert not shown(report, "AIP301") and shown(report, "AIP203")


def test_pandas_per_column_of_a_wide_frame_is_counted_by_its_columns(ip: Any) -> None:
    """``for ticker in returns.columns``: the loop walks the frame's 2,000 column labels, each a few
    pandas calls (a statistic stored at a new label); twenty columns of real work are not items."""
    pytest.importorskip("pandas")
    setup = ("import numpy as np\nimport pandas as pd\nrng = np.random.default_rng(9)\n"
             "returns = pd.DataFrame(rng.normal(0, 0.01, (500, 2_000)), columns=[f't{i}' for i in range(2_000)])\n"
             "long = pd.DataFrame(rng.normal(0, 1, (400_000, 20)))\n")
    report = measured(ip, setup, ("ratio = pd.Series(dtype=float)\n"
                                  "for ticker in returns.columns:\n"
                                  "    r = returns[ticker]\n"
                                  "    ratio[ticker] = r.mean() / r.std()\n"))
    (found,) = shown(report, "AIP301")
    assert found.line == 2 and "pandas called in each of 2,000 iterations" in found.message
    report = measured(ip, "", "ranks = {}\nfor c in long.columns:\n    ranks[c] = long[c].rank().median()\n")
    assert report.wall_s > 0.15 and not shown(report, "AIP301")


def test_a_while_loop_stepping_through_a_frames_rows_is_a_row_loop(ip: Any) -> None:
    """``while i < len(daily)`` with ``daily.iloc[i]`` in the body walks the rows as a for loop would;
    the same walk over a list is not pandas per row."""
    pytest.importorskip("pandas")
    setup = ("import numpy as np\nimport pandas as pd\n"
             "daily = pd.DataFrame({'t': np.random.default_rng(5).normal(20, 8, 12_000)})\n"
             "temps = daily['t'].tolist()\n")
    report = measured(ip, setup, ("runs = 0\ni = 0\nwhile i < len(daily):\n"
                                  "    if daily.iloc[i]['t'] > 30:\n        runs += 1\n    i += 1\n"))
    (found,) = shown(report, "AIP301")
    assert found.line == 3 and "for each of 12,000 rows of daily" in found.message
    report = measured(ip, setup, ("runs = 0\nfor repeat in range(60):\n    i = 0\n    while i < len(temps):\n"
                                  "        if temps[i] > 30:\n            runs += 1\n        i += 1\n"))
    assert report.wall_s > 0.1 and not shown(report, "AIP301")


def test_a_python_function_per_group_or_window_is_found_and_a_reduction_by_name_is_not(ip: Any) -> None:
    pytest.importorskip("pandas")
    report = measured(ip, PANDAS_SALES,
                      "sales['price'] = sales.groupby('store')['price'].transform(lambda p: p.fillna(p.mean()))\n")
    (found,) = shown(report, "AIP302")
    assert "transform called a Python function once per group, 2,500 groups of sales" in found.message
    assert "transform('mean')" in found.message
    report = measured(ip, PANDAS_SALES, "sales['price'] = sales['price'].fillna("
                                        "sales.groupby('store')['price'].transform('mean'))\n")
    assert not shown(report, "AIP302")
    report = measured(ip, PANDAS_SALES,
                      "units = sales['units'].head(6_000)\nz = units.rolling(30).apply(lambda w: w.max() - w.min())\n")
    (found,) = shown(report, "AIP302")
    assert "apply called a Python function once per window" in found.message
    # hourly bins of a series by the second: 2,000 bins of the index's span, one Python call each
    report = measured(ip, "import numpy as np\nimport pandas as pd\n"
                          "ticks = pd.Series(np.random.default_rng(3).random(2_000 * 360), "
                          "index=pd.date_range('2024-01-01', periods=2_000 * 360, freq='10s'))\n",
                      "hourly = ticks.resample('1h').apply(lambda x: (x.max() - x.min()) / x.mean())\n")
    (found,) = shown(report, "AIP302")
    assert "apply called a Python function once per group, 2,000 groups of ticks" in found.message
    report = measured(ip, "", "hourly = ticks.resample('1h').max()\n")
    assert not shown(report, "AIP302")
    # a dozen groups, each a least-squares fit on 10,000 rows: the function's own work, not pandas' calls
    report = measured(ip, PANDAS_SALES, "slopes = sales.groupby('region')[['units', 'store']].apply("
                                        "lambda g: np.polyfit(g['store'], g['units'], 1)[0])\n")
    assert not shown(report, "AIP302")


def test_membership_in_one_of_a_dicts_lists_is_a_scan_and_in_its_sets_is_not(ip: Any) -> None:
    setup = ("import random\nrandom.seed(21)\n"
             "members = {g: random.sample(range(40_000), 3_000) for g in range(6)}\n"
             "visitors = random.sample(range(40_000), 400)\n")
    cell = ("overlap = {}\nfor g in members:\n    for h in members:\n"
            "        overlap[g, h] = sum(1 for v in visitors if v in members[h])\n")
    report = measured(ip, setup, cell)
    (found,) = shown(report, "AIP202")
    assert found.line == 4
    assert "scans members, one of the lists of a dict of 6 lists, up to 3,000 items" in found.message
    # sets, and as many visitors again as makes the cell take as long: hashed, not scanned
    report = measured(ip, "members = {g: set(m) for g, m in members.items()}\nvisitors = visitors * 200\n", cell)
    assert report.wall_s > 0.15 and not shown(report, "AIP202")


def test_membership_in_a_dict_values_view_or_a_deque_is_a_scan(ip: Any) -> None:
    setup = ("from collections import deque\n"
             "catalog = {i: f'item {i}' for i in range(6_000)}\n"
             "feed = [f'item {i * 7}' for i in range(4_000)]\nstream = feed * 5\n")
    report = measured(ip, setup, "known = 0\nfor name in feed:\n    if name in catalog.values():\n        known += 1\n")
    (found,) = shown(report, "AIP202")
    assert "each `in` test scans catalog, the values of a dict of 6,000 items" in found.message
    report = measured(ip, setup, ("recent = deque(maxlen=1_500)\nrepeats = 0\n"
                                  "for name in stream:\n"
                                  "    if name in recent:\n        repeats += 1\n"
                                  "    recent.append(name)\n"))
    (found,) = shown(report, "AIP202")
    assert "each `in` test scans recent, a deque that grew to 1,500 items" in found.message
    report = measured(ip, setup, ("names = set(catalog.values())\nknown = 0\n"
                                  "for name in feed:\n    if name in names:\n        known += 1\n"))
    assert not shown(report, "AIP202")


def test_an_archive_opened_again_for_each_member_is_a_reread(ip: Any, tmp_path: Any) -> None:
    setup = (f"import zipfile\narchive_path = {str(tmp_path / 'a.zip')!r}\n"
             "with zipfile.ZipFile(archive_path, 'w') as zf:\n"
             "    for i in range(300):\n"
             "        zf.writestr(f'm{i}.csv', '\\n'.join(f'{j},{j * 0.5}' for j in range(200)))\n"
             "names = [f'm{i}' for i in range(300)]\n")
    report = measured(ip, setup, (
        "sizes = {}\n"
        "for name in names * 3:\n"
        "    with zipfile.ZipFile(archive_path) as zf:\n"
        "        sizes[name] = len(zf.read(name + '.csv'))\n"))
    (found,) = shown(report, "AIP105")
    assert found.line == 3 and "archive_path was opened and read again 900 times" in found.message


def test_an_npz_member_read_per_item_is_a_reread_and_one_taken_once_is_not(ip: Any, tmp_path: Any) -> None:
    setup = (f"import numpy as np\npath = {str(tmp_path / 'd.npz')!r}\n"
             "pixels = np.random.default_rng(0).integers(0, 255, (2_000, 28, 28), dtype=np.uint8)\n"
             "np.savez_compressed(path, images=pixels)\n"
             "data = np.load(path)\n")
    report = measured(ip, setup, "means = []\nfor i in range(150):\n    means.append(data['images'][i].mean())\n")
    (found,) = shown(report, "AIP105")
    assert found.line == 3, found.message
    assert "data['images'] read from the .npz archive again at each of 150 iterations" in found.message
    report = measured(ip, setup, "images = data['images']\nmeans = []\nfor i in range(2_000):\n"
                                 "    means.append(images[i].mean())\n")
    assert not shown(report, "AIP105")


def test_a_future_waited_for_as_soon_as_it_is_submitted_is_found_and_a_map_is_not(ip: Any) -> None:
    setup = ("import time\nfrom concurrent.futures import ThreadPoolExecutor\nitems = list(range(40))\n"
             "def lookup(x):\n    time.sleep(0.01)\n    return x * 2\n")
    report = measured(ip, setup, (
        "results = []\n"
        "with ThreadPoolExecutor(max_workers=8) as pool:\n"
        "    for x in items:\n"
        "        future = pool.submit(lookup, x)\n"
        "        results.append(future.result())\n"))
    (found,) = shown(report, "AIP402")
    assert found.line == 3 and "with the lookup() tasks it submits" in found.message
    assert "the pool ran 40 tasks one at a time" in found.message and "pool.map" in found.message
    report = measured(ip, setup, "with ThreadPoolExecutor(max_workers=8) as pool:\n"
                                 "    results = list(pool.map(lookup, items * 8))\n")
    assert not shown(report, "AIP402")


def test_a_mask_per_cluster_is_whole_array_work_not_one_row(ip: Any) -> None:
    """``X[labels == c]`` picks every row of cluster c: a mean per cluster is NumPy's work on thousands of
    rows, six times; nothing to vectorise."""
    setup = ("import numpy as np\nrng = np.random.default_rng(4)\nX = rng.normal(size=(200_000, 4))\n"
             "labels = rng.integers(0, 6, len(X))\n")
    # (a loop variable named ``_`` would be the user's ``_``: IPython then stops storing results in it)
    report = measured(ip, setup, "for repeat in range(30):\n"
                                 "    centres = np.array([X[labels == c].mean(axis=0) for c in range(6)])\n")
    assert not shown(report, "AIP201")
