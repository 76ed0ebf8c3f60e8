"""AIP504: training steps of an MLP in float32 vs under torch.autocast(bfloat16) on a CUDA GPU."""

import torch
from _timing import compare, needs_cuda, report

if needs_cuda("AIP504"):
    model = torch.nn.Sequential(torch.nn.Linear(4096, 4096), torch.nn.ReLU(), torch.nn.Linear(4096, 4096)).cuda()
    opt = torch.optim.SGD(model.parameters(), lr=1e-3)
    x = torch.randn(1024, 4096, device="cuda")

    def steps(amp: bool) -> None:
        for _ in range(20):
            with torch.autocast("cuda", dtype=torch.bfloat16, enabled=amp):
                loss = model(x).float().pow(2).mean()
            loss.backward()
            opt.step()
            opt.zero_grad()
        torch.cuda.synchronize()

    slow, fast = compare(lambda: steps(False), lambda: steps(True))
    report("AIP504", "20 training steps, 2 x 4096^2 layers", "float32", "autocast bf16", slow, fast)
