"""AIP102: host-to-GPU copies of batches from pageable vs pinned memory with non_blocking=True."""

import torch
from _timing import compare, needs_cuda, report

if needs_cuda("AIP102"):
    batches = [torch.randn(256, 3, 64, 64) for _ in range(32)]
    pinned = [b.pin_memory() for b in batches]
    w = torch.randn(64, 64, device="cuda")

    def run(source: list, non_blocking: bool) -> None:
        for b in source:
            x = b.to("cuda", non_blocking=non_blocking)
            (x @ w).sum()
        torch.cuda.synchronize()

    slow, fast = compare(lambda: run(batches, False), lambda: run(pinned, True))
    report("AIP102", "32 batches of 12 MiB copied and used", "pageable", "pinned + non_blocking", slow, fast)
