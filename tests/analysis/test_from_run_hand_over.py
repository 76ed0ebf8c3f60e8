"""Findings from the run where the time goes through code the sampler sees apart from the line that
spent it: a row function the cell defines and hands to ``apply``, a helper of an earlier cell that
pandas or a thread calls (no ``via`` on the cell's line), a model evaluated inside such a helper, and
a ``DataLoader`` whose measured batches cost too little for workers. Each case is recorded hot lines
with the counterexample the mechanism must leave alone."""

from __future__ import annotations

import linecache
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


def earlier_cell(text: str, name: str) -> str:
    """An earlier cell's source where the line cache keeps it, as IPython does."""
    file = f"<ipython-input-{name}>"
    linecache.cache[file] = (len(text), None, text.splitlines(keepends=True), file)
    return file


def run_on(source: str, spots: list[Hotspot], ns: dict[str, Any], functions: list[Hotspot] | None = None,
           wall: float = 1.0, cpu: float | None = None) -> list[Finding]:
    analysis = analyze_cell(source, select=["ALL"], namespace=ns)
    attach_fixes(analysis)
    report = Report(source=source, wall_s=wall, cpu_s=wall if cpu is None else cpu, hotspots=spots,
                    function_lines=functions or [])
    for f in analysis.findings:
        weigh(f, analysis.node_of(f), spots, ns, sampled=True, wall_s=wall)
    findings_from_run(analysis, report, ns)
    return analysis.findings


def shown(found: list[Finding]) -> list[tuple[str, int | None]]:
    return [(f.code, f.line) for f in found if f.shown and not f.code.startswith("AIP9")]


# -- a row function of the cell handed to apply ---------------------------------------------------
ROW_FUNCTION = ("def fill(row):\n"
                "    row['total'] = row['price'] * row['qty']\n"
                "    row['discount'] = 0.1 if row['qty'] > 3 else 0.0\n"
                "    return row\n"
                "\n"
                "\n"
                "priced = orders.apply(fill, axis=1)\n")
# as the sampler records it: the function's lines have their own time, the apply line only pandas' own
ROW_SPOTS = [hot(3, 0.61, 12, callees={"Series.__setitem__": 12}), hot(2, 0.22, 4, callees={"Series.__setitem__": 4}),
             hot(7, 0.11, 2, callees={"DataFrame.apply": 2})]


def test_a_row_function_of_the_cell_is_its_applys_time() -> None:
    pd = pytest.importorskip("pandas")
    orders = pd.DataFrame({"price": np.arange(40.0), "qty": np.arange(40) % 5})
    found = [f for f in run_on(ROW_FUNCTION, ROW_SPOTS, {"orders": orders}) if f.shown and f.code == "AIP302"]
    assert [(f.code, f.line) for f in found] == [("AIP302", 7)]
    # the user counts the %%aiperf line: the cell's line 7 is the notebook's line 8
    assert found[0].message.startswith("Line 8 took 94%") and "once per row" in found[0].message
    assert found[0].evidence["rows"] == 40


def test_an_apply_written_over_several_lines_is_sampled_on_any_of_them() -> None:
    pd = pytest.importorskip("pandas")
    orders = pd.DataFrame({"price": np.arange(40.0), "qty": np.arange(40) % 5})
    source = ROW_FUNCTION.replace("orders.apply(fill, axis=1)", "orders.apply(\n    fill,\n    axis=1,\n)")
    spots = [*ROW_SPOTS[:2], hot(8, 0.11, 2, callees={"DataFrame.apply": 2})]  # the function's name's line
    found = [f for f in run_on(source, spots, {"orders": orders}) if f.shown and f.code == "AIP302"]
    assert [(f.code, f.line) for f in found] == [("AIP302", 7)]


def test_a_row_function_also_called_directly_or_doing_string_work_is_not_the_applys() -> None:
    pd = pytest.importorskip("pandas")
    orders = pd.DataFrame({"price": np.arange(40.0), "qty": np.arange(40) % 5})
    called = ROW_FUNCTION + "first = fill(orders.iloc[0])\n"  # its time may be that call's
    assert "AIP302" not in [c for c, _ in shown(run_on(called, ROW_SPOTS, {"orders": orders}))]
    words = ("def fill(row):\n    row['tag'] = ' '.join(row['name'].split()[:2])\n    row['n'] = 1\n    return row\n"
             "\n\npriced = orders.apply(fill, axis=1)\n")  # strings: no whole-column form is faster
    named = orders.assign(name="a b c")
    assert "AIP302" not in [c for c, _ in shown(run_on(words, ROW_SPOTS, {"orders": named}))]


# -- a helper of an earlier cell that pandas calls, reading a global list -------------------------
STOP_HELPER = "def remove_stopwords(text):\n    return ' '.join(w for w in text.split() if w not in stop_words)\n"


