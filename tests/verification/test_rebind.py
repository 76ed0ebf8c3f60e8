"""Try of a rewrite of an earlier cell's function (``verify(..., rebind=...)``): the measured cell runs
unchanged in both versions, the rewritten definitions run first in the rewrite's trials, the kernel's
own function is never changed, and what the cell computes is compared as for any rewrite. Names a
cell binds to clock readings are not compared (they differ between any two runs), and said so."""

from __future__ import annotations

from typing import Any

import pytest

from aiperf_magic import verify
from aiperf_magic.verification.clocks import clock_names
from aiperf_magic.verification.rebind import compile_rebind

BOTH = pytest.mark.parametrize("isolation", ["auto", "in-process"])

EARLIER = (
    "import numpy as np\n"
    "calls = []\n"
    "def scaled(values, k):\n"
    "    out = np.empty(len(values))\n"
    "    for i in range(len(values)):\n"
    "        out[i] = values[i] * k\n"
    "    calls.append(len(values))\n"
    "    return out\n"
)
VECTOR = (
    "def scaled(values, k):\n"
    "    out = np.empty(len(values))\n"
    "    out[:len(values)] = np.asarray(values) * k\n"
    "    calls.append(len(values))\n"
    "    return out\n"
)
CELL = "result = scaled(data, 3.0)\n"


def kernel() -> dict[str, Any]:
    ns: dict[str, Any] = {"__name__": "__main__"}
    exec(EARLIER, ns)
    ns["data"] = ns["np"].arange(30_000.0)
    return ns


@BOTH
def test_the_cell_calls_the_rewritten_definition_and_the_kernel_keeps_its_own(isolation: str) -> None:
    ns = kernel()
    own = ns["scaled"]
    c = verify(CELL, CELL, ns, rebind=VECTOR, isolation=isolation, repeat=5)
    # the rewritten function ran (30,000 stores of the loop against one): faster by far, whatever the load
    assert c.equal and c.speedup is not None and c.speedup > 3, (c.difference, c.error, c.speedup)
    assert "result" in c.compared and "calls" in c.compared  # a global the functions change is compared too
    assert any(n.startswith("the rewrite's runs called the rewritten scaled") for n in c.notes), c.notes
    assert ns["scaled"] is own and ns["calls"] == [] and "result" not in ns


@BOTH
def test_a_rewritten_definition_that_computes_otherwise_is_a_difference(isolation: str) -> None:
    ns = kernel()
    c = verify(CELL, CELL, ns, rebind=VECTOR.replace("* k", "* k + 1"), isolation=isolation, repeat=1)
    assert not c.equal and (c.difference or "").startswith("result"), c.difference
    forgets = verify(CELL, CELL, ns, rebind=VECTOR.replace("    calls.append(len(values))\n", ""),
                     isolation=isolation, repeat=1)
    assert not forgets.equal and (forgets.difference or "").startswith("calls"), forgets.difference


def test_definitions_that_raise_are_reported_not_run_as_the_cell() -> None:
    ns = kernel()
    c = verify(CELL, CELL, ns, rebind=VECTOR + "raise KeyError('boom')\n", repeat=1)
    assert not c.equal and "the rewritten definitions raised before the cell ran" in (c.error or ""), c.error
    bad = verify(CELL, CELL, ns, rebind="def scaled(:\n", repeat=1)
    assert bad.error and bad.error.startswith("SyntaxError")


def test_the_names_the_definitions_bind() -> None:
    _, names = compile_rebind("import numpy as np\nfrom math import fsum as f\n@dec\ndef g():\n    x = 1\nK = 2\n")
    assert names == {"np", "f", "g", "K"}


@BOTH
def test_clock_readings_are_not_compared_and_said(isolation: str) -> None:
    cell = "import time\nstart_time = time.time()\ny = sum(range(50_000))\nduration = time.time() - start_time\n"
    faster = cell.replace("sum(range(50_000))", "49_999 * 50_000 // 2")
    c = verify(cell, faster, {"__name__": "__main__"}, isolation=isolation, repeat=1)
    assert c.equal and "y" in c.compared and "duration" not in c.compared, (c.difference, c.compared)
    assert any("not compared: duration, start_time (clock readings" in n for n in c.notes), c.notes
    wrong = verify(cell, faster.replace("// 2", "// 3"), {"__name__": "__main__"}, isolation=isolation, repeat=1)
    assert not wrong.equal and (wrong.difference or "").startswith("y")


def test_what_counts_as_a_clock_reading() -> None:
    assert clock_names("t0 = perf_counter()\nms = (perf_counter() - t0) * 1000\n") == {"t0", "ms"}
    assert clock_names("now = datetime.datetime.now()\n") == {"now"}
    assert clock_names("total = data.sum() + time.time()\n") == set()  # data in it: a value to compare
    assert clock_names("t = time.time()\nt = compute()\n") == set()  # also bound to something else
    assert clock_names("t = time.time()\nfor t in range(3):\n    pass\n") == set()
    assert clock_names("pause = time.sleep(1)\n") == set()
    assert clock_names("def f():\n    t = time.time()\n") == set()  # a function's local, not the cell's


@BOTH
def test_definitions_that_touch_the_world_are_refused_and_the_kernel_keeps_its_names(isolation: str, tmp_path: Any
                                                                                      ) -> None:
    ns = kernel()
    own = ns["scaled"]
    target = tmp_path / "written.txt"
    writes = (f"def deco(fn):\n    open({str(target)!r}, 'w').write('x')\n    return fn\n\n\n@deco\n" + VECTOR)
    c = verify(CELL, CELL, ns, rebind=writes, isolation=isolation, repeat=1)
    assert not c.equal and (c.blocked or "").startswith("the rewritten definitions: ") and not target.exists(), c
    gone = verify(CELL, CELL, ns, rebind="del scaled\n", isolation=isolation, repeat=1)
    assert not gone.equal and "NameError" in (gone.error or ""), gone
    assert ns["scaled"] is own and "deco" not in ns  # nothing the definitions did reached the kernel
