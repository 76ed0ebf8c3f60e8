"""The same file read again at every call (AIP105 from the run).

A helper that opens its resource inside itself (``with open("stopwords.txt") as f: stop =
set(f.read().split())``) and is handed to ``apply`` reads the file once per row. The run says the
line that opens or reads the file took a real share of the cell; the code says the path depends on
nothing the call or the loop changes (a literal, a global, a path joined from them); the cell says
how many times the function ran (the rows of what ``apply``/``map`` walked, or the iterations of
the loop that calls it) or how many times the loop holding the read ran.
"""

from __future__ import annotations

import libcst as cst

from ... import units as fmt
from ...cell.tree import assigned_names, walk_all
from ...sizing import kind
from ..evidence import loop_iterations
from ..facts import Call, Loop, Scope
from .run import Explained, Run
from .sites import APPLIERS, Site, counts

READERS = frozenset({"builtins.open", "io.open", "pandas.read_csv", "pandas.read_table", "pandas.read_json",
                     "pandas.read_parquet", "pandas.read_excel", "pandas.read_pickle", "numpy.load", "numpy.loadtxt",
                     "numpy.genfromtxt", "pandas.read_feather", "pandas.read_hdf", "zipfile.ZipFile", "tarfile.open",
                     "gzip.open", "bz2.open", "lzma.open", "h5py.File"})
READ_METHODS = frozenset({"read_text", "read_bytes"})  # pathlib.Path's
PATH_CALLS = frozenset({"os.path.join", "pathlib.Path", "builtins.str", "os.fspath"})
MIN_READS = 100  # fewer reads of the same small file cost little
BATCH_ADVICE = ("Each batch read again from the top of the file (skiprows/nrows parse or skip every row before "
                "it): pd.read_csv(path, chunksize=n) reads the file once, n rows at a time")
# a read that took this share of the cell is costly each time: this many of the same file are too many
HEAVY_SHARE, MIN_HEAVY_READS = 0.5, 10
FIX_REASON = ("read the file once, outside the function or loop, and use what it made there; not written for you: "
              "later calls would no longer see changes to the file")


def file_reread(site: Site, run: Run) -> Explained | None:
    if not counts(site):
        return None
    for call in _openers(site):
        path = _path_of(call)
        if path is None:
            continue
        scope = _function(call.scope)
        # within a loop, what changes is what the loop binds; across calls, the parameters too
        fixed = _bound_names(None, call.loop) if call.loop is not None else _bound_names(scope, None)
        if not _constant_path(site, path, fixed):
            continue  # the path may name another file each time
        reads, per = _reads(site, run, scope, call.loop)
        if reads is None or reads < (MIN_READS if site.share < HEAVY_SHARE else MIN_HEAVY_READS):
            continue
        text = site.code.cell.code(path)
        block = _block_share(site, run, call)
        with_reading = (f"; with what is made of it, {block[0]} took {fmt.percent(block[1])} of the cell"
                        if block is not None and block[1] > site.share + 0.01 else "")
        evidence = (f"{run.took(site)}: {text} was opened and read again {reads:,} times, {per}, though its "
                    f"path does not change{with_reading}")
        at = call.node if site.code is run.cell else None
        batches = call.kwarg("skiprows") is not None or call.kwarg("nrows") is not None
        return Explained("AIP105", site, at, evidence, {"reads": reads}, at=at, fix_reason=FIX_REASON,
                         advice=BATCH_ADVICE if batches else None)
    return None


def archive_members(site: Site, run: Run) -> Explained | None:
    """``data["images"][i]`` in a loop, ``data`` a live ``np.load`` of an ``.npz`` archive: each access
    reads the member from the archive again (and decompresses it), the whole array for one item."""
    from .shapes import iterations

    loop = site.loop
    if loop is None or not counts(site):
        return None
    n = iterations(site, run)
    if n is None or n < (MIN_READS if site.share < HEAVY_SHARE else MIN_HEAVY_READS):
        return None
    hot = {h.line for h in site.lines}
    for node in walk_all(loop.node):
        if not (isinstance(node, cst.Subscript) and isinstance(node.value, cst.Name) and len(node.slice) == 1):
            continue
        index = node.slice[0].slice
        if not (isinstance(index, cst.Index) and isinstance(index.value, cst.SimpleString)):
            continue
        span = site.code.span(node)
        live = run.live(site, node.value.value)
        if span is None or span[0] not in hot or type(live).__name__ != "NpzFile":
            continue
        text = site.code.cell.code(node)
        evidence = (f"{run.took(site)}: {text} read from the .npz archive again at each of {n:,} iterations, "
                    "the whole array each time")
        return Explained("AIP105", site, node, evidence, {"reads": n}, at=node, advice=NPZ_ADVICE,
                         fix_reason=FIX_REASON)
    return None


NPZ_ADVICE = ("Each access to an .npz archive's member (data['images']) reads and decompresses the whole array "
              "again: take it once before the loop (images = data['images']) and index that")