def stop_lines(file: str, where: str) -> list[Hotspot]:
    return [hot(2, 0.95, 24, function="remove_stopwords.<locals>.<genexpr>", where=where, file=file,
                own_seconds=0.6, types={"stop_words": "list"}, loop_line=2, loop_count=30)]


def test_a_global_list_an_earlier_cells_helper_scans_is_found_on_the_apply_that_hands_it_over() -> None:
    pd = pytest.importorskip("pandas")
    file = earlier_cell(STOP_HELPER, "stop-1")
    ns = {"stop_words": [f"w{i}" for i in range(179)], "df": pd.DataFrame({"review": ["a b"] * 10})}
    ns["remove_stopwords"] = lambda text: text
    cell = "df['clean'] = df['review'].apply(remove_stopwords)\n"
    spots = [hot(1, 1.0, 25, callees={"Series.apply": 25})]  # no via: pandas, not the cell, calls it
    found = run_on(cell, spots, ns, stop_lines(file, "cell [1]"))
    assert shown(found) == [("AIP202", 1)]
    (f,) = [f for f in found if f.code == "AIP202"]
    assert "remove_stopwords (cell [1])" in f.message and f.evidence["items"] == 179


def test_a_modules_function_reads_its_own_globals_not_the_kernels() -> None:
    pd = pytest.importorskip("pandas")
    file = earlier_cell(STOP_HELPER, "stop-2")
    ns = {"stop_words": [f"w{i}" for i in range(179)], "df": pd.DataFrame({"review": ["a b"] * 10})}
    cell = "df['clean'] = df['review'].apply(remove_stopwords)\n"
    spots = [hot(1, 1.0, 25, callees={"Series.apply": 25})]
    # the same source in a module: its stop_words is the module's, which the kernel's may not be
    lines = [hot(2, 0.95, 24, function="remove_stopwords.<locals>.<genexpr>", where="textutils", file=file,
                 own_seconds=0.6, loop_line=2, loop_count=30)]
    assert "AIP202" not in [c for c, _ in shown(run_on(cell, spots, ns, lines))]


# -- threads of an earlier cell's function --------------------------------------------------------
WORKER = ("def tokenize_shard(shard, out):\n    counts = {}\n    for w in shard:\n"
          "        counts[w] = counts.get(w, 0) + 1\n    out.append(counts)\n")
THREAD_CELL = ("results = []\nthreads = []\nfor shard in shards:\n"
               "    t = threading.Thread(target=tokenize_shard, args=(shard, results))\n"
               "    t.start()\n    threads.append(t)\nfor t in threads:\n    t.join()\n")


def test_threads_of_an_earlier_cells_function_are_reported_on_the_line_that_hands_it_to_them() -> None:
    import threading

    file = earlier_cell(WORKER, "worker-1")
    ns = {"threading": threading, "shards": [["a"] * 10] * 4, "tokenize_shard": lambda s, o: None}
    spots = [hot(5, 0.7, 6, threads=4, via={"tokenize_shard": 5}, loop_line=3, loop_count=4),
             hot(8, 0.3, 2, callees={"Thread.join": 2})]
    lines = [hot(4, 0.6, 5, threads=3, function="tokenize_shard", where="cell [1]", file=file, own_seconds=0.6,
                 loop_line=3)]
    found = run_on(THREAD_CELL, spots, ns, lines, cpu=0.8)
    assert ("AIP401", 4) in shown(found)  # the Thread(...) line, not the t.start() where the main thread waited
    # the same threads on 1.9 cores ran in parallel (NumPy released the GIL): no finding
    assert "AIP401" not in [c for c, _ in shown(run_on(THREAD_CELL, spots, ns, lines, cpu=1.9))]


# -- a model evaluated in a helper of an earlier cell ---------------------------------------------
EVALUATE = ("def evaluate(line_tensor):\n    hidden = rnn.init_hidden()\n"
            "    for i in range(line_tensor.size()[0]):\n        output, hidden = rnn(line_tensor[i], hidden)\n"
            "    return output\n")
CONFUSION = ("for i in range(2000):\n    line_tensor = example()\n    output = evaluate(line_tensor)\n"
             "    confusion[0][output.argmax()] += 1\n")


def recurrent() -> Any:
    torch = pytest.importorskip("torch")

    class Tiny(torch.nn.Module):  # type: ignore[misc]
        def __init__(self) -> None:
            super().__init__()
            self.cell = torch.nn.Linear(8, 8)

        def forward(self, x: Any, h: Any) -> Any:
            return self.cell(x + h), h

        def init_hidden(self) -> Any:
            return torch.zeros(8)

    return Tiny()


