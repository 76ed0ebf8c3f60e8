"""AIP402 from the run for a database query per item (the N+1 queries shape): the same statement
sent once per iteration through a live DB-API cursor, whether the database waits on a network or
runs in the process. A single query, a few queries, or a statement that is not a database's stay
silent."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from typing import Any

import pytest

from aiperf_magic.report import Hotspot

from .test_from_run import hot, run_on

pd = pytest.importorskip("pandas")

PER_ROW = ("cur = con.cursor()\nnames = []\nfor pid in lines['product_id']:\n"
           "    name, price = cur.execute('SELECT name, price FROM products WHERE id = ?', (int(pid),)).fetchone()\n"
           "    names.append(name)\n")


@pytest.fixture
def db() -> Iterator[dict[str, Any]]:
    con = sqlite3.connect(":memory:")
    con.execute("CREATE TABLE products (id INTEGER PRIMARY KEY, name TEXT, price REAL)")
    yield {"con": con, "cur": con.cursor(), "names": [], "pd": pd,
           "lines": pd.DataFrame({"product_id": [i % 50 for i in range(20_000)]})}
    con.close()


def _spots(line: int = 4) -> list[Hotspot]:
    return [hot(line, 0.93, samples=108, loop_line=3), hot(5, 0.02, samples=2, loop_line=3)]


def test_a_query_per_row_is_found_with_the_number_of_queries(db: dict[str, Any]) -> None:
    (found,) = run_on(PER_ROW, _spots(), db)
    assert (found.code, found.line) == ("AIP402", 4) and found.evidence["requests"] == 20_000
    assert "20,000 queries one after another" in found.message and "sqlite3.Cursor" in found.message
    assert "JOIN" in found.message and found.fix is not None and not found.fixable
    assert "thread pool" in (found.fix.reason or "")


def test_few_queries_or_a_non_database_execute_stay_silent(db: dict[str, Any]) -> None:
    few = dict(db, lines=pd.DataFrame({"product_id": list(range(20))}))
    assert run_on(PER_ROW, _spots(), few) == []

    class Runner:
        def execute(self, *args: Any) -> Any:
            return self

    other = dict(db, cur=Runner())
    assert "AIP402" not in [f.code for f in run_on(PER_ROW.replace("cur = con.cursor()\n", "x = 1\n"), _spots(), other)]


def test_one_query_for_all_the_rows_stays_silent(db: dict[str, Any]) -> None:
    once = ("products = pd.read_sql('SELECT id, name FROM products', con)\n"
            "out = lines.merge(products, left_on='product_id', right_on='id')\n")
    assert run_on(once, [hot(1, 0.9, samples=50)], db) == []
