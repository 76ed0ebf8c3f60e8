"""The timeline as one static SVG: CPU in cores, each core's load, resident memory and the GPUs.

The same picture serves the static HTML view (nbconvert, GitHub) and the panel, which shows it as
an image, so it carries no script and stays small: each series is reduced to at most ``POINTS``
points and the per-core heat map to ``COLUMNS`` columns, whatever the cell's length. Every label
is ours (numbers and fixed words), escaped all the same.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from html import escape

from .. import units as fmt
from ..report import Samples

MIN_SAMPLES = 10  # fewer samples have no shape worth a plot
POINTS = 200
COLUMNS = 100
BANDS = 16  # rows of the per-core map at most
WIDTH = 900
LEFT, RIGHT = 70, 170  # room for the axis labels, and for the legend and colour bar
TITLE = 18  # each row's title sits above it
FONT = 'font-family="system-ui,sans-serif" font-size="14"'
PROCESS, MACHINE, MEMORY, GPU_UTIL, GPU_MEM = "#2563eb", "#cbd5e1", "#16a34a", "#f97316", "#9333ea"
BLUES = ["#f7fbff", "#deebf7", "#c6dbef", "#9ecae1", "#6baed6", "#4292c6", "#2171b5", "#08519c", "#08306b"]


@dataclass
class Timeline:
    svg: str | None  # None when the run is too short to plot
    caption: str
    samples: int
    summary: str  # "105 samples over 2.1 s"


def _unit(end: float) -> tuple[float, str]:
    if end >= 2 * 3600:
        return 3600.0, "hours"
    if end >= 2 * 60:
        return 60.0, "minutes"
    return 1.0, "seconds"


def _nice_step(span: float, ticks: int = 5) -> float:
    raw = span / max(1, ticks)
    if raw <= 0:
        return 1.0
    mag = 10 ** math.floor(math.log10(raw))
    return next(m * mag for m in (1, 2, 2.5, 5, 10) if m * mag >= raw)


def _buckets(n: int, count: int) -> list[range]:
    count = max(1, min(n, count))
    edges = [round(i * n / count) for i in range(count + 1)]
    return [range(a, b) for a, b in itertools.pairwise(edges) if b > a]


def _reduce(t: list[float], values: list[float | None], how: str = "mean") -> list[tuple[float, float]]:
    """At most POINTS (time, value) pairs: the mean (or max) of each bucket's present values."""
    out = []
    for rng in _buckets(len(t), POINTS):
        vals = [v for v in (values[i] for i in rng if i < len(values)) if v is not None]
        if vals:
            value = max(vals) if how == "max" else sum(vals) / len(vals)
            out.append((sum(t[i] for i in rng) / len(rng), float(value)))
    return out


class _Plot:
    """Rows stacked top to bottom on one shared time axis."""

    def __init__(self, t0: float, t1: float) -> None:
        self.t0, self.span = t0, (t1 - t0) or 1.0
        self.y = 8
        self.parts: list[str] = []
        self.inner = WIDTH - LEFT - RIGHT

    def x(self, t: float) -> float:
        return LEFT + (t - self.t0) / self.span * self.inner

    def frame(self, title: str, height: int, top: float, ticks: list[tuple[float, str]]) -> tuple[int, float]:
        """A row's title, box and y ticks; returns (the box's top, pixels per unit of value)."""
        p = self.parts
        p.append(f'<text x="{LEFT}" y="{self.y + 13}" font-weight="600">{escape(title)}</text>')
        y0 = self.y + TITLE
        scale = (height - 4) / top if top > 0 else 0.0
        p.append(f'<rect x="{LEFT}" y="{y0}" width="{self.inner}" height="{height}" fill="none" stroke="#d0d7de"/>')
        for value, label in ticks:
            yy = y0 + height - value * scale
            p.append(f'<line x1="{LEFT - 3}" x2="{LEFT + self.inner}" y1="{yy:.1f}" y2="{yy:.1f}" stroke="#eaeef2"/>')
            p.append(f'<text x="{LEFT - 5}" y="{yy + 4:.1f}" text-anchor="end" fill="#57606a">{escape(label)}</text>')
        self.y = y0 + height + 8
        return y0, scale

    def line(self, points: list[tuple[float, float]], y0: int, height: int, scale: float, colour: str,
             area: bool = False, dash: str = "") -> None:
        if not points:
            return
        coords = " ".join(f"{self.x(t):.1f},{y0 + height - v * scale:.1f}" for t, v in points)
        if area:
            base = y0 + height
            first, last = self.x(points[0][0]), self.x(points[-1][0])
            self.parts.append(f'<polygon fill="{colour}" points="{first:.1f},{base} {coords} {last:.1f},{base}"/>')
        else:
            extra = f' stroke-dasharray="{dash}"' if dash else ""
            self.parts.append(f'<polyline fill="none" stroke="{colour}" stroke-width="1.6"{extra} points="{coords}"/>')

    def legend(self, y0: int, items: list[tuple[str, str]]) -> None:
        x = WIDTH - RIGHT + 10
        for i, (colour, label) in enumerate(items):
            yy = y0 + 10 + 16 * i
            self.parts.append(f'<rect x="{x}" y="{yy - 8}" width="12" height="8" fill="{colour}"/>')
            self.parts.append(f'<text x="{x + 16}" y="{yy}">{escape(label)}</text>')


