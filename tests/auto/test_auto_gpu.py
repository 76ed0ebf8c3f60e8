"""GPU utilisation in auto mode: through a fake NVML everywhere, through the real one on a CUDA machine."""

from __future__ import annotations

import os

import pytest
from IPython.utils.capture import capture_output

from aiperf_magic.ipython.commands.auto import AutoMode, KeptProbe
from aiperf_magic.measure.probes.gpu import GpuProbe
from tests.core.test_sampler import FakeNVML


def run(ip, code: str) -> None:
    with capture_output():
        result = ip.run_cell(code, store_history=True)
    assert result.success, result.error_in_exec


def test_nvml_readings_reach_the_record_and_nvml_closes_with_auto_mode(ip):
    nvml = FakeNVML(n=2, pids=(os.getpid(),))
    state = ip._aiperf_magics.state
    mode = AutoMode(ip, state, probes=lambda: [KeptProbe(GpuProbe(nvml=nvml), ticker_only=True)])
    state.extras["auto"] = mode
    mode.on(threshold_s=60)
    ip.user_ns["_nvml"] = nvml
    try:
        run(ip, "x = 1")  # shorter than one interval: the cell's own thread never reads NVML
        run(ip, "import time\nreads = _nvml.reads\ndeadline = time.monotonic() + 10\n"
                "while _nvml.reads < reads + 2 and time.monotonic() < deadline:\n    time.sleep(0.01)")
    finally:
        mode.close()
    short, long = mode.history.records
    assert short.gpu_util_mean is None
    assert long.gpu_util_mean == 50.5 and long.gpu_util_max == 51.0  # the fake's GPUs 0 and 1
    assert long.gpu_mem_max_bytes == 2 << 30
    assert nvml.shutdown == 1


@pytest.mark.gpu
def test_real_gpu_utilisation_during_a_matmul_loop(ip):
    torch = pytest.importorskip("torch")
    if not torch.cuda.is_available():
        pytest.skip("no CUDA GPU")
    run(ip, "import torch\na = torch.randn(8192, 8192, device='cuda')\ntorch.cuda.synchronize()")
    run(ip, "%aiperf auto on --threshold 60")
    try:
        run(ip, "for _ in range(300):\n    b = a @ a\ntorch.cuda.synchronize()")
    finally:
        run(ip, "%aiperf auto off")
    record = ip._aiperf_magics.state.extras["auto"].history.records[-1]
    assert record.samples >= 2
    assert record.gpu_util_max is not None and record.gpu_util_max > 50
    assert record.gpu_mem_max_bytes is not None and record.gpu_mem_max_bytes > 256 << 20
