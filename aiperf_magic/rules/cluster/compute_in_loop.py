"""AIP602 compute-in-loop: the detector and its documentation."""

from __future__ import annotations

from collections.abc import Iterator

from ..facts import Facts
from ..registry import Hit, rule
from .engines import first_in_each_loop, uses_dask

COMPUTES = frozenset({"dask.compute", "dask.persist"})


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
    yield from first_in_each_loop(
        facts, lambda call, _loop: (call.method == "compute" and call.receiver is not None) or call.qname in COMPUTES
    )