def _cpu_row(plot: _Plot, s: Samples, cores: int) -> None:
    height = 90
    ticks = [(0.0, "0")] + ([(cores / 2, f"{cores / 2:g}")] if cores >= 2 else []) + [(float(cores), str(cores))]
    y0, scale = plot.frame("CPU (cores)", height, float(cores), ticks)
    machine = [None if row is None else sum(row) / 100 for row in s.cpu_per_core]
    if any(v is not None for v in machine):
        plot.line(_reduce(s.t, machine), y0, height, scale, MACHINE, area=True)
    process = [None if v is None else min(v / 100, float(cores)) for v in s.cpu_percent]
    plot.line(_reduce(s.t, process), y0, height, scale, PROCESS)
    items = [(PROCESS, "this process")]
    if any(v is not None for v in machine):
        items.append((MACHINE, "all processes"))
    plot.legend(y0, items)


def _core_row(plot: _Plot, s: Samples, cores: int) -> None:
    # more than BANDS cores: neighbouring cores share a band (their mean), so the map stays readable
    # and its size bounded on a 128-core machine
    bands = min(cores, BANDS)
    per_band = math.ceil(cores / bands)
    bands = math.ceil(cores / per_band)
    height = max(42, min(160, 14 * bands))
    row_h = height / bands
    y0, _ = plot.frame("per core", height, float(height - 4), [])
    p = plot.parts
    step = max(1, math.ceil(bands / 8))
    for i in range(0, bands, step):
        first, last = i * per_band, min(cores, (i + 1) * per_band) - 1
        label = str(first) if first == last else f"{first}–{last}"
        yy = y0 + (i + 0.5) * row_h + 4
        p.append(f'<text x="{LEFT - 5}" y="{yy:.1f}" text-anchor="end" fill="#57606a">{label}</text>')
    # one path per shade; equal shades next to each other on a core's band merge into one run
    paths: dict[int, list[str]] = {}
    runs: list[tuple[int, float, float] | None] = [None] * bands  # (level, start x, end x) being drawn

    def close(band: int) -> None:
        run = runs[band]
        if run is not None and run[0] > 0:  # level 0 is the background, the idle colour
            level, a, b = run
            paths.setdefault(level, []).append(f"M{a:.1f} {y0 + band * row_h:.1f}h{b - a + 0.3:.1f}v{row_h:.1f}"
                                               f"h{a - b - 0.3:.1f}z")
        runs[band] = None

    for rng in _buckets(len(s.t), COLUMNS):
        x0 = plot.x(s.t[rng.start])
        x1 = plot.x(s.t[rng.stop]) if rng.stop < len(s.t) else LEFT + plot.inner
        rows = [row for i in rng if i < len(s.cpu_per_core) and (row := s.cpu_per_core[i])]
        for band in range(bands):
            vals = [v for r in rows for v in r[band * per_band : (band + 1) * per_band]]
            if not vals:
                close(band)
                continue
            level = min(len(BLUES) - 1, int(sum(vals) / len(vals) / 100 * len(BLUES)))
            run = runs[band]
            if run is not None and run[0] == level and abs(run[2] - x0) < 0.5:
                runs[band] = (level, run[1], x1)
            else:
                close(band)
                runs[band] = (level, x0, x1)
    for band in range(bands):
        close(band)
    for level, parts in sorted(paths.items()):
        p.append(f'<path fill="{BLUES[level]}" d="{"".join(parts)}"/>')
    # the colour bar: what the shades mean
    x = WIDTH - RIGHT + 10
    p.append(f'<text x="{x}" y="{y0 - 5}">% busy (all processes)</text>')
    for i, colour in enumerate(reversed(BLUES)):
        p.append(f'<rect x="{x}" y="{y0 + i * height / len(BLUES):.1f}" width="12" '
                 f'height="{height / len(BLUES) + 0.5:.1f}" fill="{colour}" stroke="#d0d7de" stroke-width="0.3"/>')
    p.append(f'<text x="{x + 16}" y="{y0 + 11}">100 %</text>')
    p.append(f'<text x="{x + 16}" y="{y0 + height}">0 %</text>')


