"""AIP501: torch.randn on the CPU then .cuda() every iteration vs torch.randn(..., device="cuda")."""

import torch
from _timing import compare, needs_cuda, report

if needs_cuda("AIP501"):
    model = torch.nn.Linear(1000, 10).cuda()

    def moved() -> None:
        for _ in range(100):
            model(torch.randn(64, 1000).cuda())
        torch.cuda.synchronize()

    def on_device() -> None:
        for _ in range(100):
            model(torch.randn(64, 1000, device="cuda"))
        torch.cuda.synchronize()

    slow, fast = compare(moved, on_device)
    report("AIP501", "100 iterations of the seed's example", "randn().cuda()", "randn(device=)", slow, fast)
