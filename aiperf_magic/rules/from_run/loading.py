"""Why a site cost what it did, continued: batches loaded in the main process (AIP101), pure Python
in threads (AIP401) and blocking calls one after another (AIP402), in a loop or in ``apply``.

These traps spend their time away from the line a static rule flags: a ``DataLoader(...)`` line
costs nothing, the loop that iterates the loader pays for every ``__getitem__`` and collation; a
``Thread(...)`` line costs nothing, the threads' lines take turns holding the GIL. The run says
which loader a loop iterated and what its batches cost, which lines ran in several threads, which
waits were sockets. The finding sits on the loop where the time went; the fix still goes to the
line that makes the loader or the threads, when the cell holds it.
"""

from __future__ import annotations

import libcst as cst

from ... import units as fmt
from ...report import Report
from ...sizing import kind
from ..data_loading.datasets import COSTLY, live_cost
from ..facts import Call, Loop, unwrap_iterable
from .callees import LOADER_CALLEES, READ_CALLEES, is_network
from .run import MISSING, Explained, Run
from .shapes import receiver_rows, work_shares
from .sites import APPLIERS, Site, counts

LOADING_SHARE = 0.15  # of the cell, spent getting the next batch
USER_WORK_SHARE = 0.1  # of the cell, in the dataset's own Python (``__getitem__``, a collate_fn)
# a dataset that fetches a whole batch in one call (``__getitems__``, as Hugging Face datasets do) is worth
# workers only when that call is a real part of the cell
BATCHED_WORK_SHARE = 0.3
FULL_MACHINE = 0.9  # the cell and other processes used this share of the machine's CPUs
CPU_WAIT_SHARE = 0.3  # the cell's threads waited in the run queue this share of its wall time (summed)
GIL_CORES = 1.4  # threads of pure Python that together used under this many cores took turns
WAIT_SHARE = 0.5  # of the site's samples, in a socket or HTTP call
MIN_REQUESTS = 4
IDLE_CORES = 0.3  # a process this idle while it read was waiting, not parsing


# -- AIP101 ---------------------------------------------------------------------------------------
def loader_loop(site: Site, run: Run) -> Explained | None:
    loop = site.loop
    if loop is None or loop.kind != "for":
        return None
    header = next((h for h in site.lines if h.line == site.first), None)
    if header is None:
        return None
    if sum(n for label, n in header.callees.items() if label.startswith(LOADER_CALLEES)) < 0.5 * header.samples:
        return None
    own, parts = dataset_work(run.report)
    loading = loading_share(header.share, run.report)
    if loading < LOADING_SHARE:
        return None
    name = _iterated_name(site, loop)
    loader = run.live(site, name) if name else MISSING
    workers = getattr(loader, "num_workers", None) if loader is not MISSING else None
    text = site.described(name) if name else None
    if workers is None and text is not None and "num_workers=0" in text:
        workers = 0
    if workers != 0:
        return None
    dataset = getattr(loader, "dataset", None) if loader is not MISSING else None
    if dataset is not None and hasattr(type(dataset), "__getitems__") and own < BATCHED_WORK_SHARE:
        return None  # one fetch per batch (__getitems__), cheap: a worker would add the batch's trip between processes
    advice = fix_reason = None
    if own < USER_WORK_SHARE:
        # no measured Python of the user's per sample: only a dataset known to decode or read (a
        # torchvision one) is worth workers; tensors in memory (TensorDataset) are one indexing each
        samples = _tensor_samples(dataset, getattr(loader, "batch_size", None))
        if samples is not None:
            # a Python list of per-sample tensors: each batch is indexed item by item and stacked;
            # the tensors it came from can be sliced instead, and workers would only move the stacking
            parts, advice, fix_reason = [samples], LIST_ADVICE, LIST_FIX
        elif dataset is None or live_cost(dataset) != COSTLY:
            return None
        else:
            parts = [f"{type(dataset).__name__} reads and decodes each sample"]
    batches = f" for {site.loop_count:,} batches" if site.loop_count else ""
    where = "; ".join(parts)
    line = run.report.cell_line(header.line) if site.code is run.cell else header.line
    evidence = (f"{run.took(site)}; getting the batches (line {line}) took {fmt.percent(loading)} of the cell, "
                f"in the main process{batches} ({name}: num_workers=0): {where}")
    numbers = {"loading_share": round(loading, 4), "user_work": round(own, 4)}
    return Explained("AIP101", site, None, evidence, numbers, advice=advice, fix_reason=fix_reason)


