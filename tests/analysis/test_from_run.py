"""Findings from the run, on recorded evidence: which sites are explained, and which are not.

Each case hands the shapes a cell, the live namespace and hot lines as the sampler records them, so
the decisions (and the counterexamples each one must leave alone) are checked without timing."""

from __future__ import annotations

from typing import Any

import pytest

from aiperf_magic.report import Finding, Hotspot, Report
from aiperf_magic.rules.engine import analyze_cell
from aiperf_magic.rules.evidence import weigh
from aiperf_magic.rules.fixing import attach_fixes
from aiperf_magic.rules.from_run import findings_from_run

np = pytest.importorskip("numpy")


def hot(line: int, share: float, samples: int = 20, **more: Any) -> Hotspot:
    return Hotspot(line=line, seconds=share, share=share, samples=samples, **more)


def run_on(source: str, spots: list[Hotspot], ns: dict[str, Any] | None = None, wall: float = 1.0,
           cpu: float | None = None) -> list[Finding]:
    ns = ns or {}
    analysis = analyze_cell(source, select=["ALL"], namespace=ns)
    attach_fixes(analysis)
    report = Report(source=source, wall_s=wall, cpu_s=wall if cpu is None else cpu, hotspots=spots)
    for f in analysis.findings:
        weigh(f, analysis.node_of(f), spots, ns, sampled=True, wall_s=wall)
    findings_from_run(analysis, report, ns)
    return [f for f in analysis.findings if f.shown]


def codes(found: list[Finding]) -> list[tuple[str, int | None]]:
    return [(f.code, f.line) for f in found]


RECIPROCALS = ("def compute_reciprocals(values):\n"
               "    output = np.empty(len(values))\n"
               "    for i in range(len(values)):\n"
               "        output[i] = 1.0 / values[i]\n"
               "    return output\n")


def test_numeric_loop_with_parameter_bounds_is_found_from_its_measured_iterations() -> None:
    spots = [hot(4, 0.95, types={"values": "numpy.ndarray", "output": "numpy.ndarray"},
                 locals={"values": "ndarray of 1,000,000 int64"}, sizes={"values": 1_000_000},
                 loop_line=3, loop_count=1_000_000, loop="range(len(values)): 1,000,000 iterations")]
    (found,) = run_on(RECIPROCALS, spots, {"np": np})
    assert (found.code, found.line) == ("AIP201", 3)
    assert found.message.startswith("Line 5 took 95%") and "1,000,000 iterations" in found.message
    assert found.evidence["iterations"] == 1_000_000
    assert found.fix is not None and (found.fix.source or found.fix.reason)


def test_a_short_loop_run_once_is_not_vectorised() -> None:
    spots = [hot(4, 0.95, types={"values": "numpy.ndarray"}, loop_line=3, loop_count=200,
                 loop="range(len(values)): 200 iterations")]
    assert run_on(RECIPROCALS, spots, {"np": np}) == []


def test_whole_array_steps_of_an_iterative_algorithm_are_not_element_wise() -> None:
    source = "w = np.zeros(10)\nfor step in range(400):\n    grad = X.T @ (X @ w - y) / len(y)\n    w -= 0.05 * grad\n"
    ns = {"np": np, "X": np.ones((200, 10)), "y": np.ones(200)}
    spots = [hot(3, 0.8, types={"X": "numpy.ndarray", "w": "numpy.ndarray"}, loop_line=2, loop_count=400,
                 loop="range(400): 400 iterations"), hot(4, 0.15, loop_line=2, loop_count=400)]
    assert run_on(source, spots, ns) == []


def test_row_loop_over_the_index_with_chained_lookups() -> None:
    pd = pytest.importorskip("pandas")
    df = pd.DataFrame({"Amount": np.arange(50.0), "Class": np.zeros(50, dtype=int)})
    source = ("flagged = 0\nfor i in df.index:\n    if df['Amount'][i] > 200 and df['Class'][i] == 1:\n"
              "        flagged += 1\n")
    spots = [hot(3, 0.95, callees={"DataFrame.__getitem__": 16, "Series.__getitem__": 3},
                 types={"df": "pandas.DataFrame"}, sizes={"df": 50}, loop_line=2)]
    (found,) = run_on(source, spots, {"df": df})
    assert (found.code, found.line) == ("AIP301", 2) and "2 column-then-row lookups" in found.message


