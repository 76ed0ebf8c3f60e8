"""A cell whose last line shows how long it took (``f'{time.time() - t:.5f} sec'``): the displayed
text is compared like printed output, its durations left out; any other change to it still counts."""

from __future__ import annotations

from aiperf_magic.verification.observed import DISPLAYED
from aiperf_magic.verification.trial import compare


def test_a_displayed_duration_is_not_compared() -> None:
    notes: list[str] = []
    equal, diff = compare({DISPLAYED: "0.06868 sec"}, {DISPLAYED: "0.00043 sec"}, [DISPLAYED], notes)
    assert equal and diff is None
    equal, diff = compare({DISPLAYED: "took 0.07 s for 100 rows"}, {DISPLAYED: "took 0.01 s for 99 rows"},
                          [DISPLAYED], notes)
    assert not equal and diff is not None and DISPLAYED in diff
    # values are never masked: a number, or a name holding the text, still compares exactly
    assert not compare({DISPLAYED: 0.0687}, {DISPLAYED: 0.0004}, [DISPLAYED], notes)[0]
    assert not compare({"t": "0.06868 sec"}, {"t": "0.00043 sec"}, ["t"], notes)[0]
