"""Fix generation costs in proportion to the findings: one cell with 200 row loops gets every
rewrite and diff in well under the time of detecting them twice (it once took 30 s)."""

from __future__ import annotations

import time

from aiperf_magic.rules import analyze


def _cell(n: int) -> str:
    head = "import numpy as np\nimport pandas as pd\n\nrng = np.random.default_rng(0)\n"
    return head + "".join(
        f"df{i} = pd.DataFrame({{'a': rng.random(1000), 'b': rng.random(1000)}})\n"
        f"for idx, row in df{i}.iterrows():\n    df{i}.loc[idx, 'c'] = row['a'] * row['b']\n"
        for i in range(n)
    )


def _best(fn, repeat: int = 2) -> float:  # type: ignore[no-untyped-def]
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times)


def test_two_hundred_findings_in_one_cell_get_their_fixes_in_linear_time() -> None:
    source = _cell(200)
    found = analyze(source, select=["ALL"])
    assert len(found) == 200 and all(f.fixable for f in found)
    detect = _best(lambda: analyze(source, select=["ALL"], fixes=False))
    with_fixes = _best(lambda: analyze(source, select=["ALL"]))
    assert with_fixes - detect < max(1.0, detect), (detect, with_fixes)
