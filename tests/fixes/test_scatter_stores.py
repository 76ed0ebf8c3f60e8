"""AIP201 for an enumerate loop storing a constant at one position per item (one-hot encodings), called
on the loop directly (inside %%aiperf the run finds it): one advanced-index store, equal to the loop's
stores on torch tensors and NumPy arrays, through chained indexing and a Python function of the item."""

from __future__ import annotations

from typing import Any

import libcst as cst
import pytest

from aiperf_magic.rules import analyze_cell
from tests.fixes.fixer_output import rewritten

torch = pytest.importorskip("torch")
np = pytest.importorskip("numpy")

LINE = """\
def to_tensor(line):
    tensor = torch.zeros(len(line), 1, n_letters)
    for li, letter in enumerate(line):
        tensor[li][0][all_letters.find(letter)] = 1
    return tensor
"""
CODES = """\
codes = np.zeros((len(word), 1, len(letters)))
for li, letter in enumerate(word):
    codes[li][0][letters.find(letter)] = 1.0
"""


def rewrite(source: str) -> str:
    analysis = analyze_cell(source)
    assert analysis.cell is not None and analysis.facts is not None
    loop = next(n for n in analysis.facts.loops).node
    assert isinstance(loop, cst.For)
    return rewritten(analysis, "AIP201", loop)


def test_chained_indexing_through_a_function_of_the_item_stores_the_same() -> None:
    out = rewrite("import torch\n" + LINE)
    assert "tensor[torch.arange(len(line)), 0, torch.tensor([all_letters.find(letter) for letter in line], " \
           "dtype=torch.long)] = 1" in out, out
    ns: dict[str, Any] = {"all_letters": "abc .", "n_letters": 5}
    before, after = dict(ns), dict(ns)
    exec("import torch\n" + LINE, before)
    exec(out, after)
    for word in ("", "a", "cab ab", "zzz"):  # "z" is not a letter: find gives -1, the last position, in both
        assert torch.equal(before["to_tensor"](word), after["to_tensor"](word)), word


def test_an_array_made_with_np_zeros() -> None:
    out = rewrite("import numpy as np\n" + CODES)
    assert "codes[np.arange(len(word)), 0, np.array([letters.find(letter) for letter in word], dtype=np.intp)] = 1.0" \
           in out, out
    ns: dict[str, Any] = {"letters": "abcdefg", "word": "badcafe" * 50}
    before, after = dict(ns), dict(ns)
    exec("import numpy as np\n" + CODES, before)
    exec(out, after)
    assert np.array_equal(before["codes"], after["codes"]) and after["codes"].dtype == before["codes"].dtype


@pytest.mark.parametrize(("source", "why"), [
    ("import torch\nt = torch.zeros(5, 3)\nfor i, x in enumerate(xs):\n    t[i, x] = x\n", "not a number"),
    ("import torch\nt = torch.zeros(5, 3)\nfor i, x in enumerate(xs, 1):\n    t[i, x] = 1\n", "starts elsewhere"),
    ("import torch\nt = torch.zeros(5, 3)\nfor i, x in enumerate(load()):\n    t[i, x] = 1\n", "name them first"),
    ("t = make()\nfor i, x in enumerate(xs):\n    t[i, x] = 1\n", "not a tensor or an array made just before"),
    ("import torch\nt = torch.zeros(5, 3, 3)\nfor i, x in enumerate(xs):\n    t[i, x, x] = 1\n", "one index computed"),
    ("import torch\nt = torch.zeros(5, 3)\nfor i, x in enumerate(xs):\n    t[i, x] = 1\n    n = i\n", "more than one"),
])
def test_no_rewrite_where_one_indexing_would_not_store_the_same(source: str, why: str) -> None:
    assert why in rewrite(source)


def test_a_one_hot_encoding_of_a_label_tensor() -> None:
    source = ("import torch\none_hot = torch.zeros(len(labels), 10)\nfor i, label in enumerate(labels):\n"
              "    one_hot[i, label] = 1\n")
    out = rewrite(source)
    assert "one_hot[torch.arange(len(labels)), torch.as_tensor(labels, dtype=torch.long)] = 1" in out, out
    ns: dict[str, Any] = {"labels": torch.randint(0, 10, (500,))}
    before, after = dict(ns), dict(ns)
    exec(source, before)
    exec(out, after)
    assert torch.equal(before["one_hot"], after["one_hot"])