def evaluate_lines(file: str, function: str = "evaluate", backward: bool = False) -> list[Hotspot]:
    rnn = recurrent()
    typed = f"{type(rnn).__module__}.{type(rnn).__qualname__}"
    callees = {"Module._wrapped_call_impl": 27, **({"Tensor.backward": 9} if backward else {})}
    return [hot(4, 0.75, 28, function=function, where="cell [1]", file=file, own_seconds=0.02, callees=callees,
                types={"rnn": typed, "hidden": "torch.Tensor"},
                locals={"hidden": "Tensor (1, 128) float32 requires_grad"}, loop_line=3)], rnn


def test_a_model_evaluated_in_an_earlier_cells_helper_with_autograd_on_is_found_on_the_calling_line() -> None:
    file = earlier_cell(EVALUATE, "eval-1")
    lines, rnn = evaluate_lines(file)
    ns = {"rnn": rnn, "evaluate": lambda t: t, "example": lambda: None, "confusion": [[0]]}
    spots = [hot(3, 0.8, 32, callees={"Module._wrapped_call_impl": 27}, via={"evaluate": 28}, loop_line=1,
                 loop_count=2000), hot(2, 0.12, 5, loop_line=1)]
    found = run_on(CONFUSION, spots, ns, lines)
    assert ("AIP502", 3) in shown(found)
    (f,) = [f for f in found if f.code == "AIP502" and f.shown]
    assert "of evaluate (cell [1])" in f.message and "autograd on" in f.message


def test_a_helper_that_trains_or_is_not_named_for_evaluation_is_left_alone() -> None:
    spots = [hot(3, 0.8, 32, callees={"Module._wrapped_call_impl": 27}, via={"evaluate": 28}, loop_line=1,
                 loop_count=2000)]
    file = earlier_cell(EVALUATE, "eval-2")
    lines, rnn = evaluate_lines(file, backward=True)  # the run computed gradients: the graph was used
    ns = {"rnn": rnn, "evaluate": lambda t: t, "example": lambda: None, "confusion": [[0]]}
    assert "AIP502" not in [c for c, _ in shown(run_on(CONFUSION, spots, ns, lines))]
    stepping = EVALUATE.replace("evaluate", "advance")  # a step of a simulation, not an evaluation
    file = earlier_cell(stepping, "eval-3")
    lines, rnn = evaluate_lines(file, function="advance")
    cell = CONFUSION.replace("evaluate", "advance")
    spots = [hot(3, 0.8, 32, callees={"Module._wrapped_call_impl": 27}, via={"advance": 28}, loop_line=1,
                 loop_count=2000)]
    ns = {"rnn": rnn, "advance": lambda t: t, "example": lambda: None, "confusion": [[0]]}
    assert "AIP502" not in [c for c, _ in shown(run_on(cell, spots, ns, lines))]


# -- a DataLoader over tensors in memory, its batches measured ------------------------------------
TENSOR_LOOP = ("data_iter = DataLoader(dataset, batch_size=256, shuffle=True)\nfor X, y in data_iter:\n"
               "    l = loss(net(X), y)\n    l.backward()\n")


def tensor_namespace() -> dict[str, Any]:
    torch = pytest.importorskip("torch")
    from torch.utils.data import DataLoader, TensorDataset

    dataset = TensorDataset(torch.randn(512, 4), torch.randn(512, 1))
    return {"DataLoader": DataLoader, "dataset": dataset, "net": torch.nn.Linear(4, 1), "loss": torch.nn.MSELoss(),
            "data_iter": DataLoader(dataset, batch_size=256)}


def test_the_static_loader_finding_is_kept_out_of_view_when_its_measured_batches_cost_little() -> None:
    ns = tensor_namespace()
    header = hot(2, 0.25, 8, callees={"_BaseDataLoaderIter.__next__": 8}, loop_line=2, loop_count=79)
    body = [hot(3, 0.35, 11, loop_line=2), hot(4, 0.4, 13, callees={"Tensor.backward": 13}, loop_line=2)]
    (f,) = [f for f in run_on(TENSOR_LOOP, [header, *body], ns) if f.code == "AIP101"]
    # 25 % in __next__, yet no Python of the user's per sample: TensorDataset indexes its tensors
    assert not f.shown and "TensorDataset does not decode" in (f.hidden_reason or "")
    cheap = hot(2, 0.1, 3, callees={"_BaseDataLoaderIter.__next__": 3}, loop_line=2, loop_count=79)
    (f,) = [f for f in run_on(TENSOR_LOOP, [cheap, *body], ns) if f.code == "AIP101"]
    assert not f.shown and "took 10% of the cell: loader workers could save at most that" in (f.hidden_reason or "")


def test_a_loader_loop_the_run_barely_sampled_keeps_its_static_finding() -> None:
    ns = tensor_namespace()
    few = [hot(2, 0.1, 1, loop_line=2), hot(3, 0.5, 3, loop_line=2)]  # 4 samples: too few to weigh the batches
    (f,) = [f for f in run_on(TENSOR_LOOP, few, ns) if f.code == "AIP101"]
    assert not f.evidence.get("judged")  # the verdict may still bring it back
