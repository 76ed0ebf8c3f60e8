"""AIP4xx: concurrency that cannot help (threads on CPU work) or that is missing (sequential I/O)."""

from __future__ import annotations

from collections.abc import Iterator

import libcst as cst

from ..facts import Call, Facts
from ..registry import Hit, rule
from ..symbols import PATH_LISTERS, THREAD_POOLS
from ..work import is_network_call, work_of_name

_POOL_METHODS = frozenset({"map", "submit", "apply_async", "imap", "imap_unordered", "starmap", "apply"})


def _pool_targets(facts: Facts, pool: Call) -> list[cst.BaseExpression]:
    """Functions handed to a thread pool: ``ex.map(f, ...)``, ``ex.submit(f, ...)``."""
    names = {n for n, s in facts.symbols.items() if s.node is pool.node}
    out: list[cst.BaseExpression] = []
    for call in facts.calls:
        on_pool = (isinstance(call.receiver, cst.Name) and call.receiver.value in names) or call.receiver is pool.node
        if on_pool and call.method in _POOL_METHODS and call.node.args:
            out.append(call.node.args[0].value)
    return out


@rule(
    "AIP401",
    "threads-for-cpu-work",
    "Threads running CPU-bound Python: the GIL lets one run at a time; use processes or NumPy",
    fixable=True,
)
def threads_for_cpu_work(facts: Facts) -> Iterator[Hit]:
    """
    ## What it does
    Flags `threading.Thread(target=f)` and `ThreadPoolExecutor` (`.map(f, ...)`,
    `.submit(f, ...)`) when `f` is a function of the notebook that loops in pure Python and
    does no I/O. Threads whose function calls `requests`, `open`, sockets or sleeps are fine.

    ## Why is this bad?
    CPython's global interpreter lock lets one thread run Python bytecode at a time, so CPU-bound
    threads take turns on one core, plus switching overhead. Processes each have their own
    interpreter. On this project's 2-core machine, shared with other jobs, four CPU-bound tasks
    took 1.60 s in a thread pool and 1.37 s in a process pool (another run: 0.98 s and 0.96 s,
    `benchmarks/traps/AIP401.py`): processes can only use the cores that are free, but their
    gain grows with them, while the threads' time does not shrink at all.

    ## Example
    ```python
    with ThreadPoolExecutor(max_workers=4) as pool:
        results = list(pool.map(count_primes, chunks))
    ```

    ## Use instead
    ```python
    with ProcessPoolExecutor(max_workers=4) as pool:
        results = list(pool.map(count_primes, chunks))
    ```

    ## Fix safety
    Unsafe: processes pickle the function and its arguments (functions defined in a notebook
    cannot be pickled under the `spawn` start method used on Windows and macOS), and they do
    not share memory with the notebook. Free-threaded Python builds (3.13t) remove the lock.

    ## References
    - Seed article, chapter 3.1 ("how the GIL limits multi-core use") and 3.2.
    """
    for call in facts.calls:
        if call.qname == "threading.Thread":
            arg = call.kwarg("target") or call.positional(1)
            if arg is not None and work_of_name(facts, arg.value) == "cpu":
                yield call.node
        elif call.qname in THREAD_POOLS and any(work_of_name(facts, f) == "cpu" for f in _pool_targets(facts, call)):
            yield call.node


_FILE_READERS = frozenset(
    {
        "builtins.open",
        "PIL.Image.open",
        "cv2.imread",
        "numpy.load",
        "pandas.read_csv",
        "pandas.read_parquet",
        "json.load",
        "torchvision.io.read_image",
    }
)


def _over_paths(facts: Facts, it: cst.BaseExpression | None) -> bool:
    """The loop walks file paths: ``glob.glob(..)``, ``os.listdir(..)``, ``Path.rglob(..)``."""
    while (
        isinstance(it, cst.Call)
        and it.args
        and facts.names.qname(it.func) in ("builtins.enumerate", "builtins.sorted", "tqdm.tqdm", "tqdm.auto.tqdm")
    ):
        it = it.args[0].value
    if isinstance(it, cst.Call):
        if facts.names.qname(it.func) in PATH_LISTERS:
            return True
        return isinstance(it.func, cst.Attribute) and it.func.attr.value in ("glob", "rglob", "iterdir")
    return facts.kind(it) == "paths" if isinstance(it, cst.Name) else False


def _is_file_read(call: Call) -> bool:
    return call.qname in _FILE_READERS or call.method in ("read_text", "read_bytes")


@rule(
    "AIP402",
    "sequential-blocking-io",
    "Blocking I/O one call after another in a loop: the loop mostly waits; run the calls concurrently",
    fixable=True,
)
def sequential_blocking_io(facts: Facts) -> Iterator[Hit]:
    """
    ## What it does
    Flags a loop that makes a blocking network call per iteration (`requests.get`,
    `urllib.request.urlopen`, `httpx.get`, a `requests.Session` method), or that reads one file
    per iteration while walking `glob`/`os.listdir`/`Path.rglob` results.

    ## Why is this bad?
    Each iteration waits for the network (or disk) before starting the next request; the CPU is
    idle meanwhile. The GIL is released while waiting, so a thread pool (or `asyncio`) keeps
    many requests in flight and total time approaches the slowest request instead of the sum.
    Fetching 32 URLs that each take 20 ms to answer took 695 ms in a loop and 58 ms with
    16 threads: 12x (`benchmarks/traps/AIP402.py`, a local server adds the latency).

    ## Example
    ```python
    pages = []
    for url in urls:
        pages.append(requests.get(url, timeout=10).text)
    ```

    ## Use instead
    ```python
    def fetch(url):
        return requests.get(url, timeout=10).text

    with ThreadPoolExecutor(max_workers=16) as pool:
        pages = list(pool.map(fetch, urls))
    ```

    ## Fix safety
    Unsafe: requests run in a different order and at the same time; servers may rate-limit,
    and code in the loop that depends on the previous response cannot be parallelised.

    ## References
    - Seed article, chapter 3.3 ("asyncio and data loading: when it really speeds things up").
    """
    for loop in facts.loops:
        paths = _over_paths(facts, loop.iter)
        for call in loop.calls:
            if call.loop is loop and (is_network_call(facts, call) or (paths and _is_file_read(call))):
                yield loop.node
                break
