"""AIP101 from the run for a DataLoader over a Python list of tensors (``list(zip(x, y))``): no
Python of the user's runs per sample, yet each batch indexes its samples one by one and stacks them;
a TensorDataset, a list of other objects, or batches that cost little stay silent."""

from __future__ import annotations

from typing import Any

import pytest

from aiperf_magic.report import Hotspot

from .test_from_run import hot, run_on
from .test_from_run_hand_over import run_on as run_with_functions

torch = pytest.importorskip("torch")
data = pytest.importorskip("torch.utils.data")

LOOP = "for xb, yb in dl:\n    loss = model(xb).sum()\n    loss.backward()\n"


def _spots(loading: float) -> list[Hotspot]:
    n = 20
    return [hot(1, loading, samples=n, callees={"_BaseDataLoaderIter.__next__": n}, loop_line=1, loop_count=49,
                types={"dl": "torch.utils.data.dataloader.DataLoader"}),
            hot(3, 0.9 - loading, samples=n, callees={"Tensor.backward": n}, loop_line=1, loop_count=49)]


def _ns(dataset: Any) -> dict[str, Any]:
    return {"dl": data.DataLoader(dataset, batch_size=256), "model": torch.nn.Linear(784, 1)}


X, Y = torch.rand(1_000, 784), torch.rand(1_000, 1)


def test_a_loader_over_a_list_of_tensor_pairs_is_found_with_what_each_batch_does() -> None:
    (found,) = [f for f in run_on(LOOP, _spots(0.45), _ns(list(zip(X, Y, strict=True)))) if f.code == "AIP101"]
    assert found.line == 1 and found.evidence["loading_share"] == pytest.approx(0.45)
    assert "indexed 256 items of a list of 1,000 (Tensor, Tensor) pairs one by one" in found.message
    assert "slice each batch from the stacked tensors" in found.message
    assert found.fix is not None and not found.fixable and "torch.stack" in (found.fix.reason or "")


def test_a_tensordataset_loader_stays_silent() -> None:
    found = run_on(LOOP, _spots(0.45), _ns(data.TensorDataset(X, Y)))
    assert "AIP101" not in [f.code for f in found if f.evidence.get("from_run")]


def test_a_list_of_other_objects_or_cheap_batches_stay_silent() -> None:
    assert "AIP101" not in [f.code for f in run_on(LOOP, _spots(0.45), _ns([(i, i) for i in range(1_000)]))
                            if f.evidence.get("from_run")]
    assert "AIP101" not in [f.code for f in run_on(LOOP, _spots(0.05), _ns(list(zip(X, Y, strict=True))))
                            if f.evidence.get("from_run")]


class Batched(data.Dataset):  # type: ignore[misc]
    """A dataset that fetches a whole batch in one call, as Hugging Face datasets do."""

    def __len__(self) -> int:
        return len(X)

    def __getitem__(self, i: int) -> Any:
        return X[i], Y[i]

    def __getitems__(self, indices: list[int]) -> Any:
        idx = torch.as_tensor(indices)
        return X[idx], Y[idx]


def _fetch(share: float) -> list[Hotspot]:
    return [Hotspot(line=13, seconds=share, share=share, samples=10, own_seconds=share,
                    function="Batched.__getitems__", where="cell [1]", file="<batched>")]


def test_a_batched_fetch_is_worth_workers_only_when_it_is_a_real_part_of_the_cell() -> None:
    """One fancy index per batch (10 % of the cell) is cheaper than sending each batch between
    processes; a fetch that is 40 % of the cell is not."""
    ns = {"dl": data.DataLoader(Batched(), batch_size=256, collate_fn=lambda b: b), "model": torch.nn.Linear(784, 1)}
    cheap = run_with_functions(LOOP, _spots(0.25), ns, _fetch(0.1))
    assert "AIP101" not in [f.code for f in cheap if f.evidence.get("from_run")]
    heavy = run_with_functions(LOOP, _spots(0.45), ns, _fetch(0.4))
    assert "AIP101" in [f.code for f in heavy if f.evidence.get("from_run")]
