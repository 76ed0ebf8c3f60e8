"""Run a rewritten corpus file before and after its fixes and compare what it printed.

Used by ``corpus.py --fix --run``. Only what runs here is judged: on the CPU (no GPU is visible),
from a copy of the file's own folder (small local data: at most ``MAX_FOLDER_BYTES``), within the
time limit, with no network; plotting libraries this machine lacks (matplotlib, seaborn, plotly)
are stubs that draw nothing, in both runs alike. A notebook whose original stops at some cell (an absent module, a
download, the time limit) is judged on the cells before it, when a rewritten cell is among them;
a file that stops before any rewritten cell is "not runnable here" (with the reason).

A notebook runs cell by cell in an IPython shell (magics and ``!`` lines as in Jupyter), a script as
one cell with ``__name__ == "__main__"``. What is compared is each cell's printed output and
displayed values. The original runs twice first: lines that differ between its own two runs
(unseeded randomness, timings, addresses) are not compared. Numbers compare with a relative
tolerance of 1e-5 (a rewrite may sum in another order). A breakage is a rewrite that raises
where the original ran, or prints other values.
"""

from __future__ import annotations

import json
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

MAX_FOLDER_BYTES = 50 * 2**20
RTOL = 1e-5

RUNNER = r"""
import contextlib, importlib.abc, importlib.machinery, importlib.util, io, json, os, sys, types, warnings
warnings.simplefilter("ignore")
from IPython.core.interactiveshell import InteractiveShell

# Plotting libraries absent here draw nothing, in both runs alike: every name is a stub that
# accepts any call, attribute, item, iteration (two stubs: fig, ax = plt.subplots()) or context.
PLOTTING = ("matplotlib", "seaborn", "plotly")


class _Stub:
    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        return _Stub()

    def __call__(self, *a, **k):
        return _Stub()

    def __getitem__(self, key):
        return _Stub()

    def __setitem__(self, key, value):
        pass

    def __iter__(self):
        return iter((_Stub(), _Stub()))

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def __repr__(self):
        return "<plot stub>"


class _StubModule(types.ModuleType):
    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        return _Stub()


class _StubFinder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    def find_spec(self, name, path, target=None):
        if name.split(".")[0] not in PLOTTING:
            return None
        return importlib.machinery.ModuleSpec(name, self, is_package=True)

    def create_module(self, spec):
        module = _StubModule(spec.name)
        module.__path__ = []
        return module

    def exec_module(self, module):
        pass


if any(importlib.util.find_spec(name) is None for name in PLOTTING):
    sys.meta_path.append(_StubFinder())  # after the real finders: installed libraries win

path, out_path = sys.argv[1], sys.argv[2]
text = open(path, encoding="utf-8", errors="replace").read()
if path.endswith(".ipynb"):
    nb = json.loads(text)
    cells = [c.get("source", "") for c in nb.get("cells", []) if c.get("cell_type") == "code"]
    cells = ["".join(s) if isinstance(s, list) else s for s in cells]
else:
    cells = [text]
shell = InteractiveShell.instance(colors="NoColor")
if isinstance(sys.modules.get("matplotlib") or __import__("matplotlib"), _StubModule):
    shell.register_magic_function(lambda line: None, "line", "matplotlib")  # %matplotlib inline
shell.user_ns["__file__"] = os.path.abspath(path)
outputs, error = [], None
for src in cells:
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf), contextlib.redirect_stderr(io.StringIO()):
        result = shell.run_cell(src, store_history=True)
    outputs.append(buf.getvalue())
    exc = result.error_in_exec or result.error_before_exec
    if exc is not None:
        error = f"{type(exc).__name__}: {exc}"[:300]
        break
    with open(out_path, "w") as fh:  # after every cell: a timeout still leaves what ran
        json.dump({"outputs": outputs, "error": error, "done": False}, fh)
with open(out_path, "w") as fh:
    json.dump({"outputs": outputs, "error": error, "done": True}, fh)
"""

_HEX = re.compile(r"0x[0-9a-fA-F]+")
_NUMBER = re.compile(r"[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?")


def folder_size(folder: Path) -> int:
    total = 0
    for root, dirs, files in os.walk(folder):
        dirs[:] = [d for d in dirs if not d.startswith(".")]
        for f in files:
            try:
                total += os.path.getsize(os.path.join(root, f))
            except OSError:
                pass
            if total > MAX_FOLDER_BYTES:
                return total
    return total