# AIP101's message and refusal where the loader walks a Python list of tensors already in memory
LIST_ADVICE = ("DataLoader over a Python list of tensors: each batch indexes its samples one by one and stacks "
               "them; slice each batch from the stacked tensors instead (x[i:i + batch_size])")
LIST_FIX = ("slicing needs one tensor holding all the samples, which the loop does not have: stack the list once "
            "before the loop (torch.stack), or slice the tensors it was made from")


def _tensor_samples(dataset: object, batch_size: object) -> str | None:
    """"each of its batches indexes 256 items of a list of 12,396 (Tensor, Tensor) pairs and stacks
    them": a list or tuple of per-sample tensors (or tuples of them), batched; None otherwise."""
    if not isinstance(dataset, (list, tuple)) or not dataset or not isinstance(batch_size, int) or batch_size < 2:
        return None
    first = dataset[0]
    items = first if isinstance(first, (tuple, list)) else (first,)
    if not items or not all(kind(x) == "tensor" for x in items):
        return None
    what = f"({', '.join('Tensor' for _ in items)}) {'pairs' if len(items) == 2 else 'tuples'}" if isinstance(
        first, (tuple, list)) else "tensors"
    return (f"each batch indexed {batch_size:,} items of a {type(dataset).__name__} of {len(dataset):,} {what} "
            f"one by one and stacked them")


def _iterated_name(site: Site, loop: Loop) -> str | None:
    it = unwrap_iterable(site.code.facts, loop.iter)
    return it.value if isinstance(it, cst.Name) else None


def loading_share(header: float, report: Report) -> float:
    """What getting the batches cost, as a share of the cell: the loop header's samples (in
    ``__next__``) and those of the user's per-sample code the loader ran (a ``__getitem__``, a
    collate function), which the sampler gives to those lines, not to the header."""
    return min(1.0, header + dataset_work(report)[0])


def dataset_work(report: Report) -> tuple[float, list[str]]:
    """The share of the cell spent in the user's dataset methods and collate functions, by function."""
    by_function: dict[str, float] = {}
    where: dict[str, str] = {}
    for h in report.function_lines:
        function = h.function or ""
        if not _per_sample(function):
            continue
        by_function[function] = by_function.get(function, 0.0) + h.own_seconds / max(report.wall_s, 1e-9)
        where[function] = h.where or ""
    total = sum(by_function.values())
    parts = [f"{fn} ({where[fn]}) {fmt.percent(min(1.0, s))}" for fn, s in
             sorted(by_function.items(), key=lambda kv: -kv[1])[:3]]
    return min(1.0, total), parts


def _per_sample(function: str) -> bool:
    """A dataset's ``__getitem__``/``__getitems__``, a collate function, a transform's ``__call__``."""
    leaf = function.split(".")[-1]
    return leaf in ("__getitem__", "__getitems__", "__call__") or "collate" in leaf or "transform" in leaf


# -- AIP401 ---------------------------------------------------------------------------------------
def cpu_threads(site: Site, run: Run) -> Explained | None:
    if site.threads < 2 or not counts(site) or work_shares(site).get("python", 0.0) < 0.6:
        return None
    cores = run.report.cpu_s / run.wall_s if run.wall_s > 0 else 0.0
    if cores > GIL_CORES:
        return None  # the threads ran in parallel: they are not waiting for the GIL
    if _waited_for_cpus(run):
        return None  # one core was what other processes left them: that is not turns at the GIL
    evidence = (f"{run.took(site)}: pure Python, so the threads took turns holding the GIL "
                f"(the process used {cores:.1f} cores)")
    return Explained("AIP401", site, None, evidence, {"threads": site.threads, "process_cores": round(cores, 2)})


