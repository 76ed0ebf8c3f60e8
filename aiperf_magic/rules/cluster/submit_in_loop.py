"""AIP601 cluster-tasks-item-by-item: the detector and its documentation."""

from __future__ import annotations

from collections.abc import Iterator

import libcst as cst

from ..facts import Call, Facts, Loop
from ..loops import few_iterations
from ..registry import Hit, rule
from .engines import first_in_each_loop, submitted, tiny

WAITS = frozenset({"result", "gather", "get"})  # future.result(), client.gather(...), ray.get(...)
# Tiny tasks cost about a millisecond each: a loop known to send at most this many wastes tens of
# milliseconds (a loop that waits for each result is flagged past the usual few items).
TINY_TASKS_FEW = 32


@rule(
    "AIP601",
    "cluster-tasks-item-by-item",
    "One cluster task per item for tiny work in a Python loop: each task costs more than its work; send batches",
)
def cluster_tasks_item_by_item(facts: Facts) -> Iterator[Hit]:
    """
    ## What it does
    Flags a loop (or comprehension) over more than a few items that sends one task per item to a
    Dask or Ray cluster (`client.submit(f, x)` on a `distributed.Client`, `f.remote(x)` on a
    `@ray.remote` function of the notebook, defined in this cell or an earlier one) when the work
    is tiny (a lambda, a builtin, or a function of the notebook with no loop and at most 3
    statements) and the loop runs more than 32 times as far as the code shows, or when the loop
    waits for each result before sending the next (`client.submit(f, x).result()`,
    `ray.get(f.remote(x))`). Not flagged: a function that walks its argument (`sum(shard)`: each
    task already gets a batch), and `client.submit(operator.getitem, future, i)`, which picks an
    item out of a result that stays on the cluster to hand it to the task doing the work.

    ## Why is this bad?
    Every task pays for serialisation, a scheduler decision and two messages; Dask documents
    about 1 ms per task. On a 2-worker `LocalCluster`, 2,000 tiny tasks took 9.3 s and the same
    items in 4 batches 0.46 s (20x); 200 `client.submit(inc, i).result()` one after the other
    took 2.6 s, 13 ms each (`benchmarks/traps/AIP601.py`).

    ## Example
    ```python
    futures = []
    for x in range(4000):
        futures.append(client.submit(lambda v: v + 1, x))
    results = client.gather(futures)
    ```

    ## Use instead
    ```python
    def inc_batch(xs):
        return [v + 1 for v in xs]

    batches = [range(i, i + 1000) for i in range(0, 4000, 1000)]
    results = [r for part in client.gather(client.map(inc_batch, batches)) for r in part]
    ```

    ## Fix safety
    No automatic fix: a batch returns a list where each task returned one value.

    ## References
    - Dask: "Dask Best Practices", avoid very large graphs (task overhead).
    - Ray: "Tips for first-time users", tip 2 (avoid tiny tasks).
    - `docs/cluster.md`.
    """
    def one_by_one(call: Call, loop: Loop) -> bool:
        fn = submitted(facts, call)
        if fn is None:
            return False
        if _waits_each(facts, call, loop):
            return True
        return tiny(facts, fn) and not few_iterations(facts, loop, TINY_TASKS_FEW)

    yield from first_in_each_loop(facts, one_by_one)


def _waits_each(facts: Facts, call: Call, loop: Loop) -> bool:
    """The loop asks for this very task's result before the next item: a round trip per item."""
    parent = facts.cell.parent(call.node) if facts.cell is not None else None
    if isinstance(parent, cst.Attribute) and parent.attr.value == "result":
        return True
    for other in loop.calls:
        if other.loop is loop and other.method in WAITS and any(a.value is call.node for a in other.node.args):
            return True
    return False
