"""What does the cluster probe cost, and how much memory does its summary keep?

    python benchmarks/cluster.py              # 10,000 tasks x 3 alternating repeats, 1M synthetic tasks
    python benchmarks/cluster.py --quick      # 2,000 tasks, 100,000 synthetic tasks
    python benchmarks/cluster.py --no-memory --repeat 5

1. Overhead: a cell of N one-item tasks on a 2-worker LocalCluster (processes, 1 thread each), run
   alternately plain and with the Dask probe started before it and read after it (start + cell +
   finish, as ``%%aiperf`` does); the ratio of the medians. Each run starts on a settled cluster
   (the scheduler holds no task: the previous run's results are released), as a cell does after a
   user's pause, and is timed twice: until the cell returns (with the probe: until its report is
   read), and until the cluster has settled again. The scheduler releases a cell's 10,000 results
   after the cell returns; the probe's read waits behind that, which the plain run leaves to
   whatever comes next, so the second ratio is the cost the probe adds to a notebook's time.
2. Memory: a synthetic stream of M Dask task-stream records (generated one at a time, never held)
   folded into the summary; tracemalloc's peak during the fold and what the summary keeps after it.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
import tracemalloc
from collections.abc import Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from aiperf_magic.measure.cluster.dask_probe import DaskProbe, fold
from aiperf_magic.measure.cluster.summary import TaskStreamSummary


def inc(x: int) -> int:
    return x + 1


def scheduler_tasks(dask_scheduler: object = None) -> int:
    return len(dask_scheduler.tasks)  # type: ignore[attr-defined]


def settle(client: object) -> None:
    """Wait until the scheduler holds no task (released results included)."""
    while client.run_on_scheduler(scheduler_tasks):  # type: ignore[attr-defined]
        time.sleep(0.01)


def overhead(tasks: int, repeat: int) -> None:
    from distributed import Client, LocalCluster

    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0",
                      silence_logs=40) as cluster, Client(cluster) as client:
        def cell() -> None:
            client.gather(client.map(inc, range(tasks), pure=False))

        cell()  # warm up: functions pickled, workers ready
        runs: dict[str, list[float]] = {"plain": [], "probed": [], "plain settled": [], "probed settled": [],
                                        "start": [], "finish": []}
        for _ in range(repeat):
            settle(client)
            t0 = time.perf_counter()
            cell()
            runs["plain"].append(time.perf_counter() - t0)
            settle(client)
            runs["plain settled"].append(time.perf_counter() - t0)
            t0 = time.perf_counter()
            probe = DaskProbe(client)
            probe.start()
            t1 = time.perf_counter()
            c0 = time.process_time()
            cell()
            wall, cpu = time.perf_counter() - t1, time.process_time() - c0
            t2 = time.perf_counter()
            info = probe.finish(wall, cpu)
            t3 = time.perf_counter()
            runs["probed"].append(t3 - t0)
            settle(client)
            runs["probed settled"].append(time.perf_counter() - t0)
            runs["start"].append(t1 - t0)
            runs["finish"].append(t3 - t2)
            assert info.tasks == tasks, info.tasks
        med = {k: statistics.median(v) for k, v in runs.items()}
        print(f"overhead: a cell of {tasks:,} tasks, {repeat} alternating repeats from a settled cluster "
              f"(medians): until it returns, plain {med['plain']:.2f} s, with the probe {med['probed']:.2f} s "
              f"-> {med['probed'] / med['plain']:.3f}x; until the cluster settled, plain {med['plain settled']:.2f} s, "
              f"with the probe {med['probed settled']:.2f} s -> {med['probed settled'] / med['plain settled']:.3f}x "
              f"(probe start {med['start'] * 1e3:.1f} ms, finish {med['finish'] * 1e3:.1f} ms; plain runs "
              f"{min(runs['plain']):.2f}-{max(runs['plain']):.2f} s, probed "
              f"{min(runs['probed']):.2f}-{max(runs['probed']):.2f} s)")


def records(n: int, workers: int = 16, functions: int = 40) -> Iterator[dict]:
    """Dask-shaped task-stream records, made one at a time."""
    rng = random.Random(0)
    t = 1000.0
    for i in range(n):
        duration = rng.lognormvariate(-7, 1.0)  # a median of about 1 ms
        t += duration / workers
        yield {"worker": f"tcp://10.0.0.{i % workers}:8786", "key": (f"f{i % functions}-{i:x}", i),
               "nbytes": 28, "startstops": ({"action": "compute", "start": t, "stop": t + duration},)}


def memory(n: int) -> None:
    timed = TaskStreamSummary("dask", origin=0.0, end=1e12)
    t0 = time.perf_counter()
    for record in records(n):
        fold(timed, record)
    seconds = time.perf_counter() - t0
    del timed
    summary = TaskStreamSummary("dask", origin=0.0, end=1e12)
    tracemalloc.start()
    for record in records(n):
        fold(summary, record)
    _, peak = tracemalloc.get_traced_memory()
    info = summary.info()
    retained = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    assert info.tasks == n
    print(f"memory: {n:,} synthetic tasks on 16 workers, 40 functions: peak {peak / 1024:.0f} KiB during the fold, "
          f"{retained / 1024:.0f} KiB kept by the summary and its result; folded in {seconds:.1f} s "
          f"({seconds / n * 1e6:.1f} µs per task, records made included); median task {info.median_task_ms:.3g} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--repeat", type=int, default=3, help="alternating repeats of the overhead cell")
    parser.add_argument("--no-memory", action="store_true", help="only the overhead")
    args = parser.parse_args()
    if not args.no_memory:
        memory(100_000 if args.quick else 1_000_000)
    overhead(2_000 if args.quick else 10_000, args.repeat)


if __name__ == "__main__":
    main()
