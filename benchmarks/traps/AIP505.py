"""AIP505: a small training loop reading loss.item() every step vs accumulating on the GPU."""

import torch
from _timing import compare, needs_cuda, report

if needs_cuda("AIP505"):
    model = torch.nn.Sequential(torch.nn.Linear(256, 256), torch.nn.ReLU(), torch.nn.Linear(256, 1)).cuda()
    opt = torch.optim.SGD(model.parameters(), lr=1e-3)
    xs = [torch.randn(128, 256, device="cuda") for _ in range(200)]

    def train(sync: bool) -> None:
        running = 0.0 if sync else torch.zeros((), device="cuda")
        for x in xs:
            loss = model(x).pow(2).mean()
            loss.backward()
            opt.step()
            opt.zero_grad()
            running += loss.item() if sync else loss.detach()
        torch.cuda.synchronize()

    slow, fast = compare(lambda: train(True), lambda: train(False))
    report("AIP505", "200 small training steps", ".item() every step", "accumulate on GPU", slow, fast)
