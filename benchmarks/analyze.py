"""How long the trap catalog takes: a 30-line cell and a 200-cell notebook, and TorchFix on the same text;
``aiperf lint`` against ``--preview`` on a 5,000-cell notebook of row loops, and on modules, with peak memory.

    python benchmarks/analyze.py [--repeat 200] [--torchfix-python PATH] [--lint-cells 5000] [--lint-only]

TorchFix pins an older libcst, so it is best installed in its own environment
(``python -m venv tf && tf/bin/pip install torchfix``) and named with ``--torchfix-python``; if it
imports in this interpreter it is used directly. Its checker only looks at files that mention
"torch", and knows one of these traps (``DataLoader`` without ``num_workers``).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import libcst as cst
from libcst.metadata import MetadataWrapper, PositionProvider

from aiperf_magic.cell.parsed import node_positions
from aiperf_magic.cell.parsed import parse as parse_cell
from aiperf_magic.lint.files import lint_cells
from aiperf_magic.rules import analyze
from aiperf_magic.rules.engine import _collect

CELL = """import torch
import torch.nn as nn
from torch.utils.data import DataLoader

loader = DataLoader(train_ds, batch_size=64, shuffle=True)
model = nn.Sequential(nn.Linear(784, 256), nn.ReLU(), nn.Linear(256, 10)).cuda()
optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
criterion = nn.CrossEntropyLoss()
history = []

