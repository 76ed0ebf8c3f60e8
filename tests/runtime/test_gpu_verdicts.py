"""GPU verdicts on a real CUDA machine (``pytest -m gpu``; skipped without CUDA).

Each workload runs through the real magic with GPU sampling on; the same rules are tested on fake
timelines in test_verdict.py for machines without a GPU.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from aiperf_magic.report import Report

pytestmark = pytest.mark.gpu

Measure = Callable[..., Report]

STARVED = """\
import numpy as np
from torch.utils.data import DataLoader, Dataset

class Heavy(Dataset):
    def __len__(self):
        return 48
    def __getitem__(self, i):
        # a CPU-heavy transform in pure Python/NumPy, run in the main process (num_workers=0)
        img = np.random.rand(256, 256)
        for _ in range(20):
            img = np.sqrt(img * img + 1.0)
        return torch.from_numpy(img.astype(np.float32))

loader = DataLoader(Heavy(), batch_size=4, num_workers=0)
for batch in loader:
    out = (batch.cuda() @ w).sum()
torch.cuda.synchronize()
"""


def test_cpu_transform_with_no_workers_starves_the_gpu(measure: Measure, ip: Any) -> None:
    ip.run_cell("import torch\nw = torch.randn(256, 256, device='cuda')")
    report = measure(STARVED, gpu=True)
    assert report.verdict is not None, report.notes
    assert report.verdict.code == "AIP901", report.verdict
    assert report.verdict.evidence["gpu_util_percent"] < 40


def test_allocating_most_of_the_device_is_gpu_memory_pressure(measure: Measure, ip: Any) -> None:
    ip.run_cell("import torch, time\nfree, total = torch.cuda.mem_get_info()")
    body = "hog = torch.empty(int(0.95 * free), dtype=torch.uint8, device='cuda')\ntime.sleep(0.5)\n"
    report = measure(body, gpu=True)
    ip.user_ns.pop("hog", None)
    ip.run_cell("torch.cuda.empty_cache()")
    codes = [f.code for f in report.findings]
    assert "AIP905" in codes, (report.verdict, report.notes)
    assert report.cuda_peak_bytes is not None and report.cuda_peak_bytes > 0.9 * ip.user_ns["free"]


def test_matmul_loop_is_gpu_bound(measure: Measure, ip: Any) -> None:
    ip.run_cell("import torch\na = torch.randn(8192, 8192, device='cuda')\ntorch.cuda.synchronize()")
    body = "for step in range(200):\n    b = a @ a\ntorch.cuda.synchronize()\n"
    report = measure(body, gpu=True)
    assert report.verdict is not None and report.verdict.code == "AIP906", (report.verdict, report.notes)
    assert report.verdict.evidence["gpu_busy_percent"] >= 70


def test_nvml_process_memory_matches_torch(measure: Measure, ip: Any) -> None:
    ip.run_cell("import torch, time\ntorch.cuda.init()")
    body = "block = torch.empty(4 << 30, dtype=torch.uint8, device='cuda')\ntime.sleep(0.3)\n"
    report = measure(body, gpu=True)
    reserved = ip.run_cell("torch.cuda.memory_reserved()").result
    ip.user_ns.pop("block", None)
    ip.run_cell("torch.cuda.empty_cache()")
    if report.gpus and report.gpus[0].process_memory_scope != "process":
        pytest.skip("NVML cannot see this process's memory here (container): device-wide only")
    seen = [max((v for v in g.process_mem_bytes if v), default=0) for g in report.samples.gpus]
    nvml = max(seen)
    # NVML counts torch's reserved blocks plus the CUDA context (a few hundred MiB)
    assert reserved <= nvml <= reserved + (1536 << 20), (nvml, reserved)


def test_torch_profile_counts_host_to_device_copies(measure: Measure, ip: Any) -> None:
    ip.run_cell("import torch\nhost = torch.randn(1024, 1024)")
    report = measure("for step in range(10):\n    dev = host.to('cuda')\ntorch.cuda.synchronize()\n",
                     "--torch-profile", gpu=True)
    prof = report.torch_profile
    assert prof is not None and prof["activities"] == ["cpu", "cuda"]
    copies = prof["copies"]["host_to_device"]
    assert copies["count"] >= 10
    assert copies["bytes"] is None or copies["bytes"] >= 10 * 4 * 1024 * 1024
