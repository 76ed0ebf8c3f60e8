"""Rewrites of a function an earlier cell defined, when the measured cell only calls it: the hot loop
is rewritten where it is (the same fixer and preconditions as in a cell of its own), the Fix names
that cell, carries it rewritten and the definitions for Try, and Try of it is equal and faster. Each
refusal is a shape where rebinding the name would not change what the cell calls."""

from __future__ import annotations

import linecache
from typing import Any, ClassVar

import pytest

from aiperf_magic.report import Finding, Hotspot, Report
from aiperf_magic.rules.engine import analyze_cell, prepare_cell
from aiperf_magic.rules.fixing import attach_fixes
from aiperf_magic.rules.fixing_earlier import changed_definitions, fix_in_earlier_cell
from aiperf_magic.rules.from_run import findings_from_run
from aiperf_magic.verification import verify

np = pytest.importorskip("numpy")

RECIPROCALS = (
    "import numpy as np\n"
    "\n"
    "\n"
    "def compute_reciprocals(values):\n"
    "    output = np.empty(len(values))\n"
    "    for i in range(len(values)):\n"
    "        output[i] = 1.0 / values[i]\n"
    "    return output\n"
    "\n"
    "\n"
    "big_array = np.arange(1, 20_001)\n"
)
CALL = "result = compute_reciprocals(big_array)\n"


def define(text: str, number: int, ns: dict[str, Any] | None = None) -> tuple[str, dict[str, Any]]:
    """Run ``text`` as IPython runs cell [number]: compiled under a file name the line cache keeps."""
    file = f"<ipython-input-{number}-earlier>"
    linecache.cache[file] = (len(text), None, text.splitlines(keepends=True), file)
    ns = {} if ns is None else ns
    exec(compile(text, file, "exec"), ns)
    return file, ns


def hot(line: int, share: float, samples: int = 20, **more: Any) -> Hotspot:
    return Hotspot(line=line, seconds=share, share=share, samples=samples, **more)


def measured(source: str, ns: dict[str, Any], function: str, file: str, lines: tuple[int, ...],
             number: int = 1) -> Finding | None:
    """The finding on the cell's calling line, from a run whose time went to ``lines`` of ``function``."""
    spots = [hot(1, 0.95, 40, via={function: 40})]
    inner = [hot(line, 0.9 / len(lines), 20, function=function, where=f"cell [{number}]", file=file,
                 own_seconds=0.9 / len(lines), loop_line=lines[0], loop_count=20_000) for line in lines]
    analysis = analyze_cell(source, select=["ALL"], namespace=ns)
    attach_fixes(analysis)
    report = Report(source=source, wall_s=1.0, cpu_s=1.0, hotspots=spots, function_lines=inner)
    findings_from_run(analysis, report, ns)
    return next((f for f in analysis.findings if f.shown and f.line == 1 and f.code.startswith("AIP2")), None)


def test_a_loop_in_an_earlier_cells_function_is_rewritten_there_and_tried_equal_and_faster() -> None:
    file, ns = define(RECIPROCALS, 1)
    finding = measured(CALL, ns, "compute_reciprocals", file, (6, 7))
    assert finding is not None and finding.code == "AIP201"
    fix = finding.fix
    assert fix is not None and fix.source == CALL and fix.cell == "cell [1]", fix
    assert "output[:len(values)] = 1.0 / np.asarray(values)" in fix.rebind
    assert fix.rebind.startswith("def compute_reciprocals(values):") and "big_array" not in fix.rebind
    assert fix.cell_source == RECIPROCALS.replace(
        "    for i in range(len(values)):\n        output[i] = 1.0 / values[i]\n",
        "    output[:len(values)] = 1.0 / np.asarray(values)\n")
    assert "cell [1] (before)" in fix.diff and "+    output[:len(values)]" in fix.diff
    c = verify(fix.source, fix.source, ns, rebind=fix.rebind, repeat=5)
    assert c.equal and c.speedup is not None and c.speedup > 3, (c.difference, c.error, c.speedup)
    assert "for i in range" in linecache.getlines(file)[5]  # the kernel's function is the user's own still
    assert ns["compute_reciprocals"].__code__.co_filename == file


def test_a_set_for_the_stop_words_of_an_earlier_cells_helper() -> None:
    text = ("stop_words = ['a', 'the', 'of'] * 20\n"
            "\n"
            "\n"
            "def remove_stopwords(text):\n"
            "    return ' '.join(w for w in text.split() if w not in stop_words)\n")
    file, ns = define(text, 2)
    ns["reviews"] = ["the cat of the house"] * 50
    finding = measured("clean = [remove_stopwords(r) for r in reviews]\n", ns, "remove_stopwords", file, (5,), 2)
    assert finding is not None and finding.code == "AIP202" and finding.fix is not None
    assert finding.fix.cell == "cell [2]" and "set(stop_words)" in finding.fix.rebind, finding.fix


def test_no_fix_when_the_name_was_defined_again_since() -> None:
    file, ns = define(RECIPROCALS, 1)
    define(RECIPROCALS.replace("1.0 /", "2.0 /"), 3, ns)  # a later cell redefined it
    finding = measured(CALL, ns, "compute_reciprocals", file, (6, 7))
    assert finding is not None and finding.fix is not None and not finding.fix.source
    assert "defined again since" in (finding.fix.reason or ""), finding.fix.reason


