"""One write per item where one write for all of them does it (AIP402 from the run).

- **A transaction per item**: ``conn.commit()`` inside the loop that inserts, on a live connection of a
  database driver. Each commit waits until the database has written its journal to disk (SQLite
  syncs the file at every commit), so the loop runs at the disk's pace: 3,000 rows took 5.5 s.
- **The same file appended to per item**: ``pd.DataFrame([record]).to_csv(path, mode="a")`` or
  ``open(path, "a")`` in the loop, with a path the loop does not change: the file is opened, written
  and closed again for each item (and a frame built for each row).

The run says the lines doing it took most of the loop's time and how many items the loop walked;
the code says the call sits in the loop itself and, for a file, that its path does not change. Both
are told, not rewritten: moving the commit after the loop changes what a failure half-way leaves in
the database and what other connections see meanwhile, and one write at the end leaves nothing in
the file until the loop is done.
"""

from __future__ import annotations

import libcst as cst

from ..facts import Call, Loop
from .loading import DB_MODULES
from .rereads import _bound_names, _constant_path
from .run import MISSING, Explained, Run
from .sites import Site, counts

MIN_WRITES = 100  # fewer writes than this, one after another, cost little
WRITES_SHARE = 0.5  # of the loop's time, on the lines that write
COMMIT_ADVICE = ("A transaction per item: each commit waits for the database to write it to disk; insert the "
                 "items in one transaction (executemany, one commit after the loop)")
COMMIT_FIX = ("one commit after the loop changes what a failure half-way leaves in the database and what other "
              "connections see meanwhile: moved by hand")
APPEND_ADVICE = ("The same file opened, appended to and closed again for every item: collect the items and write "
                 "them once (one DataFrame and one to_csv, or one open and writelines)")
APPEND_FIX = ("one write after the loop leaves nothing in the file until the loop is done (and nothing if it fails "
              "half-way): written by hand")


def db_commits(site: Site, run: Run) -> Explained | None:
    found = _loop_of(site, run)
    if found is None:
        return None
    loop, n = found
    for call in loop.calls:
        if call.loop is not loop or call.method != "commit" or call.node.args \
                or not isinstance(call.receiver, cst.Name):
            continue
        live = run.live(site, call.receiver.value)
        module = type(live).__module__ if live is not MISSING else ""
        if not any(module == m or module.startswith(m + ".") for m in DB_MODULES) or _share(site, call) < WRITES_SHARE:
            continue
        driver = f"{call.receiver.value} ({module}.{type(live).__qualname__})"
        evidence = f"{run.took(site)}: {n:,} commits, one per item, each waiting for {driver} to write it to disk"
        return Explained("AIP402", site, call.node, evidence, {"writes": n}, at=call.node, advice=COMMIT_ADVICE,
                         fix_reason=COMMIT_FIX)
    return None


def file_appends(site: Site, run: Run) -> Explained | None:
    found = _loop_of(site, run)
    if found is None:
        return None
    loop, n = found
    fixed = _bound_names(None, loop)
    for call in loop.calls:
        path = _appended(site, call) if call.loop is loop else None
        if path is None or not _constant_path(site, path, fixed) or _share(site, call) < WRITES_SHARE:
            continue
        text = site.code.cell.code(path)
        evidence = f"{run.took(site)}: {text} opened, appended to and closed again {n:,} times, once per item"
        return Explained("AIP402", site, call.node, evidence, {"writes": n}, at=call.node, advice=APPEND_ADVICE,
                         fix_reason=APPEND_FIX)
    return None


def _loop_of(site: Site, run: Run) -> tuple[Loop, int] | None:
    from .shapes import iterations

    loop = site.loop
    if loop is None or not counts(site) or site.threads > 1:
        return None
    n = iterations(site, run)
    return (loop, n) if n is not None and n >= MIN_WRITES else None


def _appended(site: Site, call: Call) -> cst.BaseExpression | None:
    """The path a call appends to: ``x.to_csv(path, mode="a")``, ``open(path, "a")``."""
    if call.method == "to_csv":
        mode, path = call.kwarg("mode"), call.positional(0) or call.kwarg("path_or_buf")
    elif call.qname in ("builtins.open", "io.open"):
        mode, path = call.positional(1) or call.kwarg("mode"), call.positional(0) or call.kwarg("file")
    else:
        return None
    appends = mode is not None and isinstance(mode.value, cst.SimpleString) and "a" in mode.value.evaluated_value
    return path.value if appends and path is not None else None


def _share(site: Site, call: Call) -> float:
    """The share of the loop's time on the call's lines, or in the ``with`` block it opens."""
    span = site.code.span(call.node)
    block = next((a for a in site.code.cell.ancestors(call.node) if isinstance(a, cst.With)), None)
    if block is not None and call.qname in ("builtins.open", "io.open"):
        span = site.code.span(block) or span
    if span is None or site.seconds <= 0:
        return 0.0
    return sum(h.seconds for h in site.lines if span[0] <= h.line <= span[1]) / site.seconds
