"""Properties of the comparison over many kinds of values (hypothesis): a value equals a deep copy of
itself; any single change (an element, a dtype, a name, the order of a dict's keys, a type) is a
difference; comparing any two values never raises."""

from __future__ import annotations

import collections
import copy
import datetime
import decimal
from typing import Any

import numpy as np
import pandas as pd
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from aiperf_magic.verification.compare import first_difference

SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


class Box:
    """A user object without ``__eq__``: compared by its state."""

    def __init__(self, content: Any) -> None:
        self.content = content


scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=8),
    st.binary(max_size=8),
    st.decimals(allow_nan=False, allow_infinity=False, places=3),
    st.datetimes(timezones=st.sampled_from([None, datetime.timezone.utc])),
)
dtypes = st.sampled_from(["int64", "int32", "float64", "float32", "bool", "complex128", "U3", "datetime64[s]"])
arrays = dtypes.flatmap(lambda d: hnp.arrays(d, hnp.array_shapes(max_dims=2, max_side=4)))
series = st.builds(
    lambda values, name: pd.Series(values, name=name),
    st.lists(st.floats(allow_nan=True, allow_infinity=False, width=64), max_size=5),
    st.sampled_from([None, "a", 0]),
)
frames = st.builds(
    lambda n, seed: pd.DataFrame({"i": np.arange(n), "f": np.random.default_rng(seed).random(n), "s": ["x"] * n}),
    st.integers(0, 4),
    st.integers(0, 10),
)
values = st.recursive(
    st.one_of(scalars, arrays, series, frames),
    lambda inner: st.one_of(
        st.lists(inner, max_size=4),
        st.lists(inner, max_size=4).map(tuple),
        st.dictionaries(st.text(max_size=3), inner, max_size=4),
        st.dictionaries(st.text(max_size=3), inner, max_size=3).map(lambda d: collections.defaultdict(list, d)),
        inner.map(Box),
    ),
    max_leaves=12,
)


def equal(a: Any, b: Any) -> bool:
    return first_difference(a, b, "v", []) is None


@SETTINGS
@given(values)
def test_a_value_equals_a_deep_copy_of_itself(value: Any) -> None:
    assert equal(value, copy.deepcopy(value)), first_difference(value, copy.deepcopy(value), "v", [])


@SETTINGS
@given(values, values)
def test_comparing_never_raises(a: Any, b: Any) -> None:
    said = first_difference(a, b, "v", [])
    assert said is None or (isinstance(said, str) and said.startswith("v"))


def _changed(leaf: Any) -> Any:
    """One change a user would see in a leaf value."""
    if leaf is None:
        return 0
    if isinstance(leaf, bool):
        return not leaf
    if isinstance(leaf, int):
        return leaf + 1
    if isinstance(leaf, float):
        return leaf * 2 + 1 if leaf == leaf and abs(leaf) < 1e300 else 0.5
    if isinstance(leaf, (str, bytes)):
        return leaf + leaf[:0] + (b"!" if isinstance(leaf, bytes) else "!")
    if isinstance(leaf, decimal.Decimal):
        return leaf + 1
    if isinstance(leaf, datetime.datetime):
        return leaf + datetime.timedelta(seconds=1) if leaf.year < 9999 else leaf - datetime.timedelta(seconds=1)
    if isinstance(leaf, np.ndarray):
        return leaf.astype(object)  # a dtype change (the same values)
    if isinstance(leaf, pd.Series):
        return leaf.rename("renamed")
    if isinstance(leaf, pd.DataFrame):
        return leaf.rename(columns={"f": "g"})
    raise AssertionError(type(leaf))


def _mutate(value: Any, data: st.DataObject) -> Any:
    """``value`` with exactly one leaf changed, chosen by ``data``."""
    if isinstance(value, Box):
        return Box(_mutate(value.content, data))
    if isinstance(value, (list, tuple)) and value:
        i = data.draw(st.integers(0, len(value) - 1))
        items = list(value)
        items[i] = _mutate(items[i], data)
        return type(value)(items)
    if isinstance(value, dict) and value:
        key = data.draw(st.sampled_from(sorted(value)))
        out = copy.copy(value)
        out[key] = _mutate(value[key], data)
        return out
    if isinstance(value, (list, tuple, dict)):  # empty: change its type instead
        return {list: tuple, tuple: list}.get(type(value), list)(value)
    return _changed(value)


@SETTINGS
@given(values, st.data())
def test_any_single_change_is_a_difference(value: Any, data: st.DataObject) -> None:
    changed = _mutate(value, data)
    assert not equal(value, changed), (value, changed)


@SETTINGS
@given(st.dictionaries(st.text(max_size=3), st.integers(), min_size=2, max_size=5))
def test_the_order_of_a_dicts_keys_is_observed(d: dict) -> None:
    reordered = dict(reversed(list(d.items())))
    assert not equal(d, reordered) and "another order" in (first_difference(d, reordered, "v", []) or "")


@SETTINGS
@given(st.lists(st.integers(-5, 5), min_size=1, max_size=5))
def test_a_change_of_container_type_is_a_difference(items: list) -> None:
    for other in (tuple(items), np.array(items), pd.Series(items), set(items), collections.deque(items)):
        assert not equal(items, other)
    assert not equal(items, [float(v) for v in items])  # int became float, whatever the values
