"""AIP401: four CPU-bound pure-Python tasks in a thread pool vs a process pool."""

import os
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor

from _timing import compare, report


def cpu_task(n: int) -> int:
    count = 0
    for i in range(n):
        count += i & 1
    return count


TASKS = [8_000_000] * 4
WORKERS = min(4, os.cpu_count() or 1)


def threads() -> list:
    with ThreadPoolExecutor(WORKERS) as pool:
        return list(pool.map(cpu_task, TASKS))


def processes() -> list:
    with ProcessPoolExecutor(WORKERS) as pool:
        return list(pool.map(cpu_task, TASKS))


if __name__ == "__main__":
    slow, fast = compare(threads, processes, repeat=3)
    report("AIP401", f"4 CPU-bound tasks on {os.cpu_count()} cores", "threads", "processes", slow, fast)
