"""AIP301 with a lookup in another frame by the row's key (products.loc[order["product_id"], "price"]):
one map over the key column, equal to the loop's values; refused where .loc would not give one value
per row (a repeated label, a key that is missing) or nothing shows the frames (no run)."""

from __future__ import annotations

from typing import Any

import pytest

from aiperf_magic.rules import analyze_cell
from tests.fixes.fixer_output import rewritten

pd = pytest.importorskip("pandas")
np = pytest.importorskip("numpy")

CELL = """\
line_totals = []
for _, order in orders.iterrows():
    line_totals.append(products.loc[order["product_id"], "unit_price"] * order["quantity"])
"""


def frames(products_ids: Any = range(50), keys: Any = None) -> dict[str, Any]:
    r = np.random.default_rng(7)
    products = pd.DataFrame({"product_id": list(products_ids), "unit_price": r.gamma(2.0, 9.0, len(products_ids))})
    keys = r.integers(0, 50, 400) if keys is None else keys
    orders = pd.DataFrame({"product_id": keys, "quantity": r.integers(1, 6, len(keys))})
    return {"pd": pd, "orders": orders, "products": products.set_index("product_id")}


def rewrite(ns: dict[str, Any] | None) -> str:
    analysis = analyze_cell(CELL, namespace=ns)
    assert analysis.cell is not None and analysis.facts is not None
    return rewritten(analysis, "AIP301", analysis.facts.loops[0].node)


def test_a_lookup_by_the_rows_key_is_one_map() -> None:
    ns = frames()
    out = rewrite(ns)
    assert 'orders["product_id"].map(products["unit_price"]) * orders["quantity"]' in out, out
    before, after = dict(ns), dict(ns)
    exec(CELL, before)
    exec(out, after)
    assert [type(v) for v in before["line_totals"]] == [type(v) for v in after["line_totals"]]
    assert np.allclose(before["line_totals"], after["line_totals"], rtol=1e-12)


@pytest.mark.parametrize("ns", [
    frames(products_ids=[*range(49), 3]),  # a repeated label: .loc gives a Series for it
    frames(keys=np.array([1, 2, 60] * 100)),  # 60 is not a product: .loc raises KeyError
    None,  # no run: nothing shows the frames
])
def test_no_map_where_loc_would_not_give_one_value_per_row(ns: dict[str, Any] | None) -> None:
    assert ".map(" not in rewrite(ns)
