"""``%%aiperf --torch-profile`` on the CPU: a tiny model trained from a DataLoader."""

from __future__ import annotations

import sys
from types import SimpleNamespace
from typing import Any

import pytest

from aiperf_magic.measure.torch_profile import TorchProfileStage, input_bound_level
from aiperf_magic.report import Report

SETUP = """\
import time
import torch
from torch.utils.data import DataLoader, Dataset

class Batches(Dataset):
    def __init__(self, delay):
        self.delay = delay
    def __len__(self):
        return 64
    def __getitem__(self, i):
        time.sleep(self.delay)  # a slow decode / augmentation step
        return torch.randn(32), torch.tensor(i % 2)

model = torch.nn.Sequential(torch.nn.Linear(32, 256), torch.nn.ReLU(), torch.nn.Linear(256, 2))
opt = torch.optim.SGD(model.parameters(), lr=0.01)
"""

TRAIN = """\
for x, y in loader:
    loss = torch.nn.functional.cross_entropy(model(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
"""


def test_levels() -> None:
    assert [input_bound_level(s) for s in (0.0, 0.05, 0.051, 0.2, 0.21)] == [
        "none",
        "none",
        "input-bound",
        "input-bound",
        "strongly input-bound",
    ]


def test_slow_loader_is_strongly_input_bound(measure: Any, ip: Any) -> None:
    pytest.importorskip("torch")
    ip.run_cell(SETUP + "loader = DataLoader(Batches(0.01), batch_size=8)")
    report = measure(TRAIN, "--torch-profile")
    prof = report.torch_profile
    assert prof is not None, report.notes
    assert prof["activities"] == ["cpu"]
    loader = prof["dataloader"]
    assert loader["batches"] >= 8 and loader["level"] == "strongly input-bound" and loader["input_bound"]
    names = [op["name"] for op in prof["top_ops"]]
    assert any(n.startswith("aten::") for n in names)
    assert not any(n.startswith("enumerate(DataLoader)") for n in names)
    assert prof["copies"] is None and prof["notes"]
    assert any("input-bound" in n for n in report.notes)
    assert Report.from_json(report.to_json()).torch_profile == prof


def test_fast_loader_is_not_input_bound(measure: Any, ip: Any) -> None:
    pytest.importorskip("torch")
    # whole batches per fetch (a batch sampler over a tensor dataset): loading is cheap
    ip.run_cell(
        SETUP + "data = torch.utils.data.TensorDataset(torch.randn(2048, 32), torch.randint(0, 2, (2048,)))\n"
        "batches = torch.utils.data.BatchSampler(range(2048), batch_size=256, drop_last=False)\n"
        "loader = DataLoader(data, sampler=batches, batch_size=None)"
    )
    report = measure(
        "for epoch in range(5):\n" + "".join("    " + line + "\n" for line in TRAIN.splitlines()), "--torch-profile"
    )
    assert report.torch_profile is not None
    assert report.torch_profile["dataloader"]["share"] < 0.5


def test_without_the_flag_nothing_is_profiled(measure: Any, ip: Any) -> None:
    pytest.importorskip("torch")
    ip.run_cell(SETUP + "loader = DataLoader(Batches(0.0), batch_size=16)")
    assert measure(TRAIN).torch_profile is None


def test_without_torch_a_note_and_no_import(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delitem(sys.modules, "torch", raising=False)
    run = SimpleNamespace(options=SimpleNamespace(torch_profile=True), notes=[], state={})
    stage = TorchProfileStage()
    stage.before(run)  # type: ignore[arg-type]
    report = Report(source="")
    stage.after(run, report)  # type: ignore[arg-type]
    assert "torch" not in sys.modules
    assert report.torch_profile is None and "not imported" in run.notes[0]


def test_a_cancelled_run_does_not_leave_the_profiler_running() -> None:
    torch = pytest.importorskip("torch")
    from torch.autograd import _profiler_enabled

    stage = TorchProfileStage()
    run = SimpleNamespace(options=SimpleNamespace(torch_profile=True), notes=[], state={})
    stage.before(run)  # type: ignore[arg-type]
    assert _profiler_enabled()
    torch.ones(3).sum()
    stage.cancel(run)  # type: ignore[arg-type]
    assert not _profiler_enabled()
    # and a run that never reached after() is cleaned up by the next cell's before()
    stage.before(run)  # type: ignore[arg-type]
    nxt = SimpleNamespace(options=SimpleNamespace(torch_profile=False), notes=[], state={})
    stage.before(nxt)  # type: ignore[arg-type]
    assert not _profiler_enabled() and "interrupted" in nxt.notes[0]