def _waited_for_cpus(run: Run) -> bool:
    """The machine had no core to spare and the cell's threads spent a good part of the cell ready to
    run, in the run queue: threads waiting for the GIL sleep on it instead, so they do not show there."""
    r = run.report
    if not r.wall_s or r.other_cpu_s is None or not r.machine_cores or r.cell_cpu_wait_s is None:
        return False
    full = (r.cpu_s + r.other_cpu_s) / r.wall_s >= FULL_MACHINE * r.machine_cores
    return full and r.cell_cpu_wait_s / r.wall_s >= CPU_WAIT_SHARE


# -- AIP402 ---------------------------------------------------------------------------------------
def blocking_io(site: Site, run: Run) -> Explained | None:
    loop = site.loop
    if loop is None or not counts(site) or site.threads > 1:
        return None
    cores = run.report.cpu_s / run.wall_s if run.wall_s > 0 else 1.0
    if _waits(site, reads=cores < IDLE_CORES) < WAIT_SHARE:
        return None
    n = site.loop_count
    if cores >= 0.5 or (n is not None and n < MIN_REQUESTS) or _paced(loop):
        return None
    from ..concurrency.blocking_io import chained_requests  # the static rule's own test

    if chained_requests(loop):
        return None  # each request needs the last response (a cursor): no pool can send them together
    requests = f", {n:,} requests one after another" if n else ""
    evidence = f"{run.took(site)} waiting on the network{requests}; the process's CPU was {cores:.0%} busy"
    return Explained("AIP402", site, loop.node, evidence, {"requests": n})


def blocking_apply(site: Site, run: Run) -> Explained | None:
    """``df["id"].apply(lambda i: requests.get(...).json())``: pandas calls the function once per
    element, each call a request that waits for its answer before the next is sent. The run shows
    the waits on the ``apply`` line (or its lambda's); the rows say how many requests."""
    if not counts(site) or site.threads > 1:
        return None
    cores = run.report.cpu_s / run.wall_s if run.wall_s > 0 else 1.0
    if cores >= 0.5 or _waits(site, reads=False) < WAIT_SHARE:
        return None
    line = site.hottest.line
    for call in site.code.calls_on(line) + site.code.calls_around(line):
        if call.method not in APPLIERS or call.receiver is None or not call.node.args:
            continue
        root, rows = receiver_rows(site, run, call.receiver)
        if rows is not None and rows < MIN_REQUESTS:
            continue
        each = f"{rows:,} requests, one per row of {root}" if rows is not None else f"one request per row of {root}"
        evidence = (f"{run.took(site)} waiting on the network: {call.method} sent {each}, each after the last "
                    f"had answered; the process's CPU was {cores:.0%} busy")
        # the fixer maps the function over a thread pool (see concurrency/blocking_io.py), or says why not
        return Explained("AIP402", site, call.node, evidence, {"requests": rows}, at=call.node)
    return None


# DB-API drivers (and pandas' SQL readers) whose calls run one statement each
DB_MODULES = ("sqlite3", "psycopg2", "psycopg", "pymysql", "MySQLdb", "mysql.connector", "duckdb", "sqlalchemy",
              "pyodbc", "cx_Oracle", "oracledb", "snowflake.connector")
DB_METHODS = frozenset({"execute", "exec_driver_sql"})
SQL_READERS = frozenset({"pandas.read_sql", "pandas.read_sql_query"})
MIN_QUERIES = 100  # fewer queries than this, one after another, cost little whatever the database
QUERY_ADVICE = ("A database query per item: each call sends and runs one statement for one row; one query for "
                "all the items (a JOIN, WHERE id IN (...), or the table read once and merged) does it at once")
