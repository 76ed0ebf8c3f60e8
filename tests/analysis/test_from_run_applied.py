"""AIP302 from the run for functions pandas calls per group or per element where the time is the
function's own (a lambda on the hot line): ``groupby(...).apply`` of column arithmetic and a
reduction, and a date parser applied one string at a time. Look-alikes that must stay silent:
groupby's own aggregations, a function of strings, a parser whose time the run did not see."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import pytest

from aiperf_magic.report import Hotspot

from .test_from_run import hot, run_on

np = pytest.importorskip("numpy")
pd = pytest.importorskip("pandas")

GROUPED = ("revenue = retail.groupby('CustomerID').apply(\n"
           "    lambda g: (g['Quantity'] * g['UnitPrice']).sum())\n")
PANDAS_OPS = {"_unpack_zerodim_and_defer.<locals>.new_method": 51, "DataFrame.__getitem__": 31}


def _retail(groups: int = 4_000) -> dict[str, Any]:
    rows = 120_000
    retail = pd.DataFrame({"CustomerID": np.arange(rows) % groups, "Quantity": np.ones(rows),
                           "UnitPrice": np.ones(rows)})
    return {"retail": retail, "revenue": pd.Series(np.ones(groups)), "pd": pd}


def _group_spots(callees: dict[str, int] = PANDAS_OPS) -> list[Hotspot]:
    return [hot(2, 0.9, samples=106, callees=callees, types={"g": "pandas.DataFrame"},
                locals={"g": "DataFrame of 23 rows x 2 columns"}),
            hot(1, 0.09, samples=14, callees={"GroupBy.apply": 14}, types={"retail": "pandas.DataFrame"})]


def test_groupby_apply_of_column_arithmetic_is_found_per_group() -> None:
    (found,) = run_on(GROUPED, _group_spots(), _retail())
    assert (found.code, found.line) == ("AIP302", 1) and found.evidence["groups"] == 4_000
    assert "4,000 times, once per group of the 120,000 rows of retail" in found.message
    assert "DataFrame of 23 rows" in found.message and "groupby's own aggregation" in found.message
    assert found.fix is not None and not found.fixable


def test_groupby_apply_of_a_string_function_or_groupbys_own_sum_stays_silent() -> None:
    strings = "revenue = retail.groupby('CustomerID').apply(\n    lambda g: ' '.join(g['Name']))\n"
    assert run_on(strings, _group_spots(), _retail()) == []
    own = "revenue = retail.groupby('CustomerID')['Quantity'].sum()\n"
    assert run_on(own, [hot(1, 0.9, callees={"GroupBy.sum": 20})], _retail()) == []


PARSED = "trips['start'] = trips['start_time'].apply(lambda s: datetime.strptime(s, '%Y-%m-%d %H:%M:%S'))\n"


def _trips() -> dict[str, Any]:
    stamps = pd.date_range("2019-01-01", periods=120_000, freq="min").strftime("%Y-%m-%d %H:%M:%S")
    return {"trips": pd.DataFrame({"start_time": stamps}), "datetime": datetime, "pd": pd}


def test_a_date_parser_applied_per_element_is_told_of_pandas_own_parser() -> None:
    spots = [hot(1, 0.99, samples=195, callees={"_strptime_datetime": 185, "Series.apply": 3},
                 types={"trips": "pandas.DataFrame"})]
    (found,) = run_on(PARSED, spots, _trips())
    assert (found.code, found.line) == ("AIP302", 1) and found.evidence["rows"] == 120_000
    assert "called datetime.strptime once per element, 120,000 times" in found.message
    assert "pd.to_datetime(trips['start_time'], format=...)" in found.message and not found.fixable


def test_a_parser_whose_time_went_elsewhere_or_a_string_lambda_stays_silent() -> None:
    elsewhere = [hot(1, 0.99, samples=195, callees={"Series.apply": 190}, types={"trips": "pandas.DataFrame"})]
    assert run_on(PARSED, elsewhere, _trips()) == []
    strings = "trips['day'] = trips['start_time'].apply(lambda s: s.split(' ')[0])\n"
    assert run_on(strings, [hot(1, 0.99, samples=195, callees={"str.split": 150})], _trips()) == []
