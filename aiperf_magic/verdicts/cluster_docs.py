"""Documentation of the cluster verdicts (AIP910-AIP914), registered beside AIP901-AIP908 so that
``%aiperf explain AIP910`` answers. The thresholds are the defaults of
:class:`~.checks.Thresholds`; ``docs/cluster.md`` says how each number is measured."""

from __future__ import annotations

from ..rules.registry import document

document(
    "AIP910",
    "cluster-bound",
    "The driver mostly waited while a Dask or Ray cluster worked: the workers' functions limit the cell",
    """
    ## What it does
    Given after a `%%aiperf` cell that used a Dask client or an initialised Ray when the driver
    (the notebook's process) was off the CPU, while the cluster had tasks running, for at least
    50 % of the cell's wall time, and the cluster's threads computed at least 25 % of the span
    it worked (a mostly idle cluster is AIP911 or AIP912, not this). The sentence names the
    worker functions that took the most task time (from the task stream), with their shares.
    It replaces AIP903 and AIP907: the driver is neither waiting on I/O nor CPU-bound, it is
    waiting on its cluster.

    ## Why is this bad?
    It is not a trap in the code around the tasks: the time is spent inside the tasks. On a
    2-worker `LocalCluster`, one task per worker of eight 700 x 700 matrix products kept the
    driver waiting 90 % of the cell (tutorial 06); only faster worker functions or more workers
    shorten it.

    ## Example
    ```python
    futures = [client.submit(simulate, seed) for seed in range(8)]   # simulate: a Python loop
    results = client.gather(futures)
    ```

    ## Use instead
    ```python
    futures = [client.submit(simulate_vectorised, seed) for seed in range(8)]  # NumPy inside
    results = client.gather(futures)
    ```

    ## Fix safety
    No automatic fix: profile the named functions (the Dask dashboard's Profile page, Ray's
    timeline) and speed them up, or add workers.

    ## References
    - Dask: "Diagnostics (distributed)", the task stream and `Client.profile`.
    - `docs/cluster.md`, "The verdicts".
    """,
    kind="verdict",
)

document(
    "AIP911",
    "too-many-small-tasks",
    "Many tasks each too short to pay for its own scheduling: batch the items",
    """
    ## What it does
    Given when the cell ran at least 100 cluster tasks whose median compute time was under
    100 ms and under half the thread time each task cost the cluster (the span the cluster
    worked x its threads / the tasks). The sentence says how many tasks, how long each computed,
    what each cost, and the batch size (items per task) that would make each task about 100 ms
    while keeping two tasks per thread.

    ## Why is this bad?
    Every task pays a fixed cost: serialising the call, a scheduler decision, a message to a
    worker, a result back. Dask documents about 1 ms per task; tasks much shorter than that are
    mostly overhead. On a 2-worker `LocalCluster`, 2,000 one-item tasks took 9.3 s; the same
    items in 4 batches of 500 took 0.46 s (20x, `benchmarks/traps/AIP601.py`).

    ## Example
    ```python
    futures = client.map(lambda x: x + 1, range(4000))
    total = sum(client.gather(futures))
    ```

    ## Use instead
    ```python
    def inc_batch(xs):
        return [x + 1 for x in xs]

    batches = [range(i, i + 1000) for i in range(0, 4000, 1000)]
    total = sum(sum(b) for b in client.gather(client.map(inc_batch, batches)))
    ```

    ## Fix safety
    No automatic fix: batching changes what each task returns. AIP601 and AIP602 point at the
    loops that submit item by item.

    ## References
    - Dask: "Dask Best Practices", avoid very large graphs; "Task overhead".
    - Ray: "Tips for first-time users", tip 2 (tiny tasks).
    - `docs/cluster.md`, "The verdicts".
    """,
    kind="verdict",
)

document(
    "AIP912",
    "unbalanced-workers",
    "The work did not spread over the cluster: some workers were busy, others idle",
    """
    ## What it does
    Given when the cluster has at least 2 threads, its busiest worker computed at least 30 % of
    the span the cluster worked, and the mean thread computed less than 60 % of that busiest
    share. The sentence names the busiest worker and the idle ones. For Ray, a thread is a CPU
    of the cluster and a worker a Ray worker process.

    ## Why is this bad?
    Idle workers are capacity paid for and not used: with all tasks pinned to one of 2 workers
    (`workers=[addr]`), one worker computed 93 % of the time and the other 0 %, so the cell ran
    at half the cluster's speed.

    ## Example
    ```python
    futures = [client.submit(work, i, workers=[first]) for i in range(8)]
    ```

    ## Use instead
    ```python
    futures = [client.submit(work, i) for i in range(8)]
    ```

    ## Fix safety
    No automatic fix: a pin may be on purpose (data or a GPU that lives on that worker).

    ## References
    - Dask: "Worker Resources" and "Data Locality".
    - `docs/cluster.md`, "The verdicts".
    """,
    kind="verdict",
)

document(
    "AIP913",
    "cluster-spilling",
    "Workers spilled data to disk: their memory could not hold the cell's data",
    """
    ## What it does
    Given when the workers' spilled bytes on disk grew by at least 16 MiB during the cell (Dask's
    worker counters, and the sizes of tasks written to disk in the task stream), or their disk
    reads and writes took at least 10 % of the task time (and 0.1 s). Ray's public API does not
    report spilling per cell: this verdict is Dask only.

    ## Why is this bad?
    Spilled data is written to and read back from disk: a disk at 500 MB/s moves 1 GiB in about
    2 s each way, against about 0.1 s to copy it in memory.

    ## Example
    ```python
    ddf = dd.read_parquet("events/*.parquet")           # 8 GiB on workers with 2 GiB each
    ddf.groupby("user").amount.sum().compute()
    ```

    ## Use instead
    ```python
    ddf = dd.read_parquet("events/*.parquet", columns=["user", "amount"])
    ddf.groupby("user").amount.sum().compute()
    ```

    ## Fix safety
    No automatic fix.

    ## References
    - Dask: "Worker Memory Management" (spilling to disk).
    - `docs/cluster.md`, "The verdicts".
    """,
    kind="verdict",
)

document(
    "AIP914",
    "transfer-bound",
    "Workers spent their time moving task inputs between them",
    """
    ## What it does
    Given when the transfers of task inputs between workers (the task stream's `transfer`
    intervals) took at least 30 % of compute plus transfer time, and at least 0.1 s. The bytes
    the workers sent are quoted when the engine counts them (Dask).

    ## Why is this bad?
    A transfer is serialisation, a copy through the network stack and deserialisation: at
    100 MB/s between machines, a 100 MB argument costs 1 s per task that needs it elsewhere.

    ## Example
    ```python
    futures = [client.submit(score, big_frame, i) for i in range(100)]   # ships big_frame each time
    ```

    ## Use instead
    ```python
    [big] = client.scatter([big_frame], broadcast=True)
    futures = [client.submit(score, big, i) for i in range(100)]
    ```

    ## Fix safety
    No automatic fix.

    ## References
    - Dask: "Dask Best Practices", avoid calling compute repeatedly and scatter large inputs.
    - `docs/cluster.md`, "The verdicts".
    """,
    kind="verdict",
)
