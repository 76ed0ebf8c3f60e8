"""Runtime evidence for a finding of ``%%aiperf``: the cell ran, so each trap can say what made it
matter, or that it did not.

Two measurements are at hand after the run: the sampled time of each line of the cell (the hot
lines), and the live objects the flagged code touched (rows of a frame, items of a list,
elements of an array or tensor). A trap whose lines took a negligible share of the run, on data
too small to make it matter, is kept in ``report.findings`` but not shown (``shown=False``, with
the reason); a preview rule's finding is shown only when the run gives it such evidence.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import libcst as cst

from ..cell.tree import walk_all
from ..report import Finding, Hotspot
from ..sizing import measure  # shared with the sampler, which must not load the rules

MIN_SHARE = 0.05  # of the run's sampled time: below it, the lines cost nothing worth a card
LARGE = {"rows": 10_000, "items": 10_000, "elements": 1_000_000}  # data sizes at which a trap bites


def line_time(hotspots: Sequence[Hotspot], first: int | None, last: int | None) -> tuple[float, float]:
    """Share of the run and seconds spent on the lines ``first``..``last``."""
    if first is None:
        return 0.0, 0.0
    end = last if last is not None else first
    share = sum(h.share for h in hotspots if first <= h.line <= end)
    seconds = sum(h.seconds for h in hotspots if first <= h.line <= end)
    return min(share, 1.0), seconds


def sizes(node: cst.CSTNode | None, namespace: Mapping[str, Any] | None) -> dict[str, int]:
    """The largest sizes of the live objects named in the flagged code."""
    out: dict[str, int] = {}
    if node is None or not namespace:
        return out
    seen: set[str] = set()
    for sub in walk_all(node):
        if isinstance(sub, cst.Name) and sub.value not in seen:
            seen.add(sub.value)
            if sub.value in namespace:
                kind, size = measure(namespace[sub.value])
                if kind is not None and size > out.get(kind, -1):
                    out[kind] = size
    return out


def weigh(
    finding: Finding,
    node: cst.CSTNode | None,
    hotspots: Sequence[Hotspot],
    namespace: Mapping[str, Any] | None,
    *,
    sampled: bool,
    wall_s: float,
) -> None:
    """Attach the evidence to ``finding`` and decide whether it is shown."""
    share, seconds = line_time(hotspots, finding.line, finding.end_line)
    found = sizes(node, namespace)
    finding.evidence = {"share": round(share, 4), "seconds": round(seconds, 6), **found}
    large = [f"{n:,} {kind}" for kind, n in found.items() if n >= LARGE[kind]]
    if not sampled:
        if finding.preview and not large:
            finding.shown = False
            finding.hidden_reason = "preview rule, and no line timing in this run to show that it matters"
        return
    if share >= MIN_SHARE or large:
        return
    data = ", ".join(f"{n:,} {kind}" for kind, n in found.items()) or "small data"
    what = "preview rule: shown only when the run shows it matters; " if finding.preview else ""
    finding.shown = False
    finding.hidden_reason = (
        f"{what}its lines took {share:.0%} of the {wall_s:.3g} s run ({data}): negligible here"
    )
