"""Sites in functions defined elsewhere: an earlier cell's helper, a method of the user's Dataset, a
function of the user's own module. ``Report.function_lines`` holds their hot lines in their own
file's numbering; their source comes from the line cache (where IPython keeps each cell's code),
parsed once per file with the same rules' facts. Each site found there is reported on the measured
cell's line that called into it (the ``via`` of that line), since that is the line of this cell that
costs; its rewrite belongs to the cell that defined the function.
"""

from __future__ import annotations

from collections.abc import Iterator

import libcst as cst

from ...report import Hotspot
from .run import Run
from .sites import Site, code_of_file, counts, sites_of

MAX_FILES = 4  # files parsed per cell: the hottest ones (parsing costs milliseconds per file)


def helper_sites(run: Run) -> Iterator[tuple[Site, Hotspot | None]]:
    """Sites of functions defined elsewhere, hottest first, each with the measured cell's line that
    called into it (None when no line of the cell did: a thread of an earlier cell)."""
    by_file: dict[str, list[Hotspot]] = {}
    for h in run.report.function_lines:
        if h.file:
            by_file.setdefault(h.file, []).append(h)
    hottest = sorted(by_file.items(), key=lambda kv: -max(h.share for h in kv[1]))[:MAX_FILES]
    for file, lines in hottest:
        if max(h.share for h in lines) < 0.1:
            continue
        code = code_of_file(file, run.namespace, lines[0].where)
        if code is None:
            continue
        for site in sites_of(code, lines):
            if counts(site):
                yield site, caller_of(run, site)


def top_function(label: str | None) -> str:
    """``sum_of_lists.<locals>.<listcomp>`` -> ``sum_of_lists``; ``Patches.__getitem__`` stays."""
    return (label or "").split(".<locals>")[0]


def caller_of(run: Run, site: Site) -> Hotspot | None:
    """The measured cell's hot line whose time went through the site's function."""
    function = top_function(site.hottest.function)
    callers = [h for h in run.report.hotspots if any(top_function(v) == function for v in h.via)]
    if not callers:
        # reached through library code (a DataLoader calling a Dataset's __getitem__): the cell line
        # that spent the most time in user functions of the same file
        same_file = {top_function(h.function) for h in run.report.function_lines if h.file == site.hottest.file}
        callers = [h for h in run.report.hotspots if any(top_function(v) in same_file for v in h.via)]
    if not callers:
        callers = handed_over(run, function)
    return max(callers, key=lambda h: h.seconds) if callers else None


def handed_over(run: Run, function: str) -> list[Hotspot]:
    """The cell's hot lines that hand the function to library code that calls it
    (``df["review"].apply(remove_stopwords)``, ``pool.map(work, chunks)``,
    ``Thread(target=work)``): the sampler sees no user frame between them, so no ``via``."""
    leaf = function.split(".")[-1]
    lines = set()
    for call in run.cell.facts.calls:
        values = [a.value for a in call.node.args]
        if any(isinstance(v, cst.Name) and v.value == leaf for v in values):
            rng = run.cell.cell.user_range(call.node)
            if rng is not None:
                lines.add(rng[0])
    return [h for h in run.report.hotspots if h.line in lines]