for epoch in range(3):
    running = 0.0
    for step, (images, labels) in enumerate(loader):
        images = images.view(images.size(0), -1).to(device)
        labels = labels.to(device)
        noise = torch.randn(images.shape).cuda()
        outputs = model(images + 0.01 * noise)
        loss = criterion(outputs, labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        running += loss.item()
    history.append(running / len(loader))
    print(f"epoch {epoch}: {history[-1]:.4f}")

model.eval()
correct = 0
for images, labels in test_loader:
    preds = model(images.view(images.size(0), -1).cuda()).argmax(1)
    correct += (preds.cpu() == labels).sum().item()
"""

OTHER_CELLS = [
    "import pandas as pd\nimport numpy as np\ndf = pd.read_csv('sales.csv')\ndf = df[['price', 'qty']]\n",
    "for i, row in df.iterrows():\n    df.loc[i, 'total'] = row['price'] * row['qty']\n",
    "df['bmi'] = df.apply(lambda r: r['w'] / r['h'] ** 2, axis=1)\nprint(df.describe())\n",
    "# Notes\nvalues = list(range(100_000))\nsquares = [v ** 2 for v in values]\n",
    "%%time\nout = np.array([])\nfor v in values[:1000]:\n    out = np.append(out, v)\n",
    "!nvidia-smi\n%matplotlib inline\nimport requests\npages = [requests.get(u).text for u in urls]\n",
    "seen = []\nfor tok in tokens:\n    if tok not in seen:\n        seen.append(tok)\n",
    "with open('train.jsonl') as fh:\n    rows = [json.loads(l) for l in fh.readlines()]\n",
]


def notebook_cells(n: int = 200) -> list[tuple[str, str]]:
    cells = [CELL, *OTHER_CELLS]
    return [("code", cells[i % len(cells)]) for i in range(n)]


def many_row_loops(n: int) -> str:
    """``n`` row loops in one cell, each on its own frame built from arrays: ``n`` AIP301 findings."""
    head = "import numpy as np\nimport pandas as pd\n\nrng = np.random.default_rng(0)\n"
    return head + "".join(
        f"df{i} = pd.DataFrame({{'a': rng.random(1000), 'b': rng.random(1000)}})\n"
        f"for idx, row in df{i}.iterrows():\n    df{i}.loc[idx, 'c'] = row['a'] * row['b']\n"
        for i in range(n)
    )


def median_time(fn: Callable[[], object], repeat: int) -> float:
    """Median wall time; CPU time of the same runs goes to CPU_TIMES (a shared machine's wall
    time includes waiting for a core)."""
    fn()  # warm caches (rule registry, IPython transformer)
    times, cpu = [], []
    for _ in range(repeat):
        t0, c0 = time.perf_counter(), time.thread_time()
        fn()
        times.append(time.perf_counter() - t0)
        cpu.append(time.thread_time() - c0)
    CPU_TIMES[fn] = statistics.median(cpu)
    return statistics.median(times)


CPU_TIMES: dict[Callable[[], object], float] = {}


TORCHFIX_CODE = r"""
import json, statistics, sys, time
from torchfix.torchfix import TorchChecker
texts = json.load(sys.stdin)
def run(text):
    return list(TorchChecker(None, text.splitlines(keepends=True)).run())
out = {}
for key, repeat in (("cell", %d), ("notebook", %d)):
    items = texts[key]
    for t in items:
        run(t)
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        for t in items:
            run(t)
        times.append(time.perf_counter() - t0)
    out[key] = statistics.median(times)
print(json.dumps(out))
"""


def torchfix_times(python: str | None, cell_repeat: int, nb_repeat: int) -> dict[str, float] | str:
    texts = {"cell": [CELL], "notebook": [src for _, src in notebook_cells() if not src.startswith(("%%", "!"))]}
    try:
        import torchfix  # noqa: F401

        python = python or sys.executable
    except ImportError:
        if python is None:
            return "TorchFix is not installed (pip install torchfix in its own venv, then --torchfix-python)"
    proc = subprocess.run(
        [python, "-c", TORCHFIX_CODE % (cell_repeat, nb_repeat)],
        input=json.dumps(texts),
        capture_output=True,
        text=True,
        timeout=600,
    )
    if proc.returncode != 0:
        return f"TorchFix failed: {proc.stderr.strip().splitlines()[-1] if proc.stderr else proc.returncode}"
    return json.loads(proc.stdout)


def row_loop_cells(n: int) -> list[str]:
    """A notebook of ``n`` cells with one pandas row loop each (AIP301, a preview rule), after one
    cell that makes the frame."""
    loops = [f"for idx, row in df.iterrows():\n    df.loc[idx, 'c{i}'] = row['a'] * row['b']\n" for i in range(n)]
    return ["import pandas as pd\ndf = pd.read_csv('sales.csv')\n", *loops]


def notebook_json(sources: list[str]) -> str:
    cells = [{"cell_type": "code", "id": f"c{i}", "metadata": {}, "execution_count": None, "outputs": [],
              "source": src} for i, src in enumerate(sources)]
    return json.dumps({"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": cells})


def lint_run(path: Path, *flags: str) -> tuple[float, int]:
    """Wall time and peak memory (bytes) of one ``aiperf lint`` process."""
    cmd = [sys.executable, "-m", "aiperf_magic", "lint", str(path), "--exit-zero", *flags]
    t0 = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, _, usage = os.wait4(proc.pid, 0)
    proc.returncode = 0  # reaped above
    return time.perf_counter() - t0, usage.ru_maxrss * 1024


def preview_scaling(cells: int, repeat: int) -> list[str]:
    """``aiperf lint`` and ``--preview`` side by side (interleaved, medians) on a notebook of row
    loops, and on the same loops as one module at two sizes, with each process's peak memory."""
    import tempfile

    out = []
    with tempfile.TemporaryDirectory() as tmp:
        cases = []
        for n in (cells // 2, cells):
            nb = Path(tmp) / f"loops{n}.ipynb"
            nb.write_text(notebook_json(row_loop_cells(n)))
            cases.append((f"{n:,}-cell notebook", nb))
        for n in (cells // 2, cells * 2):  # 5,000 and 20,000 lines for the default 5,000
            module = Path(tmp) / f"loops{n}.py"
            module.write_text("".join(row_loop_cells(n)))
            cases.append((f"{module.read_text().count(chr(10)):,}-line module ({module.stat().st_size / 1e6:.2f} MB)",
                          module))
        for label, path in cases:
            runs: dict[str, list[tuple[float, int]]] = {"": [], "--preview": []}
            for _ in range(repeat):
                for flag, results in runs.items():
                    results.append(lint_run(path, *([flag] if flag else [])))
            (plain, plain_rss), (preview, preview_rss) = (
                (statistics.median(t for t, _ in r), max(m for _, m in r)) for r in runs.values()
            )
            out.append(
                f"aiperf lint on a {label}: default rules {plain:.2f} s ({plain_rss / 2**20:.0f} MiB peak), "
                f"--preview {preview:.2f} s ({preview_rss / 2**20:.0f} MiB), {preview / plain:.2f}x"
            )
    return out


def lint_times(text: str, repeat: int) -> tuple[float, float]:
    """Whole ``aiperf lint`` commands on one file, plain and with ``--diff``, interleaved."""
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "big.py"
        path.write_text(text)
        base = [sys.executable, "-m", "aiperf_magic", "lint", str(path), "--exit-zero", "--preview"]
        plain, diff = [], []
        for _ in range(repeat):
            for cmd, out in ((base, plain), ([*base, "--diff"], diff)):
                t0 = time.perf_counter()
                subprocess.run(cmd, capture_output=True, check=False)
                out.append(time.perf_counter() - t0)
    return statistics.median(plain), statistics.median(diff)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=200, help="runs of the 30-line cell")
    parser.add_argument("--notebook-repeat", type=int, default=7, help="runs of the 200-cell notebook")
    parser.add_argument("--torchfix-python", help="a Python interpreter that has torchfix installed")
    parser.add_argument("--lint-cells", type=int, default=5000, help="cells of the row-loop notebook for --preview")
    parser.add_argument("--lint-repeat", type=int, default=3, help="runs of each lint command, interleaved")
    parser.add_argument("--lint-only", action="store_true", help="only the default-vs-preview lint runs")
    args = parser.parse_args()
    for line in preview_scaling(args.lint_cells, args.lint_repeat):
        print(line, flush=True)
    if args.lint_only:
        return

    lines = CELL.count("\n")
    module = cst.parse_module(CELL)
    parse = median_time(lambda: cst.parse_module(CELL), args.repeat)
    wrapper = median_time(lambda: MetadataWrapper(module, unsafe_skip_copy=True).resolve(PositionProvider), args.repeat)
    positions = median_time(lambda: node_positions(module), args.repeat)
    parsed = parse_cell(CELL)
    facts = median_time(lambda: _collect(parsed, None, None), args.repeat)  # type: ignore[arg-type]

    def run_cell() -> object:
        return analyze(CELL, fixes=False)  # detection: what lint and auto mode run

    def run_cell_with_fixes() -> object:
        return analyze(CELL)  # what %%aiperf runs: every finding also gets its rewrite and diff

    cells = notebook_cells()

    def run_nb() -> object:
        return lint_cells("nb.ipynb", cells)

    cell = median_time(run_cell, args.repeat)
    with_fixes = median_time(run_cell_with_fixes, max(5, args.repeat // 10))
    notebook = median_time(run_nb, args.notebook_repeat)
    findings = len(analyze(CELL))
    print(
        f"aiperf: {lines}-line cell ({findings} findings): {cell * 1e3:.2f} ms median wall, "
        f"{CPU_TIMES[run_cell] * 1e3:.2f} ms CPU; parts: libcst parse {parse * 1e3:.2f} ms, positions "
        f"{positions * 1e3:.2f} ms (MetadataWrapper would take {wrapper * 1e3:.2f} ms), "
        f"facts {facts * 1e3:.2f} ms"
    )
    print(f"aiperf: the same cell with every fix proposed (rewrite + diff per finding): {with_fixes * 1e3:.1f} ms")
    print(
        f"aiperf: {len(cells)}-cell notebook: {notebook * 1e3:.0f} ms median wall, "
        f"{CPU_TIMES[run_nb] * 1e3:.0f} ms CPU ({notebook / len(cells) * 1e3:.2f} ms per cell)"
    )
    for n in (100, 200):
        many = many_row_loops(n)
        found = analyze(many, select=["ALL"])
        detect_many = median_time(lambda: analyze(many, fixes=False, select=["ALL"]), 3)  # noqa: B023
        fix_many = median_time(lambda: analyze(many, select=["ALL"]), 3)  # noqa: B023
        print(
            f"aiperf: one cell with {len(found)} findings ({sum(f.fixable for f in found)} with a rewrite): "
            f"detection {detect_many * 1e3:.0f} ms, with every rewrite and diff {fix_many * 1e3:.0f} ms "
            f"(fix generation {(fix_many - detect_many) * 1e3:.0f} ms, {fix_many / detect_many:.1f}x)"
        )
    big = "\n".join(src for _, src in cells if not src.startswith(("%%", "!"))) + "\n" + many_row_loops(100)
    plain, diff = lint_times(big, 3)
    print(
        f"aiperf lint on a {big.count(chr(10))}-line file: plain {plain * 1e3:.0f} ms, "
        f"--diff {diff * 1e3:.0f} ms ({diff / plain:.1f}x)"
    )
    tf = torchfix_times(args.torchfix_python, args.repeat, args.notebook_repeat)
    if isinstance(tf, str):
        print(f"TorchFix: skipped: {tf}")
        return
    nb_torch = sum(1 for _, s in cells if not s.startswith(("%%", "!")))
    print(
        f"TorchFix (flake8 checker, all rules): 30-line cell {tf['cell'] * 1e3:.2f} ms, "
        f"{nb_torch} plain-Python cells of the notebook {tf['notebook'] * 1e3:.0f} ms"
    )
    print(
        f"ratio aiperf/TorchFix: cell {cell / tf['cell']:.2f}x, notebook {notebook / tf['notebook']:.2f}x "
        "(separate processes, medians; aiperf also transforms IPython syntax and runs 18 rules)"
    )


if __name__ == "__main__":
    main()
