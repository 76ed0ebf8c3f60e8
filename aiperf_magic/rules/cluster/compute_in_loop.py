"""AIP602 compute-in-loop: the detector and its documentation."""

from __future__ import annotations

from collections.abc import Iterator

import libcst as cst

from ..facts import Call, Facts, Loop, unwrap_iterable
from ..registry import Hit, rule
from .engines import first_in_each_loop, uses_dask

COMPUTES = frozenset({"dask.compute", "dask.persist"})
PIECES = frozenset({"partitions", "blocks"})  # ``ddf.partitions[i]``, ``arr.blocks[i]``
PIECE_CALLS = frozenset({"get_partition", "to_delayed"})  # ``ddf.get_partition(i)``, ``ddf.to_delayed()[i]``


@rule(
    "AIP602",
    "compute-in-loop",
    "`.compute()` inside a loop: each call runs a graph on the cluster and waits; build every result, "
    "then compute them together",
)
def compute_in_loop(facts: Facts) -> Iterator[Hit]:
    """
    ## What it does
    Flags a Dask `.compute()` (or `dask.compute(...)`) inside a loop over more than a few items,
    in a notebook that imports Dask. Each call sends a graph to the scheduler, waits for it and
    brings the result back before the loop goes on, and graphs that share inputs (the same
    `read_parquet`, the same `persist`-less intermediate) recompute them every time.

    Not flagged: a `while` loop (it has no items to build first: it runs until a condition on
    what it computed, or repeats on purpose), and computing a whole partition or block at a time
    (`ddf.partitions[i].compute()`, `for part in ddf.to_delayed(): part.compute()`): that brings
    a collection to the driver piece by piece, and computing the pieces together would hold all
    of them in its memory at once.

    ## Why is this bad?
    The cluster works one small graph at a time, with a round trip to the driver between them.
    On a 2-worker `LocalCluster`, summing 50 slices of one Dask array with `.compute()` in the
    loop took 1.8 s; building the 50 lazy sums and one `dask.compute(*sums)` took 0.45 s (4x,
    `benchmarks/traps/AIP602.py`).

    ## Example
    ```python
    totals = []
    for name in names:
        totals.append(ddf[ddf.user == name].amount.sum().compute())
    ```

    ## Use instead
    ```python
    import dask

    lazy = [ddf[ddf.user == name].amount.sum() for name in names]
    totals = list(dask.compute(*lazy))
    ```

    ## Fix safety
    No automatic fix: a loop whose next step depends on the computed value (a convergence test)
    must compute each time.

    ## References
    - Dask: "Dask Best Practices", avoid calling compute repeatedly.
    - `docs/cluster.md`.
    """
    if not uses_dask(facts):
        return

    def computes(call: Call, loop: Loop) -> bool:
        if loop.kind == "while":
            return False
        if call.method == "compute" and call.receiver is not None:
            return not _whole_piece(facts, call.receiver, loop)
        if call.qname in COMPUTES:
            args = [a.value for a in call.node.args]
            return not (len(args) == 1 and _whole_piece(facts, args[0], loop))
        return False

    yield from first_in_each_loop(facts, computes)


def _whole_piece(facts: Facts, node: cst.BaseExpression, loop: Loop) -> bool:
    """``ddf.partitions[i]``, ``arr.blocks[i]``, ``ddf.get_partition(i)``, ``ddf.to_delayed()[i]``, or
    the loop's own variable over ``ddf.partitions`` / ``ddf.to_delayed()``: one whole piece of a
    collection, not a result computed from it."""
    if isinstance(node, cst.Subscript):
        node = node.value
    elif isinstance(node, cst.Name) and node.value in loop.targets:
        node = unwrap_iterable(facts, loop.iter) or node
    if isinstance(node, cst.Call):
        return isinstance(node.func, cst.Attribute) and node.func.attr.value in PIECE_CALLS
    return isinstance(node, cst.Attribute) and node.attr.value in PIECES
