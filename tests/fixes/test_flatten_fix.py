"""AIP203 for sum(lists, []) (found by the run): one pass with itertools.chain.from_iterable, the same
items in the same order, only where the run shows every item is a list (sum raises on a tuple)."""

from __future__ import annotations

from typing import Any

import libcst as cst

from aiperf_magic.cell.tree import walk_all
from aiperf_magic.rules import analyze_cell
from tests.fixes.fixer_output import rewritten

CELL = "from collections import Counter\nall_tokens = sum(tokenized, [])  # flatten\ntop = Counter(all_tokens)\n"


def rewrite(source: str, ns: dict[str, Any]) -> str:
    analysis = analyze_cell(source, namespace=ns)
    assert analysis.cell is not None and analysis.facts is not None
    call = next(n for n in walk_all(analysis.cell.module)
                if isinstance(n, cst.Call) and analysis.cell.code(n.func) == "sum")
    return rewritten(analysis, "AIP203", call)


def test_a_list_of_lists_is_flattened_in_one_pass() -> None:
    ns = {"tokenized": [["a", "b"], [], ["c"]]}
    out = rewrite(CELL, ns)
    assert "all_tokens = list(chain.from_iterable(tokenized))  # flatten" in out
    assert "from itertools import chain" in out
    before: dict[str, Any] = dict(ns)
    after: dict[str, Any] = dict(ns)
    exec(CELL, before)
    exec(out, after)
    assert before["all_tokens"] == after["all_tokens"] and type(after["all_tokens"]) is list


def test_no_rewrite_where_an_item_is_not_a_list_or_the_start_is_not_empty() -> None:
    assert "every item of tokenized is a list" in rewrite(CELL, {"tokenized": [["a"], ("b",)]})
    assert "every item of tokenized is a list" in rewrite(CELL, {})  # without a run nothing is known
    assert "empty list to start from" in rewrite(CELL.replace("[])", "['start'])"), {"tokenized": [["a"]]})
