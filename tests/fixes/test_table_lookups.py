"""AIP201 for a lookup table read per element inside np.array(...): one indexing with the whole
integer array, the same items of the table's dtype; refused where the run does not show a 1-D
table and an integer array, or where the live objects may not be what the comprehension read."""

from __future__ import annotations

from typing import Any

import pytest

from aiperf_magic.rules import analyze_cell
from tests.fixes.fixer_output import rewritten

np = pytest.importorskip("numpy")

CELL = """\
lut = np.arange(256)[::-1].astype(np.uint8)
equalized = np.array([lut[p] for p in img.flatten()]).reshape(img.shape)
"""


def run(source: str, **values: Any) -> dict[str, Any]:
    ns: dict[str, Any] = {"np": np, **values}
    exec(source, ns)
    return ns


def rewrite(source: str, **values: Any) -> str:
    ns: dict[str, Any] = {"np": np, **values}
    try:
        exec(source, ns)
    except (IndexError, ValueError, AttributeError):  # the cell itself fails (a bool indexes as a mask)
        pass
    analysis = analyze_cell(source, namespace=ns)
    assert analysis.cell is not None and analysis.facts is not None
    comps = [lp.node for lp in analysis.facts.loops if lp.node.__class__.__name__ == "ListComp"]
    return rewritten(analysis, "AIP201", comps[0])


def image(dtype: Any = np.uint8) -> Any:
    return np.random.default_rng(2).integers(0, 256, (30, 40)).astype(dtype)


def test_the_table_is_indexed_with_the_whole_array() -> None:
    out = rewrite(CELL, img=image())
    assert "equalized = np.array(lut[img.flatten()]).reshape(img.shape)" in out, out
    before, after = run(CELL, img=image())["equalized"], run(out, img=image())["equalized"]
    assert np.array_equal(before, after) and before.dtype == after.dtype == np.uint8


def test_negative_items_count_from_the_end_as_they_did() -> None:
    source = "picked = np.asarray([table[k] for k in keys])\n"
    values = {"table": np.linspace(0.0, 1.0, 7), "keys": np.array([0, -1, 3, -7, 6])}
    out = rewrite(source, **values)
    assert "picked = np.asarray(table[keys])" in out, out
    assert np.array_equal(run(source, **values)["picked"], run(out, **values)["picked"])


@pytest.mark.parametrize(("source", "values"), [
    (CELL, {"img": image(bool)}),                       # lut[True] is lut[1], lut[mask] a selection
    (CELL.replace("np.arange(256)[::-1].astype(np.uint8)", "list(range(256))"), {"img": image()}),  # a list
    (CELL + "lut = lut * 2\n", {"img": image()}),                         # the run's lut is not the one read
    (CELL.replace("np.array([lut[p] for p in img.flatten()])", "[lut[p] for p in img.flatten()]"),
     {"img": image()}),                                                   # the list stays a list
    (CELL.replace("img.flatten()", "img"), {"img": image()}),             # 2-D: the items are rows
    ("for _ in range(2):\n" + "".join("    " + line + "\n" for line in CELL.splitlines()), {"img": image()}),
])
def test_no_lookup_where_the_indexing_would_not_give_the_same(source: str, values: dict[str, Any]) -> None:
    out = rewrite(source, **values)
    assert "lut[img" not in out, out  # no rewrite: the comprehension stays, or the reason says why
