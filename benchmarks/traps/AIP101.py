"""AIP101: a training loop whose samples cost ~1 ms of Python each, num_workers=0 vs 2.

The model step is simulated by a 16 ms sleep: on a GPU machine the main process mostly waits for
the GPU, and that wait is what workers overlap with loading.
"""

import os
import time

import torch
from _timing import compare, report
from torch.utils.data import DataLoader, Dataset


class Costly(Dataset):
    def __len__(self) -> int:
        return 256

    def __getitem__(self, i: int) -> torch.Tensor:
        acc = 0
        for k in range(25_000):  # about 1 ms of pure-Python decoding work
            acc += k * i
        return torch.full((16,), float(acc % 7))


def epoch(workers: int) -> None:
    for _ in DataLoader(Costly(), batch_size=16, num_workers=workers):
        time.sleep(0.016)  # the GPU step


WORKERS = min(2, os.cpu_count() or 1)
slow, fast = compare(lambda: epoch(0), lambda: epoch(WORKERS), repeat=3)
report(
    "AIP101",
    "one epoch of 256 samples with a 16 ms step per batch",
    "num_workers=0",
    f"num_workers={WORKERS}",
    slow,
    fast,
)
