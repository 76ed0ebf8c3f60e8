"""'Equal' is strict about what a user can observe of a value: each case the issue found called equal
though different is a difference, named with its position; NumPy, random and torch generators compare
by their state, so the same code on both sides is equal; objects without ``__eq__`` by their state."""

from __future__ import annotations

import collections
import random
from dataclasses import dataclass

import numpy as np
import pandas as pd
import pytest

from aiperf_magic import verify
from aiperf_magic.verification.compare import first_difference


def diff(a: object, b: object) -> str | None:
    return first_difference(a, b, "x", [])


SERIES = pd.Series([1.0, 2.0], name="price")
FRAME = pd.DataFrame({"a": [1, 2]}).rename_axis(columns="fields")
TIMES = pd.Series(pd.date_range("2024-01-01", periods=3, freq="D", tz="UTC"))


@pytest.mark.parametrize(
    ("before", "after", "said"),
    [
        (SERIES, SERIES.rename("cost"), "x: name 'price' became 'cost'"),
        (SERIES, SERIES.rename_axis("day"), "x.index: names [None] became ['day']"),
        (FRAME, FRAME.rename_axis(columns=None), "x.columns: names ['fields'] became [None]"),
        (pd.Series([1.0], index=[3]), pd.Series([1.0], index=[3.0]), "x.index: dtype int64 became float64"),
        (TIMES, TIMES.dt.tz_convert("Europe/Paris"), "x: dtype datetime64"),
        (pd.DataFrame({"flag": [True, False]}), pd.DataFrame({"flag": [1, 0]}), "x['flag']: dtype bool became int64"),
        ({"a": 1}, collections.defaultdict(int, a=1), "x: dict became collections.defaultdict"),
        (10**17 + 1, 1e17, "x: int became float (100000000000000001 vs 1e+17)"),
        (np.array([2**53 + 1]), np.array([2**53 + 1], dtype=np.float64), "(int became float)"),
        (pd.Series([2**53 + 1]), pd.Series([float(2**53 + 1)]), "x: dtype int64 became float64 (int became float)"),
        ([1, 2], np.array([1, 2]), "x: list became numpy.ndarray (same values)"),
        (pd.Series([1, 2]), pd.Series([1.0, 2.0]), "x: dtype int64 became float64"),
        ([1.0], [np.float64(1.0)], "x[0]: float became numpy.float64 (same value)"),
        ({"a": 1, "b": 2}, {"b": 2, "a": 1}, "x: the same keys in another order"),
        ({1: "v"}, {1.0: "v"}, "x keys[0]: int became float"),
        ({1, 2}, {1.0, 2}, "int became float"),
        (True, 1, "x: bool became int"),
    ],
)
def test_what_was_called_equal_is_a_difference(before: object, after: object, said: str) -> None:
    assert said in (diff(before, after) or ""), diff(before, after)


def test_categories_and_their_order_are_compared() -> None:
    cat = pd.Series(pd.Categorical(["lo", "hi", "lo"], categories=["lo", "hi"]))
    assert diff(cat, cat.copy()) is None
    assert diff(cat, cat.cat.reorder_categories(["hi", "lo"])) == "x: categories ['lo', 'hi'] became ['hi', 'lo']"
    assert diff(cat, cat.cat.as_ordered()) == "x: ordered False became True"
    assert diff(cat, cat.cat.add_categories(["mid"])) == "x: categories ['lo', 'hi'] became ['lo', 'hi', 'mid']"


def test_the_first_difference_names_the_value_and_the_position() -> None:
    frame = pd.DataFrame({"v": [1.0, 2.0, 3.0]}, index=["a", "b", "c"])
    changed = frame.copy()
    changed.loc["c", "v"] = 3.5
    assert diff(frame, changed) == "x['v'] at row 'c': 3.0 != 3.5"
    assert diff({"k": [1, [2, 3]]}, {"k": [1, [2, 4]]}) == "x['k'][1][1]: 3 != 4"
    assert diff(np.arange(6).reshape(2, 3), np.arange(6).reshape(2, 3) * (np.arange(6).reshape(2, 3) != 4)) == (
        "x[1, 1]: 4 != 0"
    )


