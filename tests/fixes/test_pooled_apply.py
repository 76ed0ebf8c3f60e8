"""AIP402 on a Series.apply whose function makes a request per element (found by the run): the
function is mapped over a thread pool and the list stored as the column, in the same order; refused
where a list would not be that column (another frame's column, a Series kept as it is, extra apply
arguments)."""

from __future__ import annotations

import libcst as cst
import pytest

from aiperf_magic.cell.tree import walk_all
from aiperf_magic.fixes.edits import Edits, rewrite_python
from aiperf_magic.rules import all_rules, analyze_cell


def rewrite(source: str) -> str:
    analysis = analyze_cell(source, select=["AIP402"])
    cell, facts = analysis.cell, analysis.facts
    assert cell is not None and facts is not None
    call = next(n for n in walk_all(cell.module) if isinstance(n, cst.Call) and isinstance(n.func, cst.Attribute)
                and n.func.attr.value in ("apply", "map"))
    fixer = all_rules()["AIP402"].fixer
    assert fixer is not None
    edits = fixer(cell, call, facts)
    if not isinstance(edits, Edits):
        return edits
    out = rewrite_python(cell, [edits])
    assert out is not None
    return out


def test_the_column_is_the_pooled_map_of_the_same_function() -> None:
    out = rewrite('import requests\n'
                  'stations["bikes"] = stations["station_id"].apply(  # one request per station\n'
                  '    lambda sid: requests.get(f"http://x/{sid}", timeout=10).json()["value"])\n')
    assert out == ('from concurrent.futures import ThreadPoolExecutor\nimport requests\n'
                   'with ThreadPoolExecutor() as pool:\n'
                   '    stations["bikes"] = list(pool.map(lambda sid: requests.get(f"http://x/{sid}", timeout=10)'
                   '.json()["value"], stations["station_id"]))  # one request per station\n'), out


@pytest.mark.parametrize(("source", "why"), [
    ('enriched["bikes"] = stations["id"].apply(fetch)\n', "not a column of the frame the result goes to"),
    ('bikes = stations["id"].apply(fetch)\n', "not stored as a column"),
    ('stations["bikes"] = stations["id"].apply(fetch, args=(3,))\n', "passes more than the function"),
    ('stations["bikes"] = stations["id"].map(fetch, na_action="ignore")\n', "passes more than the function"),
])
def test_no_pool_where_a_list_would_not_be_that_column(source: str, why: str) -> None:
    assert why in rewrite("def fetch(i):\n    return i\n" + source)
