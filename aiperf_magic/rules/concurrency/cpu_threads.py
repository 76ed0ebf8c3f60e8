"""AIP401 threads-for-cpu-work: the detector, its documentation and its fixer."""

from __future__ import annotations

from collections.abc import Iterator

import libcst as cst

from ...cell.parsed import ParsedCell
from ...cell.tree import call_name, expect, walk_all
from ...fixes.edits import Edits
from ..facts import Call, Facts
from ..registry import Hit, fixer_for, rule
from ..symbols import THREAD_POOLS
from ..work import work_of_name

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


# Worker processes are forked so that functions defined in the notebook itself (module __main__)
# are there in the children; spawn/forkserver would have to import them from a file.
FORK = '{mp}.get_context("fork")'


@fixer_for("AIP401", "Run CPU-bound work in processes")
def fix_threads(cell: ParsedCell, node: cst.CSTNode, facts: Facts) -> Edits | str:
    call = expect(node, cst.Call, where=lambda n: call_name(n).rsplit(".", 1)[-1] in ("Thread", "ThreadPoolExecutor"))
    if not isinstance(call, cst.Call):
        return "no Thread(...) or ThreadPoolExecutor(...) call on the finding's line"
    name = call_name(call)
    edits = Edits("Run the CPU-bound work in worker processes (forked; Linux)", safety="unsafe")
    # starting processes and pickling every task and result costs more than tiny tasks gain
    edits.measure_first = "processes pay when each task takes over a millisecond and the work over a second"
    mp = edits.need(cell, "multiprocessing")
    if name.endswith("ThreadPoolExecutor"):
        for n in walk_all(cell.module):
            if (
                isinstance(n, cst.Call)
                and isinstance(n.func, cst.Attribute)
                and n.func.attr.value in ("submit", "map")
                and n.args
                and isinstance(n.args[0].value, cst.Lambda)
            ):
                # a process pool pickles the function it sends; a lambda cannot be pickled
                return "the pool is given a lambda, which a process pool cannot send to its workers"
        prefix = name.rsplit(".", 1)[0] + "." if "." in name else ""
        new = (
            f"{prefix}ProcessPoolExecutor"
            if prefix
            else edits.need_from(cell, "concurrent.futures", "ProcessPoolExecutor")
        )
        edits.replace[call.func] = cst.parse_expression(new)
        edits.set_kwarg(call, "mp_context", FORK.format(mp=mp))
        return edits
    if any(a.keyword is None for a in call.args):
        # Thread(group, target, ...) positional order differs from Process only in name; keep it simple
        return "Thread(...) is called with positional arguments"
    edits.replace[call.func] = cst.parse_expression(f"{FORK.format(mp=mp)}.Process")
    return edits
