"""What a hot line does and holds: its bytecode facts, the live sizes of its names, its loop's count.

Real frames: suspended generators are function frames whose locals can be read like a running one's.
"""

from __future__ import annotations

import os
import sys

import numpy as np
import pandas as pd
import pytest

from aiperf_magic import usercode
from aiperf_magic.measure.lineinfo import CodeFacts
from aiperf_magic.measure.linelook import after_cell, look
from aiperf_magic.sizing import describe, measure

STOP = ["a", "an", "the"] * 60  # a global the lines below name


def reciprocals(values):
    output = np.empty(len(values))
    for i in range(len(values)):
        output[i] = 1.0 / values[i]
        yield


def rows(df):
    for _idx, row in df.iterrows():
        _ = row["a"] in STOP
        yield


def line_of(gen, text: str) -> int:
    """The line number of ``text`` inside the generator's function."""
    code = gen.gi_code
    lines, start = __import__("inspect").getsourcelines(code)
    return start + next(i for i, line in enumerate(lines) if text in line)


def test_a_hot_lines_names_and_its_loop_count_are_read_from_the_live_frame():
    values = np.arange(1, 1001, dtype=np.int64)
    gen = reciprocals(values)
    next(gen)
    line = line_of(gen, "output[i] = 1.0")
    facts = CodeFacts(gen.gi_code).line(line)
    assert facts.ops == ["subscript", "/", "store subscript"]
    assert facts.loop_line == line - 1
    found = look(gen.gi_frame, facts)
    assert found.names["values"].text == "ndarray of 1,000 int64"
    assert found.names["output"].text == "ndarray of 1,000 float64"
    assert found.loop_count == 1000
    assert found.loop.startswith("range(len(values)): 1,000 iterations, the length of values")


def test_iterrows_counts_the_frames_rows_and_globals_are_read_too():
    df = pd.DataFrame({"a": ["x"] * 37, "b": range(37)})
    gen = rows(df)
    next(gen)
    facts = CodeFacts(gen.gi_code).line(line_of(gen, "in STOP"))
    found = look(gen.gi_frame, facts)
    assert "in" in facts.ops
    assert found.names["STOP"].text == "list of 180 str"
    assert found.names["row"].text.startswith("Series of 2")
    assert found.loop_count == 37 and "the rows of df" in found.loop


def test_a_traced_functions_locals_are_not_read_its_globals_are():
    gen = rows(pd.DataFrame({"a": ["x"], "b": [1]}))
    next(gen)
    gen.gi_frame.f_trace = lambda *a: None  # a debugger's trace function on this frame
    found = look(gen.gi_frame, CodeFacts(gen.gi_code).line(line_of(gen, "in STOP")))
    assert "row" not in found.names and "STOP" in found.names
    assert not found.locals_read


def test_a_comprehensions_iterator_is_sized_from_its_sequence():
    words = [f"w{i}" for i in range(250)]
    gen = (w for w in words if w not in STOP)
    next(gen)
    facts = CodeFacts(gen.gi_code).line(gen.gi_frame.f_lineno)
    found = look(gen.gi_frame, facts)
    assert found.loop_count == 250 and "list of 250 str" in found.loop


class Records:
    """A dataset of the user's: its own __len__ must not run on the sampler's thread."""

    calls = 0

    def __init__(self, n: int) -> None:
        self.items = list(range(n))

    def __len__(self) -> int:
        Records.calls += 1
        return len(self.items)


