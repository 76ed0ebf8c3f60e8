"""Code nested too deeply for libcst's native parser: one AIP000 finding, never a dead process.

libcst's parser recurses on the C stack: 1,500 nested brackets, or one expression of 8,000 ``and``
terms or ``.b`` attributes, used to kill ``aiperf lint`` (and a kernel running ``%%aiperf``) with a
segmentation fault. The crash cases run in subprocesses, so a regression fails these tests instead
of killing pytest.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from aiperf_magic.cell.depth import LIMIT, parse_cost, too_deep
from aiperf_magic.cell.parsed import ParseFailure, parse, parse_module
from aiperf_magic.rules import analyze

ROOT = Path(__file__).resolve().parents[2]
PARENS = "x = " + "(" * 1500 + "1" + ")" * 1500 + "\n"
ATTRS = "x = a" + ".b" * 8000 + "\n"
ANDS = "a = 1\nx = " + " and ".join(["a"] * 8000) + "\n"  # CPython compiles this one; libcst died on it
SLOW_PY = "from torch.utils.data import DataLoader\nloader = DataLoader(ds, batch_size=8)\n"


def notebook(*sources: str) -> str:
    cells = [{"cell_type": "code", "metadata": {}, "execution_count": None, "outputs": [], "source": s}
             for s in sources]
    return json.dumps({"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": cells})


def run(args: list[str], cwd: Path, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, *args], cwd=cwd, env=env, input=stdin, capture_output=True, text=True,
                          timeout=300)


def test_lint_reports_each_deep_file_once_and_checks_the_others(tmp_path: Path) -> None:
    (tmp_path / "parens.py").write_text(PARENS)
    (tmp_path / "attrs.py").write_text(ATTRS)
    (tmp_path / "chain.ipynb").write_text(notebook("import os\n", ANDS, SLOW_PY))
    (tmp_path / "slow.py").write_text(SLOW_PY)
    proc = run(["-m", "aiperf_magic", "lint", "--select", "AIP000,AIP101", "--format", "json", "."], tmp_path)
    assert proc.returncode == 2, proc.stderr[-2000:]  # not 139 (SIGSEGV): a file not analysed is an error
    found = {(i["path"], i["cell"], i["code"], i["name"], i["line"]) for i in json.loads(proc.stdout)}
    assert found == {
        ("attrs.py", None, "AIP000", "not-analysed", 1),
        ("chain.ipynb", 1, "AIP000", "not-analysed", 2),
        ("chain.ipynb", 2, "AIP101", "dataloader-without-workers", 2),  # the notebook's other cells were checked
        ("parens.py", None, "AIP000", "not-analysed", 1),
        ("slow.py", None, "AIP101", "dataloader-without-workers", 2),
    }
    errors = [line for line in proc.stderr.splitlines() if line.startswith("aiperf: error:")]
    assert len(errors) == 3 and sum("parens.py:1:" in e for e in errors) == 1
    assert "too many nested parentheses" in proc.stderr  # Python's own word for the brackets
    assert "chain.ipynb:cell 1:2:" in proc.stderr
    text = run(["-m", "aiperf_magic", "lint", "."], tmp_path)
    assert text.returncode == 2
    assert "3 files could not be analysed in full" in text.stdout and "All checks passed" not in text.stdout
    sarif = json.loads(run(["-m", "aiperf_magic", "lint", "--format", "sarif", "."], tmp_path).stdout)
    assert sarif["runs"][0]["invocations"][0]["executionSuccessful"] is False


def test_a_fifo_or_a_device_is_skipped_with_a_warning(tmp_path: Path) -> None:
    if not hasattr(os, "mkfifo"):
        pytest.skip("no FIFOs on this system")
    os.mkfifo(tmp_path / "x.py")  # reading it would wait forever for a writer
    sub = tmp_path / "sub"
    sub.mkdir()
    os.mkfifo(sub / "y.py")
    (tmp_path / "clean.py").write_text("x = 1\n")
    args = ["-m", "aiperf_magic", "lint", "x.py", "sub", "clean.py"]
    if Path("/dev/zero").exists():
        args.append("/dev/zero")
    proc = run(args, tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "x.py: not a regular file: skipped" in proc.stderr
    assert "y.py: not a regular file: skipped" in proc.stderr
    assert "no such file" not in proc.stderr
    if Path("/dev/zero").exists():
        assert "/dev/zero: not a regular file: skipped" in proc.stderr


MAGIC_SCRIPT = r"""
import sys
from IPython.testing.globalipapp import start_ipython
ip = start_ipython()
ip.run_line_magic("load_ext", "aiperf_magic")
chain = sys.stdin.read()
ip.run_cell("%%aiperf --text --no-gpu\n" + chain)
print("after %%aiperf", flush=True)
ip.run_line_magic("aiperf", "auto on --threshold 0")
ip.run_cell(chain)
print("after auto", flush=True)
ip.run_line_magic("aiperf", "auto off")
# a function whose source IPython keeps: the rules read it when a measured cell calls it
ip.run_cell("def deep():\n    return " + chain.splitlines()[1][4:] + "\n", store_history=True)
ip.run_cell("%%aiperf --text --no-gpu\nout = []\nfor _ in range(3):\n    out.append(deep())")
print("after a live function", flush=True)
"""


def test_magic_and_auto_mode_survive_a_deep_cell(tmp_path: Path) -> None:
    proc = run(["-c", MAGIC_SCRIPT], tmp_path, stdin=ANDS)
    assert proc.returncode == 0, proc.stderr[-3000:]
    out = proc.stdout
    assert "after %%aiperf" in out and "after auto" in out and "after a live function" in out
    assert "AIP000 line 3: This code is nested too deeply" in out  # the magic line is line 1


def test_the_estimate_is_linear_and_ignores_strings_comments_and_flat_data() -> None:
    flat = "xs = [" + ", ".join(["1.5"] * 100_000) + "]\n" + "y = 1\n" * 10_000
    assert parse_cost(flat)[0] < 10
    quoted = "s = '" + "(" * 5000 + "'\n# " + "[" * 5000 + "\nt = '''" + "{" * 5000 + "'''\n"
    assert parse_cost(quoted)[0] < 10
    assert too_deep("x = " + "(" * 260 + ")" * 260) is not None
    assert too_deep("x = " + "(" * 240 + ")" * 240) is None  # Python's own limit is 200
    assert too_deep("x = " + " + ".join(["a"] * 600)) is not None
    assert too_deep("x = (" + " +\n".join(["a"] * 600) + ")") is not None  # one expression over 600 lines
    offset = too_deep("ok = 1\n" + ATTRS)
    assert offset is not None and offset > len("ok = 1\n")
    assert LIMIT >= 4 * 200  # what Python accepts is analysed


def test_cells_and_sources_too_deep_are_refused_before_libcst_sees_them() -> None:
    failure = parse("import os\n" + ATTRS)
    assert isinstance(failure, ParseFailure) and failure.kind == "not-analysed" and failure.line == 2
    (f,) = analyze("%%time\n" + ANDS)
    assert (f.code, f.name, f.line) == ("AIP000", "not-analysed", 3)  # lines count from the magic line
    with pytest.raises(ValueError):
        parse_module(PARENS)
    assert parse_module("x = (1)\n").code == "x = (1)\n"


def test_a_bracket_never_closed_is_the_syntax_error_it_is() -> None:
    # the rest of the file sits inside the open bracket, so it looks deep; Python names the real error
    text = "import os\nx = foo(\n" + "".join(f"y{i} = a + b + c + d\n" for i in range(400))
    (f,) = analyze(text)
    assert (f.code, f.name, f.line) == ("AIP000", "syntax-error", 2)
    assert "never closed" in f.message