def test_pandas_per_row_in_a_loop_that_grows_a_frame_is_not_a_row_loop() -> None:
    pd = pytest.importorskip("pandas")
    source = "for line in lines:\n    log.loc[len(log)] = line.split()\n"
    ns = {"lines": ["a b"] * 50, "log": pd.DataFrame(columns=["x", "y"])}
    spots = [hot(2, 0.97, callees={"_LocationIndexer.__setitem__": 19}, loop_line=1, loop_count=50)]
    assert "AIP301" not in [f.code for f in run_on(source, spots, ns)]


def test_apply_with_a_multi_statement_function_is_found_by_its_time() -> None:
    pd = pytest.importorskip("pandas")
    df = pd.DataFrame({"a": np.arange(100.0), "b": np.arange(100.0)})
    source = ("def label(row):\n    if row['a'] > 50:\n        return 'high'\n    elif row['b'] > 10:\n"
              "        return 'mid'\n    return 'low'\n\ndf['label'] = df.apply(label, axis=1)\n")
    spots = [hot(8, 0.9, callees={"DataFrame.apply": 8, "Series.__getitem__": 10}), hot(2, 0.05)]
    (found,) = run_on(source, spots, {"df": df})
    assert (found.code, found.line) == ("AIP302", 8) and "once per row" in found.message
    per_column = "df['s'] = df.apply(np.sum)\n"
    assert run_on(per_column, [hot(1, 0.9, callees={"DataFrame.apply": 18})], {"df": df, "np": np}) == []
    mapping = "df['m'] = df['a'].map(names)\n"
    assert run_on(mapping, [hot(1, 0.9, callees={"Series.map": 18})], {"df": df, "names": {1.0: "x"}}) == []


def test_a_short_list_looked_up_many_times_counts_by_its_lookups() -> None:
    source = "kept = [t for t in tokens if t not in stop]\n"
    ns = {"stop": [f"w{i}" for i in range(179)], "tokens": ["w1"] * 10}
    spots = [hot(1, 0.98, loop_line=1, loop_count=1_000_000, loop="the comprehension's iterable: 1,000,000 items")]
    (found,) = run_on(source, spots, ns)
    assert (found.code, found.line) == ("AIP202", 1) and found.evidence == found.evidence | {"items": 179}
    few = [hot(1, 0.98, loop_line=1, loop_count=500)]  # 500 x 179: a few milliseconds, not a trap
    assert run_on(source, few, ns) == []


def test_threads_of_pure_python_are_found_where_they_ran() -> None:
    source = ("import threading\ndef work():\n    n = 0\n    for _ in range(3_000_000):\n        n += 1\n\n"
              "ts = [threading.Thread(target=work) for _ in range(4)]\n")
    spots = [hot(5, 0.95, threads=4, loop_line=4, loop_count=3_000_000)]
    found = run_on(source, spots, cpu=1.0)
    assert ("AIP401", 4) in codes(found)
    assert run_on(source, spots, cpu=3.6) == []  # threads that ran in parallel were not waiting for the GIL


def test_waits_for_requests_that_depend_on_each_other_are_not_parallelised() -> None:
    source = ("cursor = None\nwhile True:\n    page = fetch(cursor)\n    rows.extend(page['items'])\n"
              "    cursor = page['next']\n    if cursor is None:\n        break\n")
    spots = [hot(3, 0.95, callees={"urlopen": 19}, loop_line=None)]
    assert [f.code for f in run_on(source, spots, cpu=0.05)] == []
    independent = "for url in urls:\n    pages.append(fetch(url))\n"
    found = run_on(independent, [hot(2, 0.95, callees={"urlopen": 19}, loop_line=1, loop_count=60)], cpu=0.05)
    assert codes(found) == [("AIP402", 1)]


def test_a_parameter_the_sampler_did_not_read_is_the_live_argument_the_cell_passed() -> None:
    source = RECIPROCALS + "\nresult = compute_reciprocals(big)\n"
    spots = [hot(4, 0.95, samples=3, loop_line=3, loop_count=300_000)]  # too few samples: no names read
    (found,) = run_on(source, spots, {"np": np, "big": np.arange(1, 300_001)})
    assert (found.code, found.line) == ("AIP201", 3) and "of values" in found.message


