"""pandas Index, MultiIndex and categoricals compare (they used to keep Apply disabled), and so do NA/NaT;
a dtype change is a difference, never a note."""

from __future__ import annotations

import threading

import numpy as np
import pandas as pd
import pytest

from aiperf_magic import verify
from aiperf_magic.verification.compare import first_difference


def diff(a: object, b: object) -> tuple[str | None, list[str]]:
    notes: list[str] = []
    return first_difference(a, b, "x", notes), notes


def test_index_equal_different_and_renamed() -> None:
    assert diff(pd.Index([1, 2, 3]), pd.Index([1, 2, 3]))[0] is None
    assert diff(pd.Index([1, 2, 3]), pd.Index([1, 2, 4]))[0] == "x[2]: 3 != 4"
    assert diff(pd.Index([1, 2], name="a"), pd.Index([1, 2], name="b"))[0] == "x: names ['a'] became ['b']"
    assert diff(pd.Index([1, 2]), pd.Index([1, 2, 3]))[0] == "x: length 2 became 3"
    assert diff(pd.Index([1.0, 2.0]), pd.Index([1, 2]))[0] == "x: dtype float64 became int64"


def test_multiindex_compares_tuples_and_levels() -> None:
    mi = pd.MultiIndex.from_tuples([("a", 1), ("b", 2)], names=["k", "n"])
    assert diff(mi, mi.copy())[0] is None
    other = pd.MultiIndex.from_tuples([("a", 1), ("b", 3)], names=["k", "n"])
    assert diff(mi, other)[0] == "x[1]: ('b', 2) != ('b', 3)"
    assert "became" in (diff(mi, pd.Index(["a", "b"]))[0] or "")
    frame = pd.DataFrame({"v": [1.0, 2.0]}, index=mi)
    assert diff(frame, frame.copy())[0] is None


def test_categoricals_compare_labels_and_categories() -> None:
    c = pd.Categorical(["x", "y", "x"])
    assert diff(c, c.copy())[0] is None
    reordered = pd.Categorical(["x", "y", "x"], categories=["y", "x"])
    assert diff(c, reordered)[0] == "x: categories ['x', 'y'] became ['y', 'x']"
    assert diff(pd.Series(c), pd.Series(c).astype(object))[0] == "x: dtype category became object"
    assert diff(pd.CategoricalIndex(["a", "b"]), pd.CategoricalIndex(["a", "b"]))[0] is None


def test_missing_values_equal_themselves() -> None:
    assert diff(pd.NaT, pd.NaT)[0] is None and diff(pd.NA, pd.NA)[0] is None
    s = pd.Series(["a", None], dtype="string")
    assert diff(s, s.copy())[0] is None
    assert diff(pd.Series([1, None], dtype="Int64"), pd.Series([1, None], dtype="Int64"))[0] is None


def test_handles_are_not_compared() -> None:
    assert diff(threading.Lock(), threading.Lock())[0] is None


@pytest.mark.parametrize(
    "cell",
    [
        "out = df.groupby('k')['v'].sum().index\n",
        "out = df.set_index(['k', 'n']).index\n",
        "out = df['k'].astype('category')\n",
    ],
)
def test_a_try_of_index_and_categorical_results_proves_equal(cell: str) -> None:
    df = pd.DataFrame({"k": list("abab"), "n": np.arange(4), "v": np.arange(4.0)})
    c = verify(cell, cell, {"__name__": "__main__", "df": df}, repeat=1)
    assert c.equal and c.difference is None and not c.error, c


def test_two_classes_of_one_name_are_told_apart_by_their_modules() -> None:
    old = type("GradScaler", (), {"__module__": "torch.cuda.amp.grad_scaler"})
    new = type("GradScaler", (), {"__module__": "torch.amp.grad_scaler"})
    text = first_difference(old(), new(), "scaler", [])
    assert text is not None
    assert "torch.cuda.amp.grad_scaler.GradScaler became torch.amp.grad_scaler.GradScaler" in text
