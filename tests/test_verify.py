"""verify(): sandbox copies, equality, speed, errors, timeouts; the user's namespace never changes."""

from __future__ import annotations

import copy
import threading
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from aiperf_magic import verify
from aiperf_magic.render.comparison import render_comparison_html, render_comparison_text
from aiperf_magic.verification.compare import first_difference
from aiperf_magic.verification.sandbox import reads_and_writes

LOOP = "for idx, row in df.iterrows():\n    df.loc[idx, 'c'] = row['a'] * 2\n"
VECTOR = "df['c'] = df['a'] * 2.0\n"  # the loop's column is float64: row['a'] is a float in a mixed frame


@pytest.fixture
def ns() -> dict:
    return {"df": pd.DataFrame({"a": np.arange(200), "b": np.linspace(0, 1, 200)}), "xs": list(range(2000))}


def test_equal_rewrite_is_faster_and_namespace_untouched(ns: dict) -> None:
    before_ids = {k: id(v) for k, v in ns.items()}
    snapshot = copy.deepcopy(ns)
    c = verify(LOOP, VECTOR, ns, repeat=3)
    assert c.equal and c.difference is None and c.error is None
    assert c.speedup is not None and c.speedup > 1 and c.better
    assert c.before_s and c.after_s and c.before_p95_s and c.after_p95_s and c.repeat == 3
    assert c.memory_ratio is not None and c.before_peak_bytes
    assert {k: id(v) for k, v in ns.items()} == before_ids
    assert list(ns["df"].columns) == ["a", "b"] and ns["df"].equals(snapshot["df"]) and ns["xs"] == snapshot["xs"]
    assert "df" in c.compared


def test_wrong_rewrite_is_caught_with_first_difference(ns: dict) -> None:
    c = verify(LOOP, "df['c'] = df['a'] * 2.0\ndf.loc[7, 'c'] = -1\n", ns, repeat=1)
    assert not c.equal and not c.better
    assert "row 7" in (c.difference or "") and "-1" in (c.difference or "")


def test_slower_rewrite_is_not_better(ns: dict) -> None:
    c = verify("s = sum(xs)", "s = 0\nfor _ in range(20):\n    s = sum(list(xs))\n", ns, repeat=3)
    assert c.equal and c.speedup is not None and c.speedup < 1 and not c.better


def test_raising_rewrite_reports_traceback_not_slower(ns: dict) -> None:
    c = verify("y = len(xs)", "y = len(xs) / 0", ns, repeat=1)
    assert c.error and "ZeroDivisionError" in c.error and c.speedup is None and not c.better


def test_runaway_rewrite_is_stopped_on_main_thread() -> None:
    c = verify("x = 1", "while True:\n    pass\n", {}, timeout_s=0.3, repeat=1)
    assert c.timed_out and not c.better and "stopped" in c.notes[0]


def test_runaway_rewrite_is_stopped_off_the_main_thread() -> None:
    box: dict = {}
    t = threading.Thread(
        target=lambda: box.update(c=verify("x = 1", "while True:\n    pass\n", {}, timeout_s=0.3, repeat=1))
    )
    t.start()
    t.join(20)
    assert not t.is_alive() and box["c"].timed_out


def test_missing_inputs_are_named() -> None:
    c = verify("y = z * 2", "y = z + z", {}, repeat=1)
    assert c.refused and "z" in c.refused and "run the cells" in c.refused and not c.better


@pytest.mark.parametrize("value", [(i for i in range(3)), iter([1, 2])])
def test_uncopyable_inputs_are_refused_in_process(value: object) -> None:
    c = verify("y = list(g)", "y = list(g)", {"g": value}, repeat=1, isolation="in-process")
    assert c.refused and "consumed only once" in c.refused


@pytest.mark.parametrize("value", [(i for i in range(3)), iter([0, 1, 2])])
def test_iterators_are_consumed_only_in_forked_copies(value: object) -> None:
    ns = {"g": value}
    c = verify("y = list(g)", "y = [v for v in g]", ns, repeat=2)
    assert c.equal and c.isolation == "process" and c.compared == ["g", "y"]  # g: what is left of it, nothing
    assert list(ns["g"]) == [0, 1, 2]  # the kernel's iterator was never advanced


def test_open_files_are_refused_in_process(tmp_path) -> None:
    with open(tmp_path / "f.txt", "w+") as fh:
        c = verify("y = fh.read()", "y = fh.read()", {"fh": fh}, repeat=1, isolation="in-process")
    assert c.blocked == f"line 1 writes to {tmp_path / 'f.txt'}, opened for writing before the Try", c


def test_open_files_are_read_in_forked_copies_without_moving_the_kernels_offset(tmp_path) -> None:
    (tmp_path / "f.txt").write_text("abc\ndef\n")
    with open(tmp_path / "f.txt") as fh:
        c = verify("y = fh.read()", "y = ''.join(fh)", {"fh": fh}, repeat=2)
        assert c.equal and c.compared == ["y"], c
        assert fh.read() == "abc\ndef\n"


def test_in_place_list_mutation_is_compared() -> None:
    ns = {"out": [1], "data": [1.0, 2.0]}
    c = verify("for x in data:\n    out.append(x * 2)\n", "out.extend([x * 2 for x in data] + [0])\n", ns, repeat=1)
    assert not c.equal and "out" in (c.difference or "") and ns["out"] == [1]