def test_float_tolerance_holds_within_a_type_only() -> None:
    assert diff(0.1 + 0.2, 0.3) is None
    assert diff(np.float32(1.0), np.float32(1.0000001)) is None
    assert diff(np.array([1.0, np.nan]), np.array([1.0 + 1e-12, np.nan])) is None
    assert diff(np.float32(1.0), 1.0) == "x: numpy.float32 became float (same value)"
    assert diff(1.0, 1.001) is not None


@pytest.mark.parametrize(
    "make",
    [
        lambda seed: np.random.default_rng(seed),
        lambda seed: np.random.RandomState(seed),
        lambda seed: random.Random(seed),
    ],
)
def test_random_generators_compare_by_their_state(make) -> None:
    a, b = make(0), make(0)
    assert diff(a, b) is None
    b.random() if hasattr(b, "random") else b.rand()
    assert "at another point of its stream" in (diff(a, b) or "")


def test_torch_generators_compare_by_their_state() -> None:
    torch = pytest.importorskip("torch")
    a, b = torch.Generator().manual_seed(3), torch.Generator().manual_seed(3)
    assert diff(a, b) is None
    torch.rand(2, generator=b)
    assert "at another point of its stream" in (diff(a, b) or "")


@pytest.mark.parametrize("isolation", ["auto", "in-process"])
def test_a_generator_in_the_namespace_no_longer_blocks_apply(isolation: str) -> None:
    ns = {"__name__": "__main__", "rng": np.random.default_rng(0)}
    same = verify("x = rng.normal(size=3)\n", "x = rng.normal(size=3)\n", ns, repeat=1, isolation=isolation)
    assert same.equal and "rng" in same.compared, same.difference
    drew = "x = rng.normal(size=3)\nrng.random();\n"
    other = verify("x = rng.normal(size=3)\n", drew, ns, repeat=1, isolation=isolation)
    assert not other.equal and "rng: the numpy.Generator is at another point" in (other.difference or "")


class Plain:
    def __init__(self, v: object) -> None:
        self.v = v
        self.me = self  # a cycle


class Slotted:
    __slots__ = ("a", "b")

    def __init__(self, a: object) -> None:
        self.a = a


@dataclass
class Point:
    x: float
    y: object


def test_objects_without_eq_compare_by_their_state_with_cycles() -> None:
    assert diff(Plain([1, 2]), Plain([1, 2])) is None
    assert diff(Plain([1, 2]), Plain([1, 3])) == "x.v[1]: 2 != 3"
    assert diff(Slotted(1), Slotted(1)) is None and diff(Slotted(1), Slotted(2)) == "x.a: 1 != 2"
    assert diff(Point(1.0, np.arange(2)), Point(1.0 + 1e-12, np.arange(2))) is None  # its __eq__ would raise
    assert diff(Point(1.0, 1), Point(1.0, 1.0)) == "x.y: int became float (1 vs 1.0)"
    left: list = [1]
    left.append(left)
    right: list = [1]
    right.append(right)
    assert diff(left, right) is None
    assert diff(object(), object()) is None


def test_comparing_never_raises() -> None:
    class Rude:
        __slots__ = ()

        def __eq__(self, other: object) -> bool:
            raise RuntimeError("no")

        def __reduce_ex__(self, protocol: object) -> object:
            raise RuntimeError("no")

    assert diff(Rude(), Rude()) == "x: values of type tests.Rude cannot be compared"

    class Liar:
        def __eq__(self, other: object) -> object:
            return np.array([True, False])  # not a bool: the state decides

    assert diff(Liar(), Liar()) is None


@pytest.mark.parametrize("isolation", ["auto", "in-process"])
def test_a_values_own_eq_is_user_code_and_runs_guarded(tmp_path, isolation: str) -> None:
    log = tmp_path / "eq.log"
    ns: dict = {"__name__": "__main__"}
    exec(
        "class Noisy:\n    def __init__(self, v):\n        self.v = v\n"
        f"    def __eq__(self, other):\n        open({str(log)!r}, 'a').write('compared')\n        return True\n",
        ns,
    )
    c = verify("n = Noisy(1)\n", "n = Noisy(2)\n", ns, repeat=1, isolation=isolation)
    assert not log.exists() and not c.equal and c.blocked and str(log) in c.blocked
