"""AIP302 for a row function that assigns to the row and returns it (found by the run): a copy of the
frame and one column assignment per statement, equal to apply's frame (values, dtypes, column order)
where the frame holds text; refused where apply's rows are one numeric dtype, or the function does more."""

from __future__ import annotations

from typing import Any

import libcst as cst
import pytest

from aiperf_magic.cell.tree import walk_all
from aiperf_magic.rules import analyze_cell
from aiperf_magic.verification.compare import first_difference
from tests.fixes.fixer_output import rewritten

pd = pytest.importorskip("pandas")
np = pytest.importorskip("numpy")

CELL = '''def fill_totals(row):
    """Totals and a discount."""
    row["total"] = row["price"] * row["qty"]
    row["discount"] = 0.1 if row["qty"] > 3 else 0.0
    row["price"] = row["total"] / 2
    row["source"] = "web"
    return row


priced = orders.apply(fill_totals, axis=1)
'''


def orders(text: bool = True) -> Any:
    r = np.random.default_rng(5)
    frame = pd.DataFrame({"price": r.gamma(2.0, 10.0, 300).round(2), "qty": r.integers(1, 8, 300)})
    if text:
        frame.insert(0, "product", [f"p{i % 7}" for i in range(300)])
    return frame


def rewrite(source: str, ns: dict[str, Any]) -> str:
    analysis = analyze_cell(source, namespace=ns)
    assert analysis.cell is not None and analysis.facts is not None
    call = next(n for n in walk_all(analysis.cell.module) if isinstance(n, cst.Call)
                and analysis.cell.code(n.func).endswith(".apply"))
    return rewritten(analysis, "AIP302", call)


def test_the_rows_assignments_become_column_assignments_on_a_copy() -> None:
    ns = {"pd": pd, "np": np, "orders": orders()}
    out = rewrite(CELL, ns)
    assert 'priced = orders.copy()\npriced["total"] = priced["price"] * priced["qty"]\n' in out, out
    assert 'priced["discount"] = np.where(priced["qty"] > 3, 0.1, 0.0)\n' in out
    assert 'priced["price"] = priced["total"] / 2\npriced["source"] = "web"\n' in out  # in order, reading the last
    before, after = {**ns, "orders": orders()}, {**ns, "orders": orders()}
    exec(CELL, before)
    exec(out, after)
    assert first_difference(before["priced"], after["priced"], "priced", []) is None
    assert first_difference(before["orders"], after["orders"], "orders", []) is None  # the frame is not changed


@pytest.mark.parametrize(("source", "text", "why"), [
    (CELL, False, "every column of orders is a number"),
    (CELL.replace("    return row\n", "    print(row)\n    return row\n"), True, "does more than assign"),
    (CELL.replace("priced = orders.apply(fill_totals, axis=1)", "orders.apply(fill_totals, axis=1).head()"), True,
     "not bound to a name"),
    (CELL.replace('row["source"] = "web"', 'row["source"] = str(row["qty"])'), True, "not element-wise"),
])
def test_no_rewrite_where_the_columns_would_differ(source: str, text: bool, why: str) -> None:
    assert why in rewrite(source, {"pd": pd, "np": np, "orders": orders(text)})