QUERY_FIX = ("the single query depends on the tables and the rows wanted (a JOIN or WHERE id IN (...)): it is "
             "written by hand, and a thread pool would share one connection between threads")


WRITE_ADVICE = ("The same INSERT, UPDATE or DELETE sent once per row: executemany(sql, rows) sends every row in one "
                "call (or DataFrame.to_sql, or the database's bulk load)")


def _writes(statement: cst.BaseExpression) -> bool:
    """A literal statement that writes rows (``INSERT INTO ...``), not a query that reads them."""
    text = statement.evaluated_value if isinstance(statement, cst.SimpleString) else None
    return isinstance(text, str) and text.lstrip().split(" ", 1)[0].upper() in ("INSERT", "UPDATE", "DELETE",
                                                                                 "REPLACE")


def db_queries(site: Site, run: Run) -> Explained | None:
    """``for pid in ids: cur.execute("SELECT ... WHERE id = ?", (pid,)).fetchone()``: the same statement
    sent once per item (the N+1 queries shape), on a live connection or cursor of a database driver,
    or ``pd.read_sql`` per item. Whether the database is remote (waits) or in the process (its own
    CPU), the statements go one at a time."""
    from .shapes import iterations

    loop = site.loop
    if loop is None or not counts(site) or site.threads > 1:
        return None
    hot = {h.line for h in site.lines if h.share >= 0.5 * site.share / max(1, len(site.lines))}
    n = iterations(site, run)
    if n is None or n < MIN_QUERIES:
        return None
    from ..concurrency.blocking_io import chained_requests

    if chained_requests(loop):
        return None  # each query needs the last one's answer: they cannot be one query
    for call in loop.calls:
        span = site.code.span(call.node)
        if call.loop is not loop or span is None or span[0] not in hot or not call.node.args:
            continue
        driver = _driver(site, run, call)
        if driver is None or not _parameterised(call.node.args[0].value, call):
            continue
        writes = _writes(call.node.args[0].value)
        evidence = (f"{run.took(site)}: {n:,} {'statements' if writes else 'queries'} one after another, the same "
                    f"statement sent once per item through {driver}")
        return Explained("AIP402", site, call.node, evidence, {"requests": n}, at=call.node,
                         advice=WRITE_ADVICE if writes else QUERY_ADVICE, fix_reason=QUERY_FIX)
    return None


def _driver(site: Site, run: Run, call: Call) -> str | None:
    """"cur (sqlite3.Cursor)": the live connection or cursor a call runs a statement on, or the reader."""
    if call.qname in SQL_READERS:
        return call.qname.replace("pandas.", "pd.")
    if call.method not in DB_METHODS or not isinstance(call.receiver, cst.Name):
        return None
    live = run.live(site, call.receiver.value)
    module = type(live).__module__ if live is not MISSING else ""
    if not any(module == m or module.startswith(m + ".") for m in DB_MODULES):
        return None
    return f"{call.receiver.value} ({module}.{type(live).__qualname__})"


def _parameterised(statement: cst.BaseExpression, call: Call) -> bool:
    """The statement is a string written in the code with placeholders bound per call (``?``, ``%s``,
    ``:id`` and a parameters argument), or an f-string that formats a value into it."""
    if isinstance(statement, cst.FormattedString):
        return True
    if isinstance(statement, (cst.SimpleString, cst.ConcatenatedString)):
        return len(call.node.args) >= 2 or call.kwarg("params") is not None
    return False


def _waits(site: Site, *, reads: bool) -> float:
    """The share of the site's samples in network calls; with ``reads``, file readers too (a cell
    that mostly idled while ``read_csv`` ran was waiting for its bytes, from a server or a disk)."""
    prefixes = READ_CALLEES if reads else ()
    waits = sum(n for label, n in site.callees().items() if is_network(label) or label.startswith(prefixes))
    return waits / max(1, site.samples)


def _paced(loop: Loop) -> bool:
    return any(c.qname == "time.sleep" for c in loop.calls)