def run_file(folder: Path, name: str, timeout: float, extra_path: list[str]) -> dict[str, Any]:
    """Run ``folder/name`` in a fresh interpreter; its outputs, error, and whether it finished."""
    result = folder / ".aiperf-run.json"
    env = dict(os.environ, CUDA_VISIBLE_DEVICES="", MPLBACKEND="Agg", PYTHONHASHSEED="0", TQDM_DISABLE="1")
    env["PYTHONPATH"] = os.pathsep.join([str(folder), *extra_path])
    script = folder / ".aiperf-runner.py"
    script.write_text(RUNNER)
    try:
        subprocess.run(
            [sys.executable, str(script), name, str(result)], cwd=folder, env=env, timeout=timeout,
            capture_output=True, check=False,
        )
        timed_out = False
    except subprocess.TimeoutExpired:
        timed_out = True
    try:
        data = json.loads(result.read_text())
    except (OSError, ValueError):
        data = {"outputs": [], "error": "the run ended without a result (crashed or killed)", "done": False}
    if timed_out:
        data["error"] = data.get("error") or f"timed out after {timeout:.0f} s"
        data["done"] = False
    return data


def _norm(line: str) -> str:
    return _HEX.sub("0x?", line.rstrip())


def _same_line(a: str, b: str) -> bool:
    a, b = _norm(a), _norm(b)
    if a == b:
        return True
    if _NUMBER.sub("#", a) != _NUMBER.sub("#", b):
        return False
    for x, y in zip(_NUMBER.findall(a), _NUMBER.findall(b), strict=True):
        fx, fy = float(x), float(y)
        if not math.isclose(fx, fy, rel_tol=RTOL, abs_tol=1e-9):
            return False
    return True


def difference(first: list[str], second: list[str], after: list[str]) -> str | None:
    """The first output line of ``after`` that differs from the original's (``first``), skipping
    lines where the original's own two runs (``first``, ``second``) already differ."""
    for cell, (a, b, c) in enumerate(zip(first, second, after, strict=False)):
        la, lb, lc = a.splitlines(), b.splitlines(), c.splitlines()
        if len(la) != len(lb):
            continue  # the original prints a varying number of lines here: not comparable
        if len(la) != len(lc):
            return f"cell {cell}: {len(lc)} output lines instead of {len(la)}"
        for x, y, z in zip(la, lb, lc, strict=True):
            if _same_line(x, y) and not _same_line(x, z):
                return f"cell {cell}: {z[:120]!r} instead of {x[:120]!r}"
    return None


def _completed(run: dict[str, Any]) -> int:
    """How many code cells ran to their end (a timed-out run keeps the cells it finished)."""
    return len(run["outputs"]) - (1 if run["error"] and run["done"] else 0)


def check(
    original: Path, rewritten_text: str, repo_root: Path, timeout: float, changed: list[int] | None = None
) -> dict[str, Any]:
    """Run ``original`` (in a copy of its folder) and its rewrite; ``status`` is "equal", "broken",
    "slower" (the rewrite ran past twice the time limit) or "skipped", with ``why``.

    ``changed`` are the code cells (0-based, code cells only) the rewrite changed. A notebook whose
    original stops (an absent module, a download, the time limit) is judged on the cells before that
    point, when a changed cell is among them: the rewrite must run them too and print the same.
    """
    folder = original.parent
    changed = changed if changed is not None else [0]
    if folder_size(folder) > MAX_FOLDER_BYTES:
        return {"status": "skipped", "why": "its folder is over 50 MiB (not small local data)"}
    with tempfile.TemporaryDirectory(prefix="aiperf-run-") as tmp:
        runs: dict[str, dict[str, Any]] = {}
        for label in ("before", "before-again", "after"):
            copy = Path(tmp) / label
            shutil.copytree(folder, copy, ignore=shutil.ignore_patterns(".*"), symlinks=True)
            if label == "after":
                (copy / original.name).write_text(rewritten_text, encoding="utf-8")
            limit = timeout * 2 if label == "after" else timeout  # a slower rewrite is not a broken one
            runs[label] = run_file(copy, original.name, limit, [str(repo_root)])
            first = runs["before"]
            if label == "before" and not any(k < _completed(first) for k in changed):
                stop = first["error"] or "no output"
                return {"status": "skipped", "why": f"the original does not run here up to a rewritten cell: {stop}"}
        before, again, after = runs["before"], runs["before-again"], runs["after"]
        reach = min(_completed(before), _completed(again))
        if _completed(after) < reach:
            if not after["done"]:
                return {"status": "slower", "why": f"the rewrite ran past {2 * timeout:.0f} s: {after['error']}"}
            return {"status": "broken", "why": f"the rewrite fails where the original ran: {after['error']}"}
        why = difference(before["outputs"][:reach], again["outputs"][:reach], after["outputs"][:reach])
        if why is not None:
            return {"status": "broken", "why": f"different output: {why}"}
        ran = sum(1 for k in changed if k < reach)
        return {"status": "equal", "why": f"{ran} of {len(changed)} rewritten cells ran in both, same output"}