def test_the_users_own_len_runs_only_after_the_cell():
    data = Records(12)
    assert describe(data, user_code=False) is None  # not a known kind: nothing read at all
    mine = [data] * 3
    assert describe(mine, user_code=False).text == "list of 3 Records"
    assert Records.calls == 0
    torch = pytest.importorskip("torch")
    from torch.utils.data import DataLoader, Dataset

    class Squares(Dataset):
        def __len__(self) -> int:
            Records.calls += 1
            return 100

        def __getitem__(self, i: int):
            return torch.tensor(i * i)

    loader = DataLoader(Squares(), batch_size=32)
    during = describe(loader, user_code=False)
    assert during.text == "DataLoader num_workers=0 batch_size=32 over Squares" and Records.calls == 0
    after, count, how = after_cell(loader, CodeFacts(compile("for b in loader: pass", "<c>", "exec")).line(1).walk,
                                   "loader")
    assert after.text.endswith("over Squares of 100 items") and count == 4  # 100 items in batches of 32
    assert "sized after the cell" in how


def test_describe_and_measure_agree_on_kinds_and_sizes():
    cases = [
        (np.zeros((20, 5), dtype=np.float32), "ndarray of 100 float32 (20 x 5)", ("elements", 100)),
        (pd.DataFrame({"a": range(4000), "b": 0.5}), "DataFrame of 4,000 rows x 2 columns", ("rows", 4000)),
        (pd.Series([1, 2, 3]), "Series of 3 int64", ("rows", 3)),
        ({"k": np.zeros(2)}, "dict of 1 str -> ndarray", ("items", 1)),
        (set(), "set of 0", ("items", 0)),
    ]
    for obj, text, size in cases:
        d = describe(obj, user_code=False)
        assert d is not None and d.text == text
        assert measure(obj) == size and (d.unit, d.size) == size
    assert describe(len) is None and describe(3) is None and describe(np) is None


def test_tensors_say_shape_dtype_and_grad():
    torch = pytest.importorskip("torch")
    t = torch.zeros(64, 128, requires_grad=True)
    assert describe(t).text == "Tensor (64, 128) float32 requires_grad"
    assert describe(torch.zeros(5, dtype=torch.int64)).text == "Tensor (5) int64"


def test_whose_code_is_whose():
    assert usercode.is_user_file("<ipython-input-3-abc>")
    assert usercode.is_user_file(os.path.abspath(__file__))  # the user's own module (here: a test)
    assert not usercode.is_user_file(np.__file__)
    assert not usercode.is_user_file(usercode.__file__)  # aiperf itself, wherever it is installed
    assert not usercode.is_user_file(os.path.join(sys.prefix, "lib", "x.py"))


def test_a_cell_run_again_reuses_the_facts_of_its_equal_code_and_only_the_last_few_are_kept() -> None:
    from aiperf_magic.measure import lineinfo

    text = "rows = []\nfor i in range(10):\n    rows.append({'id': i})\n"
    first = compile(text, "<cell-1>", "exec")
    again = compile(text, "<cell-2>", "exec")  # the same cell, run again: a new, equal code object
    other = compile(text.replace("'id'", "'key'"), "<cell-3>", "exec")
    facts = lineinfo.code_facts({}, first)
    assert lineinfo.code_facts({}, again) is facts
    assert lineinfo.code_facts({}, other) is not facts
    assert [r.label for r in facts.line(3).names] == [r.label for r in lineinfo.CodeFacts(again).line(3).names]
    for k in range(lineinfo.KEPT_CODES):
        lineinfo.code_facts({}, compile(f"x = {k}\n", "<cell-x>", "exec"))
    assert len(lineinfo._KEPT) == lineinfo.KEPT_CODES
    assert lineinfo.code_facts({}, again) is not facts  # pushed out by sixteen newer cells


def test_a_comprehension_iterator_is_sized_by_its_sequence_until_it_is_exhausted() -> None:
    """A list iterator reduces to its list while it runs and to an empty tuple once done: an exhausted
    one is no measure of how many items the comprehension walked."""
    from aiperf_magic.measure.linelook import _iterator_count

    items = list(range(400))
    it = iter(items)
    next(it)
    assert _iterator_count(it, "items")[0] == 400
    for _ in it:
        pass
    assert _iterator_count(it, "items") == (None, None)