def test_string_work_with_a_little_arithmetic_is_not_numbers_one_at_a_time() -> None:
    source = "for i in range(len(words)):\n    key = words[i].lower() + '_' + str(i % 10)\n    counts[key] = 1\n"
    ns = {"words": ["Ab"] * 5_000, "counts": {}}
    spots = [hot(2, 0.9, loop_line=1, loop_count=5_000), hot(3, 0.05, loop_line=1)]
    assert run_on(source, spots, ns) == []
    monte_carlo = ("import random\ninside = 0\nfor _ in range(n):\n    x, y = random.random(), random.random()\n"
                   "    if x * x + y * y <= 1.0:\n        inside += 1\n")
    spots = [hot(4, 0.5, loop_line=3, loop_count=1_000_000), hot(5, 0.45, loop_line=3)]
    (found,) = run_on(monte_carlo, spots, {"n": 10**6})
    assert (found.code, found.line) == ("AIP201", 3) and "each number it walks" in found.message
    recurrence = "x, v = 1.0, 0.0\nfor _ in range(n):\n    v = v - 0.1 * x\n    x = x + 0.01 * v\n"
    spots = [hot(3, 0.5, loop_line=2, loop_count=10**6), hot(4, 0.45, loop_line=2)]
    assert run_on(recurrence, spots, {"n": 10**6}) == []  # each step needs the last: no array form


def test_builtins_walking_an_array_are_numbers_one_at_a_time() -> None:
    source = "total = sum(big_array)\nsmallest = min(big_array)\n"
    ns = {"big_array": np.random.default_rng(0).random(1_000_000)}
    found = run_on(source, [hot(1, 0.6), hot(2, 0.35)], ns)
    assert codes(found) == [("AIP201", 1), ("AIP201", 2)]
    assert "sum() walked the 1,000,000 elements of big_array" in found[0].message
    # NumPy's reduction, floats added in order as sum() added them (structures/reductions.py)
    assert found[0].fix is not None and "total = np.cumsum(big_array)[-1]" in found[0].fix.source, found[0].fix
    listed = {"big_array": list(range(1_000_000))}
    assert run_on(source, [hot(1, 0.6), hot(2, 0.35)], listed) == []  # a list: sum is the right tool


def test_a_loop_the_run_puts_elsewhere_is_not_also_called_arithmetic() -> None:
    source = "total = 0\nfor i in range(2_000):\n    total += i * 2\n    pages.append(fetch(i))\n"
    static = {f.code for f in analyze_cell(source, select=["ALL"]).findings}
    assert "AIP201" in static  # reading alone sees a loop of arithmetic
    spots = [hot(4, 0.9, callees={"urlopen": 18}, loop_line=2, loop_count=2_000),
             hot(3, 0.05, samples=1, loop_line=2)]
    assert codes(run_on(source, spots, cpu=0.05)) == [("AIP402", 2)]  # the run: it waited on the network


def test_a_loop_over_a_tensors_items_is_told_of_tensor_operations_not_numpy() -> None:
    torch = pytest.importorskip("torch")
    source = "one_hot = torch.zeros(n, 10)\nfor i in range(n):\n    one_hot[i, labels[i]] = 1.0\n"
    ns = {"torch": torch, "n": 60_000, "labels": torch.zeros(60_000, dtype=torch.long),
          "one_hot": torch.zeros(60_000, 10)}
    spots = [hot(3, 0.95, types={"one_hot": "torch.Tensor", "labels": "torch.Tensor"}, sizes={"labels": 60_000},
                 loop_line=2, loop_count=60_000, loop="range(n): 60,000 iterations")]
    (found,) = run_on(source, spots, ns)
    assert found.code == "AIP201" and "tensor operation" in found.message and "NumPy" not in found.message
    # the counterexample: the same loop over an ndarray keeps the NumPy advice
    ns_np = {"np": np, "n": 60_000, "labels": np.zeros(60_000, dtype=int), "one_hot": np.zeros((60_000, 10))}
    source_np = source.replace("torch.zeros", "np.zeros")
    spots_np = [hot(3, 0.95, types={"one_hot": "numpy.ndarray", "labels": "numpy.ndarray"}, sizes={"labels": 60_000},
                    loop_line=2, loop_count=60_000, loop="range(n): 60,000 iterations")]
    (kept,) = run_on(source_np, spots_np, ns_np)
    assert kept.code == "AIP201" and "NumPy expression" in kept.message and "tensor operation" not in kept.message


