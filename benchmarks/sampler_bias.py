"""Does the sampler give each line its share of the time? Cells with a pure-Python line and a line that
hands the GIL back (a sleep, a NumPy copy), under ``%%aiperf``, against the lines' own clocks.

    python benchmarks/sampler_bias.py                  # every cell, 5 runs each
    python benchmarks/sampler_bias.py --runs 3 --only "sleep and loop"

The sampling thread needs the GIL to read the cell's stack. When the cell's thread hands it back of
its own accord (a sleep, a NumPy copy, I/O), the sampler gets it at once; when Python code holds it,
the sampler waits up to the switch interval (5 ms). A tick due while Python code ran is therefore
taken at the next line that hands the GIL back, unless that Python code ran on past the switch
interval: samples crowd onto the lines that release the GIL. The reference is each line's own
``time.perf_counter`` total, from a copy of the cell whose loop body times each statement (the
copy's clock calls cost a few µs a pass, far below the lines' milliseconds). Printed: each line's
share of the loop's time by the reference and by ``%%aiperf`` (the median of the runs), and the
largest error in points of share.
"""

from __future__ import annotations

import argparse
import ast
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from overhead import time_cell  # noqa: E402

# name -> (setup, cell). The cell's last statement is a `for` loop; its body's lines are compared.
CELLS: dict[str, tuple[str, str]] = {
    "sleep and loop": (
        "import time\n",
        "total = 0\n"
        "for _ in range(150):\n"
        "    time.sleep(0.001)\n"
        "    for i in range(25_000): total += i\n",
    ),
    "copy and loop": (  # a grid update: copy the field (the GIL is handed back), then a Python loop over it
        "import numpy as np\nu = np.ones(1_000_000)\nv = np.ones(2_000)\n",
        "for _ in range(100):\n"
        "    un = u.copy()\n"
        "    for i in range(1, 2_000): v[i] = v[i] - 0.5 * (v[i] - v[i - 1])\n",
    ),
    "long loop, short sleep": (
        "import time\n",
        "total = 0\n"
        "for _ in range(40):\n"
        "    time.sleep(0.001)\n"
        "    for i in range(150_000): total += i\n",
    ),
    "sleep only": (
        "import time\n",
        "for _ in range(60):\n"
        "    time.sleep(0.004)\n"
        "    time.sleep(0.001)\n",
    ),
}


def instrumented(cell: str) -> tuple[str, list[int]]:
    """The cell with each statement of its last loop's body timed into ``_line_s[line]``."""
    tree = ast.parse(cell)
    loop = tree.body[-1]
    assert isinstance(loop, ast.For)
    lines = [stmt.lineno for stmt in loop.body]
    body: list[ast.stmt] = []
    for stmt in loop.body:
        body.extend(ast.parse("_t0 = _pc()").body)
        body.append(stmt)
        body.extend(ast.parse(f"_line_s[{stmt.lineno}] += _pc() - _t0").body)
    loop.body = body
    head = "from time import perf_counter as _pc\n_line_s = {" + ", ".join(f"{n}: 0.0" for n in lines) + "}\n"
    return head + ast.unparse(ast.fix_missing_locations(tree)) + "\n", lines


def shares(seconds: dict[int, float]) -> dict[int, float]:
    total = sum(seconds.values())
    return {line: s / total if total > 0 else 0.0 for line, s in seconds.items()}


class Before:
    """The sampler as it was: the user's switch interval kept, no dense start."""

    def __enter__(self) -> None:
        from aiperf_magic.measure import gil_switch, sampler

        self._saved = gil_switch.ENABLED, sampler.DENSE_S
        gil_switch.ENABLED, sampler.DENSE_S = False, 0.0

    def __exit__(self, *exc: object) -> None:
        from aiperf_magic.measure import gil_switch, sampler

        gil_switch.ENABLED, sampler.DENSE_S = self._saved


class Now:
    def __enter__(self) -> None:
        pass

    def __exit__(self, *exc: object) -> None:
        pass


MODES = {"before": Before, "now": Now}


def run(shell: Any, name: str, runs: int) -> dict[str, Any]:
    setup, cell = CELLS[name]
    time_cell(shell, setup)
    probe, lines = instrumented(cell)
    ref: dict[int, list[float]] = {n: [] for n in lines}
    got = {mode: {n: [] for n in lines} for mode in MODES}
    samples: dict[str, list[int]] = {mode: [] for mode in MODES}
    time_cell(shell, cell)  # warm-up
    for index in range(runs):
        time_cell(shell, probe)
        for line, share in shares(shell.user_ns["_line_s"]).items():
            ref[line].append(share)
        for mode in (list(MODES) if index % 2 else list(MODES)[::-1]):
            shell.user_ns.pop("_bias_report", None)
            with MODES[mode]():
                time_cell(shell, "%%aiperf --text --no-gpu --var _bias_report\n" + cell)
            report = shell.user_ns["_bias_report"]
            seen = {h.line: h.seconds for h in report.hotspots if h.line in lines}
            for line, share in shares({n: seen.get(n, 0.0) for n in lines}).items():
                got[mode][line].append(share)
            samples[mode].append(sum(h.samples for h in report.hotspots if h.line in lines))
    body = cell.splitlines()
    rows = [(n, body[n - 1].strip(), statistics.median(ref[n]),
             {mode: statistics.median(got[mode][n]) for mode in MODES}) for n in lines]
    return {"name": name, "rows": rows, "samples": {m: statistics.median(v) for m, v in samples.items()},
            "error": {m: max(abs(r - g[m]) for _, _, r, g in rows) for m in MODES}}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--only", action="append", choices=list(CELLS))
    args = parser.parse_args()
    from IPython.testing.globalipapp import get_ipython

    shell = get_ipython()
    shell.run_line_magic("load_ext", "aiperf_magic")
    print(f"Python {sys.version.split()[0]}, switch interval {sys.getswitchinterval() * 1e3:g} ms, "
          f"{args.runs} runs a cell (medians); share of the loop's time: reference / %%aiperf before / now "
          "(before: the user's switch interval kept and no dense start; the two alternate)")
    t0 = time.perf_counter()
    for name in args.only or list(CELLS):
        out = run(shell, name, args.runs)
        err, n = out["error"], out["samples"]
        print(f"\n{name}  (samples on these lines {n['before']:g} / {n['now']:g}; largest error "
              f"{100 * err['before']:.0f} / {100 * err['now']:.0f} points)")
        for line, text, ref, got in out["rows"]:
            print(f"  line {line}: {100 * ref:5.1f} % / {100 * got['before']:5.1f} % / {100 * got['now']:5.1f} %"
                  f"   {text[:56]}")
    print(f"\n({time.perf_counter() - t0:.0f} s)")


if __name__ == "__main__":
    main()
