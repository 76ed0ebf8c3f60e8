"""Short cells under ``%%aiperf`` at several sampling intervals: the samples each run got, its
verdict, and the time the whole call took beside the plain cell.

    python benchmarks/real_cells/cell_interval.py NAME [NAME ...] [--repeat 5] [--intervals 20,5,2]

A cell of 0.1 s sampled every 20 ms gets a handful of samples, too few for a verdict (it needs 5);
this says what a shorter interval would give such cells and what it would cost. One kernel (NumPy,
pandas and torch loaded, torch on one thread) runs each cell's setup, then the plain cell and
``%%aiperf --interval MS`` for each interval, alternating the order from one repeat to the next;
the medians are printed.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from cell_labels import CELLS, read_cell  # noqa: E402
from cell_worker import new_shell, run  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="+")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--intervals", default="20,5,2", help="milliseconds, comma-separated")
    args = parser.parse_args()
    intervals = [float(ms) for ms in args.intervals.split(",")]
    for module in ("numpy", "pandas", "torch"):
        __import__(module)
    import torch

    torch.set_num_threads(1)
    os.chdir(tempfile.mkdtemp(prefix="aiperf-interval-"))
    shell = new_shell()
    state = shell._aiperf_magics.state
    heads = " ".join(f"{ms:>6g}ms" for ms in intervals)
    print(f"{'cell':<38} {'plain':>7} {heads}   samples   verdicts")
    for name in args.names:
        cell = read_cell(CELLS / f"{name}.py")
        shell.run_line_magic("reset", "-f")
        run(shell, cell.setup)
        run(shell, cell.source)  # warm-up
        times: dict[float | str, list[float]] = {"plain": [], **{ms: [] for ms in intervals}}
        samples: dict[float, list[int]] = {ms: [] for ms in intervals}
        verdicts: dict[float, Counter[str]] = {ms: Counter() for ms in intervals}
        for r in range(args.repeat):
            modes: list[float | str] = ["plain", *intervals]
            for mode in modes if r % 2 == 0 else modes[::-1]:
                code = cell.source if mode == "plain" else f"%%aiperf --interval {mode:g}\n{cell.source}"
                seconds, error = run(shell, code)
                if error:
                    raise SystemExit(f"{name}: {error}")
                times[mode].append(seconds)
                if isinstance(mode, float):
                    report = state.last_report
                    samples[mode].append(sum(h.samples for h in report.hotspots))
                    verdicts[mode][report.verdict.code if report.verdict else "none"] += 1
        cols = " ".join(f"{statistics.median(times[ms]):8.3f}" for ms in intervals)
        got = "/".join(str(int(statistics.median(samples[ms]))) for ms in intervals)
        said = "/".join(verdicts[ms].most_common(1)[0][0] for ms in intervals)
        print(f"{name:<38} {statistics.median(times['plain']):7.3f} {cols}   {got:<9} {said}", flush=True)
        if cell.teardown.strip():
            run(shell, cell.teardown)


if __name__ == "__main__":
    main()
