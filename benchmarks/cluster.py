"""What does the cluster probe cost, and how much memory does its summary keep?

    python benchmarks/cluster.py              # 10,000 tasks x 3 alternating repeats, 1M synthetic tasks
    python benchmarks/cluster.py --quick      # 2,000 tasks, 100,000 synthetic tasks
    python benchmarks/cluster.py --no-memory --repeat 5

1. Overhead: a cell of N one-item tasks on a 2-worker LocalCluster (processes, 1 thread each), run
   alternately plain and with the Dask probe started before it and read after it (start + cell +
   finish, as ``%%aiperf`` does); the ratio of the medians. The probe does nothing while the cell
   runs, so the ratio is the probe's start and finish over the cell's time.
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


def overhead(tasks: int, repeat: int) -> None:
    from distributed import Client, LocalCluster

    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0",
                      silence_logs=40) as cluster, Client(cluster) as client:
        def cell() -> None:
            client.gather(client.map(inc, range(tasks), pure=False))

        cell()  # warm up: functions pickled, workers ready
        plain: list[float] = []
        probed: list[float] = []
        starts: list[float] = []
        finishes: list[float] = []
        for _ in range(repeat):
            t0 = time.perf_counter()
            cell()
            plain.append(time.perf_counter() - t0)
            t0 = time.perf_counter()
            probe = DaskProbe(client)
            probe.start()
            t1 = time.perf_counter()
            c0 = time.process_time()
            cell()
            wall, cpu = time.perf_counter() - t1, time.process_time() - c0
            t2 = time.perf_counter()
            info = probe.finish(wall, cpu)
            probed.append(time.perf_counter() - t0)
            starts.append(t1 - t0)
            finishes.append(time.perf_counter() - t2)
            assert info.tasks == tasks, info.tasks
        a, b = statistics.median(plain), statistics.median(probed)
        print(f"overhead: a cell of {tasks:,} tasks, {repeat} alternating repeats: plain {a:.2f} s, "
              f"with the probe {b:.2f} s -> {b / a:.3f}x (probe start {statistics.median(starts) * 1e3:.1f} ms, "
              f"finish {statistics.median(finishes) * 1e3:.1f} ms, medians; plain runs "
              f"{min(plain):.2f}-{max(plain):.2f} s, probed {min(probed):.2f}-{max(probed):.2f} s)")


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
