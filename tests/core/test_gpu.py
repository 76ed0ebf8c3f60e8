"""On a CUDA machine: synchronised timing, the allocator's per-cell peak, NVML sampling during work.

Run with `pytest -m gpu`; skipped where there is no CUDA GPU.
"""

from __future__ import annotations

import pytest
from IPython.utils.capture import capture_output

pytestmark = pytest.mark.gpu


def report_of(ip, code: str):
    with capture_output():
        result = ip.run_cell(code)
    assert result.success, result.error_in_exec
    return ip._aiperf_magics.state.last_report


def test_wall_time_waits_for_queued_gpu_work(ip):
    ip.run_cell("import torch\na = torch.randn(8192, 8192, device='cuda')\ntorch.cuda.synchronize()")
    # Launching 30 large matmuls returns at once; only a synchronise shows their real cost.
    rep = report_of(ip, "%%aiperf\nstart = torch.cuda.Event(enable_timing=True)\n"
                        "end = torch.cuda.Event(enable_timing=True)\n"
                        "start.record()\nfor _ in range(30):\n    b = a @ a\nend.record()\n")
    end_event_ms = ip.user_ns["start"].elapsed_time(ip.user_ns["end"])
    assert rep.gpu_synced
    assert rep.wall_s * 1000 >= 0.9 * end_event_ms


def test_cuda_peak_is_per_cell(ip):
    ip.run_cell("import torch\nbig = torch.empty(2 << 30, dtype=torch.uint8, device='cuda')\ndel big")
    rep = report_of(ip, "%%aiperf\nsmall = torch.empty(64 << 20, dtype=torch.uint8, device='cuda')\n")
    assert rep.cuda_peak_bytes is not None
    assert 64 << 20 <= rep.cuda_peak_bytes < 1 << 30  # the 2 GB of the earlier cell is not billed here


def test_nvml_samples_utilisation_during_a_matmul_loop(ip):
    ip.run_cell("import torch\na = torch.randn(8192, 8192, device='cuda')")
    rep = report_of(ip, "%%aiperf\nfor _ in range(200):\n    b = a @ a\ntorch.cuda.synchronize()\n")
    assert rep.gpus, rep.notes
    series = rep.samples.gpus[0]
    assert max(u for u in series.util_percent if u is not None) > 50
    assert max(m for m in series.mem_used_bytes if m is not None) > 256 << 20
