"""How long does building the panel take, and how big is its state, for short and long cells?

    python benchmarks/panel.py

Builds the widget panel (and, beside it, the static HTML view) for Reports whose timelines hold
from 50 to 20,000 samples (a 1-second cell to the sampler's longest kept series), with 4 cores
and one GPU, interleaving the sizes and repeating; prints medians and the timeline's JSON size.
"""

from __future__ import annotations

import json
import math
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

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
        gpus=[GpuSeries(index=0, util_percent=wave, mem_used_bytes=[int(4e9)] * n)],
    )
    return Report(source="x = 1\n", cell_id="c", wall_s=t[-1], cpu_s=t[-1], samples=samples)


def fake_verify(*_a: object, **_k: object) -> Comparison:
    return Comparison(equal=True)


def main() -> None:
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
            panel.view.close_all()
    print(f"{'samples':>8} {'cell length':>12} {'panel (median)':>15} {'HTML view':>10} {'timeline JSON':>14}")
    for n in SIZES:
        panel = build_panel(reports[n], verify=fake_verify, namespace={})
        size = len(json.dumps(panel.timeline.to_plotly_json(), default=str)) if panel.timeline else 0
        print(
            f"{n:>8} {n * 0.02:>10.0f} s {statistics.median(times[n]) * 1e3:>12.0f} ms "
            f"{statistics.median(html_times[n]) * 1e3:>7.1f} ms {size / 1e6:>11.2f} MB"
        )


if __name__ == "__main__":
    main()
