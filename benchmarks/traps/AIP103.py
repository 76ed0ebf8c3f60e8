"""AIP103: private memory a forked worker gains by reading every sample: Python objects vs NumPy."""

import os

import numpy as np
import psutil

N = 300_000
as_objects = [{"ids": [i, i + 1, i + 2], "label": i % 10} for i in range(N)]
as_array = np.array([[i, i + 1, i + 2, i % 10] for i in range(N)], dtype=np.int64)


def private_growth(read) -> float:
    """Fork like a DataLoader worker, read everything, report the child's private memory growth."""
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:  # the worker
        os.close(r)
        proc = psutil.Process()
        before = proc.memory_full_info().uss
        read()
        grown = proc.memory_full_info().uss - before
        os.write(w, str(grown).encode())
        os._exit(0)
    os.close(w)
    data = os.read(r, 64)
    os.waitpid(pid, 0)
    return int(data) / 2**20


def read_objects() -> None:
    total = 0
    for i in range(N):
        total += as_objects[i]["label"]


def read_array() -> None:
    total = 0
    for i in range(N):
        total += int(as_array[i, 3])


slow, fast = private_growth(read_objects), private_growth(read_array)
print(
    f"AIP103: one worker reading {N:,} samples copies {slow:.1f} MiB (Python dicts) vs "
    f"{fast:.1f} MiB (NumPy array); each extra worker copies as much again"
)