def _size_ticks(top: float) -> tuple[list[tuple[float, str]], float]:
    """Round ticks for a byte axis (in KB, MB or GB, whichever suits), and the axis's top."""
    unit, name = next(((u, n) for u, n in ((1024.0**3, "GB"), (1024.0**2, "MB"), (1024.0, "KB"))
                       if top >= 2 * u), (1.0, "B"))
    step = _nice_step(top / unit, 3)
    count = math.ceil(top / unit / step)
    return [(k * step * unit, f"{k * step:g} {name}") for k in range(count + 1)], count * step * unit


def _memory_row(plot: _Plot, s: Samples) -> None:
    points = _reduce(s.t, [None if v is None else float(v) for v in s.rss_bytes], "max")
    ticks, top = _size_ticks(max((v for _, v in points), default=0.0) * 1.05 or 1.0)
    height = 80
    y0, scale = plot.frame("memory", height, top, ticks)
    plot.line(points, y0, height, scale, MEMORY)
    plot.legend(y0, [(MEMORY, "resident memory")])
    plot.parts.append(f'<text x="{WIDTH - RIGHT + 26}" y="{y0 + 26}" fill="#57606a">(RSS), this process</text>')


def _gpu_row(plot: _Plot, s: Samples, index: int) -> None:
    gpu = next(g for g in s.gpus if g.index == index)
    height = 80
    y0, scale = plot.frame(f"GPU {index} (%)", height, 100.0, [(0.0, "0"), (50.0, "50"), (100.0, "100")])
    plot.line(_reduce(s.t, list(gpu.util_percent)), y0, height, scale, GPU_UTIL)
    mem = [None if u is None or not tot else 100.0 * u / tot
           for u, tot in zip(gpu.mem_used_bytes, gpu.mem_total_bytes or [None] * len(gpu.mem_used_bytes),
                             strict=False)]
    items = [(GPU_UTIL, "utilisation")]
    if any(v is not None for v in mem):
        plot.line(_reduce(s.t, mem), y0, height, scale, GPU_MEM, dash="4 3")
        items.append((GPU_MEM, "memory (dashed)"))
    plot.legend(y0, items)


def _time_axis(plot: _Plot, t1: float) -> None:
    div, unit = _unit(t1)
    step = _nice_step((t1 - plot.t0) / div, 6)
    y = plot.y - 6
    k = math.ceil(plot.t0 / div / step)
    while k * step * div <= t1 + 1e-9:
        t = k * step * div
        x = plot.x(t)
        plot.parts.append(f'<line x1="{x:.1f}" x2="{x:.1f}" y1="{y}" y2="{y + 4}" stroke="#57606a"/>')
        plot.parts.append(f'<text x="{x:.1f}" y="{y + 17}" text-anchor="middle" fill="#57606a">{k * step:g}</text>')
        k += 1
    plot.parts.append(f'<text x="{LEFT + plot.inner / 2}" y="{y + 33}" text-anchor="middle">{escape(unit)}</text>')
    plot.y = y + 40


def _cores(s: Samples) -> int:
    return max((len(row) for row in s.cpu_per_core if row), default=0)


def caption(s: Samples, cores: int) -> str:
    parts = []
    if cores:
        parts.append(f"CPU in cores (0–{cores}): this process over all processes on the machine")
        parts.append("per core: how busy each core was, whatever ran on it")
    elif any(v is not None for v in s.cpu_percent):
        parts.append("CPU of this process in cores")
    if any(v is not None for v in s.rss_bytes):
        parts.append("memory: resident memory (RSS) of this process")
    if s.gpus:
        parts.append("GPU: utilisation and memory used, in % of the device")
    every = fmt.seconds(s.interval_s * max(1, s.downsampled))
    return "; ".join(parts) + f"; a sample every {every}."


def timeline(s: Samples) -> Timeline:
    """The samples as one SVG, or a note that the run was too short to plot."""
    n = len(s.t)
    span = (s.t[-1] - s.t[0]) if n > 1 else 0.0
    summary = f"{n} sample{'s' if n != 1 else ''} over {fmt.seconds(span)}"
    cores = _cores(s)
    if n < MIN_SAMPLES:
        return Timeline(None, "", n, summary)
    plot = _Plot(s.t[0], s.t[-1])
    if any(v is not None for v in s.cpu_percent):
        busiest = max((v for v in s.cpu_percent if v is not None), default=0.0) / 100
        _cpu_row(plot, s, cores or max(1, math.ceil(busiest)))
    if cores:
        _core_row(plot, s, cores)
    if any(v is not None for v in s.rss_bytes):
        _memory_row(plot, s)
    for gpu in s.gpus:
        if any(v is not None for v in gpu.util_percent):
            _gpu_row(plot, s, gpu.index)
    _time_axis(plot, s.t[-1])
    svg = (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {plot.y}" width="100%" '
           f'style="max-width:{WIDTH}px" {FONT} role="img" aria-label="timeline of the cell">'
           + "".join(plot.parts) + "</svg>")
    return Timeline(svg, caption(s, cores), n, summary)