def _openers(site: Site) -> list[Call]:
    """The calls on the site's hottest line, and the ``open(...)`` of the ``with`` blocks around
    them: ``table = pickle.load(fh)`` costs the reading of what ``with open(path) as fh`` opened."""
    calls = site.code.calls_on(site.hottest.line)
    cell = site.code.cell
    for call in list(calls):
        block = next((a for a in cell.ancestors(call.node) if isinstance(a, cst.With)), None)
        span = site.code.span(block) if block is not None else None
        if span is not None:
            calls += [c for c in site.code.calls_on(span[0]) if all(c is not k for k in calls)]
    return calls


def _path_of(call: Call) -> cst.BaseExpression | None:
    if call.qname in READERS:
        arg = call.positional(0) or call.kwarg("file") or call.kwarg("filepath_or_buffer") or call.kwarg("fname")
        return arg.value if arg is not None else None
    if call.method in READ_METHODS and call.receiver is not None and not call.node.args:
        return call.receiver
    return None


def _function(scope: Scope | None) -> Scope | None:
    while scope is not None and not isinstance(scope.node, cst.FunctionDef):
        scope = scope.parent
    return scope


def _bound_names(scope: Scope | None, loop: Loop | None) -> set[str]:
    """Names that may change from one call or iteration to the next: the function's parameters and
    locals, the loops' variables and what they assign."""
    out: set[str] = set()
    if scope is not None and isinstance(scope.node, cst.FunctionDef):
        out |= {p.name.value for p in scope.node.params.params} | assigned_names(scope.node.body)
    while loop is not None:
        out |= set(loop.targets) | assigned_names(loop.node)
        loop = loop.parent
    return out


def _constant_path(site: Site, node: cst.BaseExpression, bound: set[str]) -> bool:
    """A literal, a name or attribute not bound per call, or a path joined from such (``/``, ``+``,
    ``os.path.join``, ``Path(...)``, an f-string of them)."""
    if isinstance(node, (cst.SimpleString, cst.ConcatenatedString)):
        return True
    if isinstance(node, cst.Name):
        return node.value not in bound
    if isinstance(node, cst.Attribute):
        return _constant_path(site, node.value, bound)
    if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, (cst.Divide, cst.Add)):
        return _constant_path(site, node.left, bound) and _constant_path(site, node.right, bound)
    if isinstance(node, cst.FormattedString):
        parts = [p.expression for p in node.parts if isinstance(p, cst.FormattedStringExpression)]
        return all(_constant_path(site, p, bound) for p in parts)
    if isinstance(node, cst.Call):
        qname = site.code.facts.names.qname(node.func) if isinstance(node.func, (cst.Name, cst.Attribute)) else None
        return qname in PATH_CALLS and all(_constant_path(site, a.value, bound) for a in node.args)
    return False


def _reads(site: Site, run: Run, scope: Scope | None, loop: Loop | None) -> tuple[int | None, str]:
    """How many times the read ran, and per what: the loop holding it (its measured iterations), or
    the calls of the function holding it that the measured cell made."""
    if loop is not None:
        n = site.loop_count if site.loop is not None and site.loop.node is loop.node else None
        if n is None and site.code is run.cell:
            n = loop_iterations(loop.node, run.namespace)
        return n, "once per iteration of its loop"
    if scope is None or not isinstance(scope.node, cst.FunctionDef):
        return None, ""
    name = scope.node.name.value
    for call in run.cell.facts.calls:
        handed = any(isinstance(a.value, cst.Name) and a.value.value == name for a in call.node.args)
        if handed and call.method in APPLIERS and call.receiver is not None:
            rows = _rows_of(run, call.receiver)
            if rows is not None:
                walked = run.cell.cell.code(call.receiver)
                return rows, f"once per element of {walked} that {call.method} called {name} on"
        if isinstance(call.node.func, cst.Name) and call.node.func.value == name and call.loop is not None:
            n = loop_iterations(call.loop.node, run.namespace)
            if n is not None:
                return n, f"once per call of {name} from a loop of the cell"
    return None, ""


def _rows_of(run: Run, node: cst.BaseExpression) -> int | None:
    root = node
    while isinstance(root, (cst.Subscript, cst.Attribute)):
        root = root.value
    live = run.namespace.get(root.value) if isinstance(root, cst.Name) else None
    if kind(live) not in ("frame", "series"):
        return None
    try:
        return len(live)  # type: ignore[arg-type]
    except Exception:  # a subclass whose length fails
        return None


def _block_share(site: Site, run: Run, call: Call) -> tuple[str, float] | None:
    """The ``with open(...) as f:`` block's lines and their share of the cell (reading the handle
    is part of reading the file)."""
    cell = site.code.cell
    block = next((a for a in cell.ancestors(call.node) if isinstance(a, cst.With)), None)
    span = site.code.span(block) if block is not None else None
    if span is None:
        return None
    spots = run.report.hotspots if site.code is run.cell else [
        h for h in run.report.function_lines if h.file == site.hottest.file]
    share = min(1.0, sum(h.share for h in spots if span[0] <= h.line <= span[1]))
    if site.code is run.cell:
        lines = f"lines {run.report.cell_line(span[0])}-{run.report.cell_line(span[1])}"
    else:
        lines = f"lines {span[0]}-{span[1]}"
    return lines, share
