"""Every name a cell binds or changes is compared, not only those its source assigns: globals that the
functions it calls change or rebind, names it deletes, existing names only the rewrite overwrites;
iterators compare by what they yield; loop variables stay out."""

from __future__ import annotations

import pytest

from aiperf_magic import verify
from aiperf_magic.verification.touched import reachable_globals

BOTH = pytest.mark.parametrize("isolation", ["auto", "in-process"])

HELPERS = """
cache = []
total = 0

def helper(x):
    cache.append(x)

def bump():
    global total
    total += 1

def outer():
    bump()
"""


def _ns() -> dict:
    ns: dict = {"__name__": "__main__"}
    exec(HELPERS, ns)
    return ns


def test_the_globals_reachable_functions_name_are_found() -> None:
    ns = _ns()
    code = compile("outer()\nhelper(1)\n", "<aiperf before>", "exec")
    assert {"cache", "total", "bump"} <= reachable_globals(ns, [code])


@BOTH
def test_a_global_mutated_inside_a_called_function_is_compared(isolation: str) -> None:
    c = verify("helper(1)\n", "helper(2)\n", _ns(), repeat=1, isolation=isolation)
    assert not c.equal and c.difference == "cache[0]: 1 != 2" and "cache" in c.compared
    same = verify("helper(1)\n", "helper(0 + 1)\n", _ns(), repeat=1, isolation=isolation)
    assert same.equal and "cache" in same.compared


@BOTH
def test_a_global_rebound_two_calls_away_is_compared(isolation: str) -> None:
    c = verify("outer()\n", "pass\n", _ns(), repeat=1, isolation=isolation)
    assert not c.equal and c.difference == "total: 1 != 0"


def test_a_name_rebound_without_the_cell_or_its_functions_naming_it_is_compared() -> None:
    ns = {"__name__": "__main__", "state": 0}
    ns["rebind"] = eval("lambda: globals().__setitem__('state', 5)", ns)  # names no global
    c = verify("rebind()\n", "pass\n", ns, repeat=1)
    assert not c.equal and c.difference == "state: 5 != 0"


def test_a_name_the_original_deletes_must_be_gone_after_the_rewrite() -> None:
    ns = {"__name__": "__main__", "tmp": [1], "keep": 1}
    c = verify("y = keep\ndel tmp\n", "y = keep\n", ns, repeat=1)
    assert not c.equal and c.difference == "tmp: deleted by the original, still bound after the rewrite"


@BOTH
def test_an_existing_name_only_the_rewrite_overwrites_is_a_difference(isolation: str) -> None:
    ns = {"__name__": "__main__", "scratch": "user data"}
    c = verify("y = 1\n", "y = 1\nscratch = None\n", ns, repeat=1, isolation=isolation)
    assert not c.equal and c.difference == "scratch: 'user data' became None"


@BOTH
def test_new_names_only_the_rewrite_binds_are_said(isolation: str) -> None:
    c = verify("y = [1, 2]\n", "parts = [1, 2]\ny = parts\n", {"__name__": "__main__"}, repeat=1, isolation=isolation)
    assert c.equal and "names only the rewrite binds (new, not compared): parts" in c.notes, c.notes


@BOTH
def test_iterators_compare_by_what_they_yield(isolation: str) -> None:
    ns = {"__name__": "__main__", "xs": [-1, 2, -3]}
    c = verify("m = map(abs, xs)\n", "m = map(lambda v: -v, xs)\n", ns, repeat=1, isolation=isolation)
    assert not c.equal and c.difference == "m (iterator) item 1: 2 != -2"
    z = verify("z = zip(xs, xs)\n", "z = zip(xs, xs[:2])\n", ns, repeat=1, isolation=isolation)
    assert not z.equal and z.difference == "z (iterator): 3 items became 2"
    same = verify("g = (v * 2 for v in xs)\n", "g = map(lambda v: v * 2, xs)\n", ns, repeat=1, isolation=isolation)
    assert not same.equal and same.difference == "g: generator became map"
    assert verify("m = map(abs, xs)\n", "m = map(abs, list(xs))\n", ns, repeat=1, isolation=isolation).equal


@BOTH
def test_loop_variables_stay_out(isolation: str) -> None:
    c = verify(
        "s = 0\nfor i in range(3):\n    s += i\n",
        "s = sum(range(3))\n",
        {"__name__": "__main__"},
        repeat=1,
        isolation=isolation,
    )
    assert c.equal and c.compared == ["s"]
