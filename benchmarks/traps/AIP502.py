"""AIP502: an MLP's inference loop with autograd on vs under torch.inference_mode()."""

import torch
from _timing import compare, report

torch.manual_seed(0)
torch.set_num_threads(1)  # steady numbers on a shared machine; the overhead is per call anyway
model = torch.nn.Sequential(*[torch.nn.Sequential(torch.nn.Linear(512, 512), torch.nn.ReLU()) for _ in range(6)])
model.eval()
batches = [torch.randn(64, 512) for _ in range(20)]


def with_grad() -> list:
    return [model(b).argmax(1) for b in batches]


def inference() -> list:
    with torch.inference_mode():
        return [model(b).argmax(1) for b in batches]


slow, fast = compare(with_grad, inference, repeat=7)
device = "cuda" if torch.cuda.is_available() else "cpu"
report("AIP502", f"20 batches through a 6-layer MLP on the {device}", "autograd on", "inference_mode", slow, fast)


def held_memory(grad: bool) -> float:
    """MiB kept alive by 20 stored outputs (with autograd, each keeps its layers' activations)."""
    import gc

    import psutil

    gc.collect()
    proc = psutil.Process()
    before = proc.memory_info().rss
    with torch.inference_mode(not grad):
        outs = [model(torch.randn(256, 512)) for _ in range(20)]
    grown = proc.memory_info().rss - before
    del outs
    return grown / 2**20


print(
    f"AIP502: 20 stored outputs of 256x512 keep {held_memory(True):.0f} MiB alive with autograd on, "
    f"{held_memory(False):.0f} MiB under inference_mode"
)
