"""AIP506: repeated small-batch inference in eager mode vs a torch.jit.trace'd model."""

import warnings

import torch
from _timing import compare, report

warnings.filterwarnings("ignore")
torch.manual_seed(0)
torch.set_num_threads(1)  # steady numbers on a shared machine; the overhead is per call anyway
model = torch.nn.Sequential(
    *[torch.nn.Sequential(torch.nn.Linear(64, 64), torch.nn.GELU(), torch.nn.LayerNorm(64)) for _ in range(8)]
).eval()
example = torch.randn(1, 64)
with torch.inference_mode():
    traced = torch.jit.freeze(torch.jit.trace(model, example))
    batches = [torch.randn(1, 64) for _ in range(200)]

    def run(m) -> None:
        for b in batches:
            m(b)

    slow, fast = compare(lambda: run(model), lambda: run(traced), repeat=7, warmup=2)
report("AIP506", "200 single-sample calls of an 8-block MLP on the CPU", "eager", "jit.trace+freeze", slow, fast)
