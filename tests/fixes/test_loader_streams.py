"""AIP101 with the run: loader workers are not proposed for a dataset that holds a random stream of
its own (a NumPy Generator or RandomState, a ``random.Random``, a torch Generator), found by its type
on the live dataset or on an object it holds, whatever its name: each worker would draw from a copy.
A dataset without one gets the rewrite; a DataLoader compares by what it yields, not by its workers."""

from __future__ import annotations

import random
from typing import Any

import pytest

from aiperf_magic.rules import analyze_cell
from aiperf_magic.rules.fixing import attach_fixes
from aiperf_magic.verification.compare import first_difference

torch = pytest.importorskip("torch")
np = pytest.importorskip("numpy")
from torch.utils.data import DataLoader, Dataset  # noqa: E402


class Jitter:
    def __init__(self, stream: Any) -> None:
        self.stream = stream

    def __call__(self, x: Any) -> Any:
        return x


class Samples(Dataset):  # type: ignore[misc]
    def __init__(self, transform: Any = None, noise: Any = None) -> None:
        self.data = np.arange(4000.0).reshape(1000, 4)
        self.transform, self.noise = transform, noise

    def __len__(self) -> int:
        return len(self.data)

    def __getitem__(self, i: int) -> Any:
        return torch.as_tensor(self.data[i] * 2.0)


CELL = "loader = DataLoader(Samples(), batch_size=32, shuffle=True)\nfor xb in loader:\n    xb.sum()\n"


def fix_for(dataset: Any) -> Any:
    ns = {"DataLoader": DataLoader, "Samples": Samples, "loader": DataLoader(dataset, batch_size=32)}
    analysis = analyze_cell(CELL, select=["AIP101"], namespace=ns)
    attach_fixes(analysis)
    (finding,) = [f for f in analysis.findings if f.code == "AIP101"]
    return finding.fix


@pytest.mark.parametrize(("dataset", "said"), [
    (Samples(noise=np.random.default_rng(0)), "dataset.noise is a numpy.random.Generator"),
    (Samples(noise=np.random.RandomState(0)), "dataset.noise is a numpy.random.RandomState"),
    (Samples(transform=Jitter(random.Random(1))), "dataset.transform.stream is a random.Random"),
    (Samples(transform=[Jitter(torch.Generator())]), "dataset.transform[0].stream is a torch.Generator"),
])
def test_a_dataset_holding_a_random_stream_gets_no_workers(dataset: Any, said: str) -> None:
    fix = fix_for(dataset)
    assert not fix.source and said in (fix.reason or ""), fix.reason


def test_a_dataset_without_one_gets_the_workers() -> None:
    fix = fix_for(Samples(transform=Jitter(None)))
    assert fix.source and "num_workers=" in fix.source, fix.reason


def test_a_loader_compares_by_what_it_yields_not_by_its_workers() -> None:
    data = Samples()
    assert first_difference(DataLoader(data, batch_size=8), DataLoader(data, batch_size=8, num_workers=2,
                            persistent_workers=True, pin_memory=True), "loader", []) is None
    other = first_difference(DataLoader(data, batch_size=8), DataLoader(data, batch_size=16), "loader", [])
    assert other is not None and other.startswith("loader.batch"), other