def test_builtins_walking_a_tensor_are_told_the_tensors_own_reduction() -> None:
    torch = pytest.importorskip("torch")
    found = run_on("total = sum(losses)\n", [hot(1, 0.9)], {"losses": torch.rand(100_000)})
    assert codes(found) == [("AIP201", 1)] and "losses.sum() runs in C" in found[0].message
    assert "np.sum" not in found[0].message and "np.sum" not in (found[0].fix.reason or "")


def test_a_shown_static_finding_no_shape_explained_says_what_its_lines_took() -> None:
    source = "counts = {}\nfor word in tokens:\n    if word in list(vocab.keys()):\n        counts[word] = 1\n"
    ns = {"tokens": ["a"] * 20_000, "vocab": {f"w{i}": i for i in range(3_000)}}
    spots = [hot(3, 0.68, loop_line=2, loop_count=20_000), hot(4, 0.28, loop_line=2)]
    (found,) = run_on(source, spots, ns, wall=0.32)
    # the magic is the cell's line 1
    assert found.code == "AIP202" and found.message.startswith("Line 4 took 68% of the 320.0 ms cell. ")
    assert found.evidence["time_quoted"] and not found.evidence.get("from_run")
    # counterexamples: a finding whose trap is not time is left as it is, and so is one on a cold line
    cold = run_on(source, [hot(3, 0.1, samples=3, loop_line=2, loop_count=20_000), hot(1, 0.85)], ns, wall=0.32)
    assert all(" took " not in f.message for f in cold)
    torch = pytest.importorskip("torch")
    amp = "scaler = torch.cuda.amp.GradScaler()\nfor x in batches:\n    step(x)\n"
    deprecated = run_on(amp, [hot(1, 0.3), hot(3, 0.6, loop_line=2, loop_count=500)], {"torch": torch})
    assert "AIP503" in {f.code for f in deprecated}
    assert all(" took " not in f.message for f in deprecated if f.code == "AIP503")


def test_gpu_only_traps_are_kept_out_of_view_in_a_run_without_cuda(monkeypatch: pytest.MonkeyPatch) -> None:
    torch = pytest.importorskip("torch")
    source = ("for _ in range(300):\n    x = torch.randn(64, 1000)\n    x = x.to(device)\n    y = model(x)\n")
    ns = {"torch": torch, "device": "cpu", "model": torch.nn.Linear(1000, 10)}
    spots = [hot(2, 0.3, loop_line=1, loop_count=300), hot(3, 0.2, loop_line=1), hot(4, 0.45, loop_line=1)]
    monkeypatch.setattr(torch.cuda, "is_available", lambda: False)
    analysis = analyze_cell(source, select=["ALL"], namespace=ns)
    assert "AIP501" in {f.code for f in analysis.findings}
    assert "AIP501" not in {f.code for f in run_on(source, spots, ns)}
    # the counterexample: where torch sees a CUDA device, the copy happened and the finding stays
    monkeypatch.setattr(torch.cuda, "is_available", lambda: True)
    assert "AIP501" in {f.code for f in run_on(source, spots, ns)}


def test_a_frame_whose_own_len_fails_costs_only_the_rows_count() -> None:
    pd = pytest.importorskip("pandas")

    class NoLen(pd.DataFrame):
        @property
        def _constructor(self) -> type:
            return NoLen

        def __len__(self) -> int:
            raise RuntimeError("no len for you")

    df = NoLen({"a": np.arange(50.0), "b": np.arange(50.0)})
    source = "out = []\nfor i, row in df.iterrows():\n    out.append(row['a'] * row['b'])\n"
    spots = [hot(3, 0.9, callees={"Series.__getitem__": 10}, loop_line=2, loop_count=3000),
             hot(2, 0.08, callees={"DataFrame.iterrows": 4}, loop_line=2)]
    found = run_on(source, spots, {"df": df})  # no RuntimeError: the rows are not counted
    assert ("AIP301", 2) in codes(found)
