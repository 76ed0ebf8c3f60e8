"""Preconditions of fixers that the golden counterexamples cannot show as text alone: the rewrite
of a loader whose options come through ``**kwargs`` must run where the options carry the same key."""

from __future__ import annotations

import warnings

import libcst as cst

from aiperf_magic.cell.tree import walk_all
from aiperf_magic.fixes.edits import Edits, rewrite_python
from aiperf_magic.rules import all_rules, analyze_cell

LOADER = """\
import torch
from torch.utils.data import DataLoader, TensorDataset

dataset = TensorDataset(torch.randn(16, 4))
loader = DataLoader(dataset, batch_size=4, {options})
total = 0.0
for (xb,) in loader:
    xb = xb.to("cpu")
    total += float(xb.sum())
"""


def _fixed(source: str) -> str:
    analysis = analyze_cell(source, select=["AIP102"])
    cell, facts = analysis.cell, analysis.facts
    assert cell is not None and facts is not None
    move = next(n for n in walk_all(cell.module) if isinstance(n, cst.Call) and cell.code(n.func) == "xb.to")
    fixer = all_rules()["AIP102"].fixer
    assert fixer is not None
    edits = fixer(cell, move, facts)
    assert isinstance(edits, Edits)
    out = rewrite_python(cell, [edits])
    assert out is not None
    return out


def test_pin_memory_merges_with_star_kwargs_and_never_duplicates() -> None:
    out = _fixed(LOADER.format(options="**kwargs"))
    assert 'DataLoader(dataset, batch_size=4, **{"pin_memory": True, **kwargs})' in out
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # pin_memory without an accelerator only warns
        ns: dict = {"kwargs": {"pin_memory": True, "num_workers": 0}}
        exec(out, ns)  # "got multiple values for keyword argument 'pin_memory'" before the merge
        assert ns["loader"].pin_memory is True
        ns = {"kwargs": {"pin_memory": False}}
        exec(out, ns)
        assert ns["loader"].pin_memory is False  # the options the code passed win


def test_an_explicit_pin_memory_stays_as_written() -> None:
    out = _fixed(LOADER.format(options="pin_memory=False"))
    assert "pin_memory=False" in out and "pin_memory=True" not in out
    assert "non_blocking=True" in out