def test_no_fix_for_a_method_whose_class_an_earlier_cell_made() -> None:
    text = ("import numpy as np\n"
            "\n"
            "\n"
            "class Scaler:\n"
            "    def apply(self, values):\n"
            "        out = np.empty(len(values))\n"
            "        for i in range(len(values)):\n"
            "            out[i] = values[i] * 2.0\n"
            "        return out\n"
            "\n"
            "\n"
            "scaler = Scaler()\n"
            "big_array = np.arange(20_000)\n")
    file, ns = define(text, 1)
    finding = measured("scaled = scaler.apply(big_array)\n", ns, "Scaler.apply", file, (7, 8))
    assert finding is not None and finding.fix is not None and not finding.fix.source
    assert "keeps the old one" in (finding.fix.reason or ""), finding.fix.reason


def test_no_fix_for_a_function_of_a_module() -> None:
    file, ns = define(RECIPROCALS, 99)  # a file of its own: its parse is kept with where it is
    spots = [hot(1, 0.95, 40, via={"compute_reciprocals": 40})]
    inner = [hot(line, 0.45, 20, function="compute_reciprocals", where="helpers", file=file, own_seconds=0.45,
                 loop_line=6, loop_count=20_000) for line in (6, 7)]
    analysis = analyze_cell(CALL, select=["ALL"], namespace=ns)
    attach_fixes(analysis)
    findings_from_run(analysis, Report(source=CALL, wall_s=1.0, cpu_s=1.0, hotspots=spots, function_lines=inner), ns)
    finding = next(f for f in analysis.findings if f.code == "AIP201" and f.shown)
    assert finding.fix is not None and not finding.fix.source
    assert "defined in helpers: its rewrite belongs there" in (finding.fix.reason or "")


def test_a_loop_in_a_function_of_the_measured_cell_itself_says_so() -> None:
    """A Thread subclass's run() defined in the measured cell: its site has no earlier cell to name."""
    source = ("import threading\n\nclass Worker(threading.Thread):\n    def run(self):\n"
              "        for _ in range(10):\n            pass\n")
    prepared = prepare_cell(source)
    finding = Finding(code="AIP401", message="threads", line=5)
    fix = fix_in_earlier_cell(finding, source, prepared.cell, prepared.facts, None, None, None, {},
                              label="Worker.run")
    assert not fix.source and "None" not in (fix.reason or "")
    assert fix.reason is not None and fix.reason.startswith("the loop is in Worker.run, which this cell defines")


def test_only_changed_definitions_and_imports_are_rebound() -> None:
    old = "import numpy as np\n\nx = np.arange(3)\n\n\ndef f(v):\n    return v\n"
    new = "import numpy as np\nfrom math import fsum\n\nx = np.arange(3)\n\n\n@cache\ndef f(v):\n    return fsum(v)\n"
    assert changed_definitions(old, new) == "from math import fsum\n@cache\ndef f(v):\n    return fsum(v)\n"
    assert changed_definitions(old, old.replace("np.arange(3)", "np.arange(4)")) is None  # re-running it redoes work
    assert changed_definitions(old, old) is None


def test_the_earlier_cell_is_rewritten_as_the_user_typed_it() -> None:
    typed = "%load_ext aiperf_magic\n" + RECIPROCALS
    compiled = "get_ipython().run_line_magic('load_ext', 'aiperf_magic')\n" + RECIPROCALS  # what IPython runs

    class History:
        input_hist_raw: ClassVar[list[str]] = ["", typed]

    class Shell:
        history_manager = History()

        def run_line_magic(self, *args: str) -> None:
            return None

    file, ns = define(compiled, 1, {"get_ipython": lambda: Shell()})
    finding = measured(CALL, ns, "compute_reciprocals", file, (7, 8))
    assert finding is not None and finding.fix is not None and finding.fix.cell == "cell [1]", finding.fix
    assert finding.fix.cell_ran == typed  # Apply finds the notebook's cell by this text
    assert finding.fix.cell_source.startswith("%load_ext aiperf_magic\nimport numpy as np\n")
    assert "np.asarray(values)" in finding.fix.cell_source and "get_ipython" not in finding.fix.rebind


def test_the_rewritten_earlier_cell_adds_no_diagnostic() -> None:
    import importlib.util
    from pathlib import Path

    spec = importlib.util.spec_from_file_location("reviewed", Path(__file__).with_name("test_reviewed_output.py"))
    assert spec is not None and spec.loader is not None
    reviewed = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(reviewed)  # the ruff check of every rewritten fixture, for this rewrite too
    diagnostics, ruff_binary = reviewed.diagnostics, reviewed.ruff_binary

    if ruff_binary() is None:
        pytest.skip("ruff is in the dev extras")
    file, ns = define(RECIPROCALS, 1)
    fix = measured(CALL, ns, "compute_reciprocals", file, (6, 7))
    assert fix is not None and fix.fix is not None and fix.fix.cell_source
    assert not set(diagnostics(fix.fix.cell_source)) - set(diagnostics(RECIPROCALS))