def test_list_to_array_with_same_values_is_a_difference() -> None:
    c = verify("sq = [x ** 2 for x in range(50)]", "import numpy as np\nsq = np.arange(50) ** 2", {}, repeat=1)
    assert not c.equal and c.difference == "sq: list became numpy.ndarray (same values)"


def test_compare_names_can_be_given() -> None:
    c = verify("a = 1\nb = 2", "a = 1\nb = 3", {}, compare=["a"], repeat=1)
    assert c.equal and c.compared == ["a"]


def test_inputs_and_outputs_of_a_cell() -> None:
    inputs, outputs, loops = reads_and_writes(
        "import numpy as np\nx = y + 1\nfor i in zs:\n    t += i\nf = lambda q: q + w\nsq = [v for v in x]\n"
    )
    assert inputs == ["y", "zs", "t", "w"]
    assert {"np", "x", "i", "t", "f", "sq"} <= outputs and loops == {"i"}


def test_a_function_defined_inside_a_function_is_not_an_input() -> None:
    # AIP402's rewrite defines the part that waits inside the user's function
    inputs, _, _ = reads_and_writes(
        "def scores(data):\n    def one(x):\n        return ask(x)\n    return list(map(one, data))\n")
    assert inputs == ["ask"]
    # a local total added to inside a function is the function's own
    inputs, _, _ = reads_and_writes("def f(xs):\n    total = 0\n    total += sum(xs)\n    return total\n")
    assert inputs == []


@pytest.mark.parametrize(
    ("a", "b", "equal"),
    [
        (1, 1, True),
        (1, 2, False),
        ("x", "x", True),
        (0.1 + 0.2, 0.3, True),
        (1.0, 1.0001, False),
        (np.float32(1.0), 1.0000001, False),
        (np.float32(1.0), np.float32(1.0000001), True),
        (float("nan"), float("nan"), True),
        (np.arange(3.0), np.arange(3.0) + 1e-12, True),
        (np.arange(3), np.arange(1, 4), False),
        (np.arange(3, dtype=np.float32), np.arange(3, dtype=np.float64), False),
        ([1, 2], (1, 2), False),
        ({"a": 1}, {"a": 1}, True),
        ({"a": 1}, {"b": 1}, False),
    ],
)
def test_type_aware_equality(a: object, b: object, equal: bool) -> None:
    assert (first_difference(a, b, "v", []) is None) is equal


def test_frame_column_order_and_index_matter() -> None:
    a = pd.DataFrame({"x": [1, 2], "y": [3, 4]})
    assert "columns" in (first_difference(a, a[["y", "x"]], "df", []) or "")
    assert "index" in (first_difference(a, a.set_axis([5, 6]), "df", []) or "")


def test_renderers_escape_user_text() -> None:
    c = verify("x = '<b>'", "x = '<i>'", {}, repeat=1)
    html = render_comparison_html(c)
    assert "<i>" not in html and "&lt;i&gt;" in html
    assert "Results differ" in render_comparison_text(c)


def test_runs_print_nothing(capsys) -> None:
    c = verify("print('hello')\nx = 1", "print('hello')\nx = 1", {}, repeat=2)
    assert c.equal and "hello" not in capsys.readouterr().out


def test_cpu_tensors_are_compared_and_memory_is_not_guessed() -> None:
    torch = pytest.importorskip("torch")
    c = verify("t = x * 2", "t = x + x", {"x": torch.arange(10.0)}, repeat=1, isolation="in-process")
    assert c.equal and c.memory_ratio is None
    assert any("not measured" in n for n in c.notes)
    forked = verify("t = x * 2", "t = x + x", {"x": torch.arange(10.0)}, repeat=1)
    assert forked.equal and forked.before_peak_bytes is not None  # resident memory of the trial process
    assert any("resident memory" in n for n in forked.notes)
    bad = verify("t = x * 2", "t = x * 2.5", {"x": torch.arange(10.0)}, repeat=1)
    assert not bad.equal and "t[1]" in (bad.difference or "")


@pytest.mark.gpu
def test_gpu_rewrite_is_synced_and_measured_on_the_device() -> None:
    torch = pytest.importorskip("torch")
    if not torch.cuda.is_available():
        pytest.skip("no CUDA GPU")
    before = "for _ in range(50):\n    x = torch.zeros(256, 1024)\n    x = x.cuda()\n    y = (x + 1).sum()\n"
    after = "for _ in range(50):\n    x = torch.zeros(256, 1024, device='cuda')\n    y = (x + 1).sum()\n"
    torch.zeros(1, device="cuda")  # initialise CUDA, as a GPU notebook has
    c = verify(before, after, {"torch": torch}, repeat=3)
    assert c.equal and c.speedup and c.before_peak_bytes is not None
    assert any("CUDA-synchronised" in n for n in c.notes)


def test_public_name_works_whatever_was_imported_first() -> None:
    import subprocess
    import sys

    code = (
        "import aiperf_magic.verification.compare, aiperf_magic\n"
        "c = aiperf_magic.verify('x = 1', 'x = 1', {}, repeat=1)\n"
        "print(type(c).__name__, c.equal)"
    )
    root = str(Path(__file__).resolve().parents[1])
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, cwd=root)
    assert out.stdout.strip() == "Comparison True", out.stderr