# A function whose frame another thread reads while one of its old values has a finalizer that
# hands the GIL over: without the emptied snapshot, the second read's finalizer lets the function
# return mid-read, and the read goes on in the freed frame. The crash depends on what lands there:
# before the change the process died (SIGSEGV) in 1 run of 4 of this script on CPython 3.11; the
# next test checks the mechanism itself, without luck.
_FINALIZER_RACE = '''
import sys, threading, time
from aiperf_magic.measure.lineinfo import CodeFacts
from aiperf_magic.measure.linelook import look
sys.setswitchinterval(0.0005)

class Slow:
    def __del__(self):
        time.sleep(0.005)

state = {}
go, read1 = threading.Event(), threading.Event()

def target():
    a = Slow()
    b = [1, 2, 3]; c = {"x": 1}; d = "s" * 10; e = (1, 2); g = object(); h = [b, c]
    state["frame"] = sys._getframe()
    go.set()
    read1.wait()
    a = None
    time.sleep(0.001)
    return len(h) + len(d) + len(e) + (g is None)

def churn():
    # frames laid over the returned one, at its depth
    def inner(p, q, r, s, t, u, v, w, x, y, z):
        k = [p, q]; m = (r, s, t)
        return len(k) + len(m)
    total = 0
    for i in range(20000):
        total += inner(i, i, i, i, i, i, i, i, i, i, i)
    return total

facts = CodeFacts(target.__code__).line(target.__code__.co_firstlineno + 8)

def reader():
    go.wait()
    frame = state.pop("frame")
    look(frame, facts)
    read1.set()
    time.sleep(0.0005)
    for _ in range(3):
        look(frame, facts)

for _ in range(500):
    go.clear(); read1.clear()
    t = threading.Thread(target=reader); t.start()
    target(); churn()
    t.join()
print("survived")
'''


@pytest.mark.skipif(sys.version_info >= (3, 13), reason="3.13+ reads locals through a view, with no snapshot")
def test_reading_a_functions_locals_while_an_old_value_is_finalized_does_not_crash(tmp_path) -> None:
    import subprocess

    script = tmp_path / "race.py"
    script.write_text(_FINALIZER_RACE)
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=120,
                          env={**os.environ, "PYTHONPATH": os.getcwd()})
    assert done.returncode == 0 and "survived" in done.stdout, (done.returncode, done.stderr[-2000:])


class _Held:
    pass


def _holds():
    kept = [_Held()]
    yield kept
    kept = None
    yield


def test_a_read_leaves_no_snapshot_behind_and_a_function_that_asks_for_its_locals_is_not_read() -> None:
    import weakref

    gen = _holds()
    first = next(gen)
    held = weakref.ref(first[0])
    del first
    code = gen.gi_code
    for _ in range(2):
        found = look(gen.gi_frame, CodeFacts(code).line(code.co_firstlineno + 2))
        assert found.names["kept"].text and found.locals_read
    next(gen)  # the function rebinds its name: nothing the reads left behind keeps the object alive
    assert held() is None
    ns: dict = {}
    exec("def asks():\n    kept = [1, 2]\n    ns = locals()\n    yield len(kept)\n    return ns\n", ns)
    asking = ns["asks"]()
    next(asking)
    found = look(asking.gi_frame, CodeFacts(asking.gi_code).line(asking.gi_code.co_firstlineno + 3))
    if sys.version_info < (3, 13):
        assert "kept" not in found.names and not found.locals_read
    else:
        assert "kept" in found.names


def test_the_collector_is_held_off_while_frames_are_read_and_a_users_disabled_one_stays_off() -> None:
    import gc

    from aiperf_magic.measure.stacks import gc_paused

    assert gc.isenabled()
    with gc_paused():
        assert not gc.isenabled()
    assert gc.isenabled()
    gc.disable()
    try:
        with gc_paused():
            assert not gc.isenabled()
        assert not gc.isenabled()
    finally:
        gc.enable()
