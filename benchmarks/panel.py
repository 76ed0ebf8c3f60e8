"""What does the panel cost: to build, in a notebook's saved state, and in a long-running kernel?

    python benchmarks/panel.py                # build time and state size, 50 to 20,000 samples
    python benchmarks/panel.py --cells 500    # ... and widget models and RSS kept per cell over 500 cells

Builds the panel (and, beside it, the static HTML view) for Reports whose timelines hold from 50 to
20,000 samples (a 1-second cell to the longest series the sampler keeps), with 4 cores and one GPU,
interleaving the sizes and repeating; prints medians and the size of the panel's JSON state.
``--cells N`` then runs N ``%%aiperf`` cells in a real kernel, with the panel and with ``--text``
side by side, and prints the widget models and kernel RSS each cell leaves behind
(``panel_retention.py``).
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from aiperf_magic.render.html import render_html  # noqa: E402
from aiperf_magic.render.panel.view import build_panel  # noqa: E402
from aiperf_magic.report import Comparison, GpuSeries, Report, Samples  # noqa: E402

SIZES = [50, 1_000, 5_000, 20_000]
REPEATS = 5


def make_report(n: int) -> Report:
    t = [i * 0.02 for i in range(n)]
    wave = [50 + 50 * math.sin(i / 25) for i in range(n)]
    samples = Samples(
        t=t,
        cpu_percent=wave,
        cpu_per_core=[[w, 100 - w, w / 2, 10.0] for w in wave],
        rss_bytes=[int(1e9 + 1e6 * i % 5e8) for i in range(n)],
        gpus=[GpuSeries(index=0, util_percent=wave, mem_used_bytes=[int(4e9)] * n, mem_total_bytes=[int(16e9)] * n)],
    )
    return Report(source="x = 1\n", cell_id="c", wall_s=t[-1], cpu_s=t[-1], samples=samples)


def fake_verify(*_a: object, **_k: object) -> Comparison:
    return Comparison(equal=True)


def build_times() -> None:
    times: dict[int, list[float]] = {n: [] for n in SIZES}
    html_times: dict[int, list[float]] = {n: [] for n in SIZES}
    reports = {n: make_report(n) for n in SIZES}
    for _ in range(REPEATS):
        for n in SIZES:  # interleaved, so machine noise hits every size alike
            start = time.perf_counter()
            panel = build_panel(reports[n], verify=fake_verify, namespace={})
            times[n].append(time.perf_counter() - start)
            start = time.perf_counter()
            render_html(reports[n])
            html_times[n].append(time.perf_counter() - start)
            panel.view.close()
    print(f"{'samples':>8} {'cell length':>12} {'panel (median)':>15} {'HTML view':>10} {'panel state':>12} "
          f"{'HTML view':>10}")
    for n in SIZES:
        panel = build_panel(reports[n], verify=fake_verify, namespace={})
        state = len(json.dumps({"data": panel.view.data, "ui": panel.view.ui}))
        html = len(render_html(reports[n]))
        print(
            f"{n:>8} {n * 0.02:>10.0f} s {statistics.median(times[n]) * 1e3:>12.1f} ms "
            f"{statistics.median(html_times[n]) * 1e3:>7.1f} ms {state / 1e3:>9.1f} KB {html / 1e3:>7.1f} KB"
        )
        panel.view.close()
    print("(the panel's script, sent once with each panel's state, is "
          f"{len(panel.view._esm) / 1e3:.1f} KB; its style {len(panel.view._css) / 1e3:.1f} KB)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--cells", type=int, default=0, help="also run this many %%%%aiperf cells in a kernel")
    args = parser.parse_args()
    build_times()
    if args.cells:
        from panel_retention import report

        report(args.cells)


if __name__ == "__main__":
    main()
