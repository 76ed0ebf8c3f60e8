"""Text and HTML views of a :class:`~aiperf_magic.report.Comparison` (a before/after run of a fix)."""

from __future__ import annotations

from html import escape

from ..report import Comparison


def _secs(v: float | None) -> str:
    if v is None:
        return "-"
    return f"{v * 1e3:.3g} ms" if v < 1 else f"{v:.3g} s"


def _bytes(v: int | None) -> str:
    if v is None:
        return "-"
    for unit in ("B", "KiB", "MiB", "GiB"):
        if abs(v) < 1024 or unit == "GiB":
            return f"{v:.0f} {unit}" if unit == "B" else f"{v:.1f} {unit}"
        v /= 1024  # type: ignore[assignment]
    return str(v)


# below five runs of each the timing rule (verification/noise.py) only tells large differences apart
ENOUGH_RUNS = 5


def headline(c: Comparison) -> str:
    """One sentence: the verdict on the rewrite."""
    if c.blocked:
        return f"Not tried: {c.blocked}."
    if c.refused and c.refused.startswith("cancelled"):
        return f"Stopped: {c.refused}."
    if c.refused:
        return f"Not run: {c.refused}"
    if c.timed_out:
        return "The rewrite ran past its time limit and was stopped."
    if c.error:
        return "The rewrite raised an error (see the traceback); it is not an improvement."
    if not c.equal and not c.difference and not c.compared:  # never a vacuous yes, nor a "differ"
        return "Nothing observable was compared (no name, displayed result, output or exception): not called equal."
    if not c.equal:
        return "Results differ" + (f" ({c.difference})" if c.difference else "") + "; the rewrite is not accepted."
    if c.speedup is None:
        return "Results are equal; no timing was taken."
    if c.faster is None:  # a Comparison made without the timing rule (by hand, or kept from before it)
        if c.better:
            return f"Results are equal and the rewrite is {c.speedup:.1f}x faster."
        return f"Results are equal but the rewrite is slower ({c.speedup:.2f}x)."
    return "Results are equal" + timing_verdict(c) + "."


def timing_verdict(c: Comparison) -> str:
    """What the timing rule said, as the end of the headline (``faster``, ``slower``, no difference)."""
    s = c.speedup or 0.0
    if c.faster and c.speedup_low is not None:
        return f" and the rewrite is {s:.1f}x faster (at least {_x(c.speedup_low)}, beyond the runs' noise)"
    runs = f"{c.repeat} timed run{'s' if c.repeat != 1 else ''} of each"
    if c.speedup_low is None or c.speedup_high is None:
        return f"; too few timed runs to tell the times apart ({s:.2f}x from {runs})"
    if c.speedup_high < 1.0:
        return f" but the rewrite is slower ({s:.2f}x; at most {_x(c.speedup_high)}, beyond the runs' noise)"
    allow = f"the runs allow {_x(c.speedup_low)} to {_x(c.speedup_high)}"
    if c.repeat < ENOUGH_RUNS:
        return f"; too few timed runs to tell the times apart ({s:.2f}x from {runs}; {allow})"
    return f"; no measurable difference in time ({s:.2f}x; {allow})"


def interval(c: Comparison) -> str:
    """The speedup's interval, when the timing rule gave one: " (interval 2.91x to 4.10x)"."""
    if c.speedup_low is None or c.speedup_high is None:
        return ""
    return f" (interval {_x(c.speedup_low)} to {_x(c.speedup_high)})"


def _x(v: float) -> str:
    return f"{v:.2f}x" if v < 10 else f"{v:.0f}x"


def where(c: Comparison) -> str:
    """Where the trials ran, and how many times each version ran."""
    place = "in forked copies of the kernel" if c.isolation == "process" else "in this kernel (partial isolation)"
    if c.isolation == "process" and c.uncovered:  # no syscall filter or Landlock here: say it where it is seen
        place += " (partial isolation: " + "; ".join(c.uncovered) + " not covered)"
    return f"each version ran {c.runs} times {place}" if c.runs else f"trials {place}"


def rows(c: Comparison) -> list[tuple[str, str, str]]:
    mem = f"{c.memory_ratio:.2f}x" if c.memory_ratio is not None else "-"
    return [
        ("median", _secs(c.before_s), _secs(c.after_s)),
        ("p95", _secs(c.before_p95_s), _secs(c.after_p95_s)),
        ("peak memory", _bytes(c.before_peak_bytes), _bytes(c.after_peak_bytes) + f" ({mem})"),
    ]


def render_comparison_text(c: Comparison) -> str:
    title = " ".join(x for x in (c.finding_code or "", c.title) if x)
    out = [f"aiperf try {title}".rstrip(), headline(c)]
    if c.speedup is not None and not c.error and not c.refused:
        out.append(f"{'':<12} {'before':>12} {'after':>22}")
        out += [f"{name:<12} {b:>12} {a:>22}" for name, b, a in rows(c)]
        out.append(
            f"speedup {c.speedup:.2f}x{interval(c)}, median of {c.repeat} timed runs each; "
            f"equal: {'yes' if c.equal else 'no'}"
        )
        out.append(where(c))
    if c.error:
        out += ["", c.error.rstrip()]
    out += [f"- {n}" for n in c.notes]
    return "\n".join(out)


def render_comparison_html(c: Comparison) -> str:
    title = escape(" ".join(x for x in (c.finding_code or "", c.title) if x))
    colour = "#1a7f37" if c.better else "#b35900"
    parts = [
        f'<div class="aiperf-comparison"><div><b>aiperf try</b> {title}</div>',
        f'<div style="color:{colour}">{escape(headline(c))}</div>',
    ]
    if c.speedup is not None and not c.error and not c.refused:
        body = "".join(f"<tr><td>{escape(n)}</td><td>{escape(b)}</td><td>{escape(a)}</td></tr>" for n, b, a in rows(c))
        parts.append(f"<table><tr><th></th><th>before</th><th>after</th></tr>{body}</table>")
        parts.append(
            f"<div>speedup <b>{c.speedup:.2f}x</b>{escape(interval(c))}, median of {c.repeat} timed runs each; "
            f"equal: {'yes' if c.equal else 'no'}</div><div>{escape(where(c))}</div>"
        )
    if c.error:
        parts.append(f"<pre>{escape(c.error)}</pre>")
    if c.notes:
        parts.append("<ul>" + "".join(f"<li>{escape(n)}</li>" for n in c.notes) + "</ul>")
    parts.append("</div>")
    return "".join(parts)
