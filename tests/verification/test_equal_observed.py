"""Everything a run shows is compared, in forked and in-process trials alike: the displayed result (as
IPython shows it), printed output (what varies between two runs of the original is masked, and said),
the exception; a Try that compared nothing is never "equal", and never "Results differ" either."""

from __future__ import annotations

import pytest

from aiperf_magic import verify
from aiperf_magic.render.comparison import headline, render_comparison_text
from aiperf_magic.verification.observed import (
    HEAD_CHARS,
    NOTHING,
    Capture,
    Observed,
    compile_cell,
    masked,
    output_difference,
    take_display,
)

BOTH = pytest.mark.parametrize("isolation", ["auto", "in-process"])


def _try(before: str, after: str, isolation: str, **values: object):
    return verify(before, after, {"__name__": "__main__", **values}, repeat=1, isolation=isolation)


@BOTH
def test_the_displayed_result_is_compared(isolation: str) -> None:
    c = _try("x * 2", "x * 3", isolation, x=2)
    assert not c.equal and c.difference == "the displayed result: 4 != 6"
    same = _try("x * 2", "x + x", isolation, x=2)
    assert same.equal and same.compared == ["x", "the displayed result"]
    shown = _try("y = x\n", "y = x\ny\n", isolation, x=2)
    assert not shown.equal
    assert shown.difference == "the displayed result: the original shows nothing, the rewrite shows 2"


@BOTH
def test_what_ipython_would_not_display_is_not_compared(isolation: str) -> None:
    assert _try("x * 2;", "x * 3;", isolation, x=2).equal  # a trailing ; hides the result
    assert _try("print(x)", "print(x) or None", isolation, x=2).equal  # None is never displayed
    assert _try("x * 2  # double", "x * 3  # triple", isolation, x=2).difference == "the displayed result: 4 != 6"


def test_compiling_keeps_line_numbers_and_ipythons_rules() -> None:
    code = compile_cell("a = 1\n\nraise ValueError(a)\n", "<aiperf before>")
    with pytest.raises(ValueError) as info:
        exec(code, {})
    assert info.traceback[-1].lineno == 2  # 0-based: the cell's line 3
    ns: dict = {}
    exec(compile_cell("a = 5\na + 1\n", "<t>"), ns)
    take_display(ns)
    assert ns["the displayed result"] == 6
    ns = {}
    exec(compile_cell("a = 5\na + 1;  # quiet\n", "<t>"), ns)
    take_display(ns)
    assert "the displayed result" not in ns


@BOTH
def test_printed_output_is_compared(isolation: str) -> None:
    c = _try("print(1)", "print(2)", isolation)
    assert not c.equal and c.difference == "printed output (stdout), line 1: '1\\n' became '2\\n'"
    assert _try("print(1)", "print(1)", isolation).compared == ["printed output"]
    err = _try("import sys\nprint('w', file=sys.stderr)\ny = 1", "y = 1", isolation)
    assert not err.equal and err.difference == "printed output (stderr), line 1: only the original printed 'w\\n'"


@BOTH
def test_output_naming_the_cell_prints_the_same_for_both_versions(isolation: str) -> None:
    cell = "import traceback\ny = 1\ntraceback.print_stack(limit=1)\n"  # 'File "<cell>", line 3', as a warning says
    c = _try(cell, cell.replace("y = 1", "y = 0 + 1"), isolation)
    assert c.equal and "printed output" in c.compared, c.difference
    moved = _try(cell, "\n" + cell, isolation)  # the line it names moved: the user would see it
    assert not moved.equal and "printed output (stderr), line 1" in (moved.difference or "")


@BOTH
def test_output_that_varies_between_runs_of_the_original_is_masked(isolation: str) -> None:
    cell = "import time\nt0 = time.perf_counter()\ny = sum(range(1000))\nprint('took', time.perf_counter() - t0)\n"
    del_t0 = cell + "del t0\n"
    c = _try(del_t0, del_t0.replace("sum(range(1000))", "999 * 1000 // 2"), isolation)
    assert c.equal, c.difference
    assert any(n.startswith("masked in the printed output") and "line 1" in n for n in c.notes), c.notes
    wrong = _try(del_t0, del_t0.replace("'took'", "'ran'"), isolation)
    assert not wrong.equal and "printed output (stdout), line 1" in (wrong.difference or "")


def test_masking_only_forgives_what_the_original_itself_varies() -> None:
    def obs(text: str) -> Observed:
        cap = Capture()
        cap.write(text)
        return Observed(stdout=cap.printed())

    # a number without a unit (a printed duration with one is never compared at all)
    first, again = obs("step 1 took 0.51\ndone\n"), obs("step 1 took 0.62\ndone\n")
    assert masked(first, again, obs("step 1 took 0.40\ndone\n"))
    assert masked(first, again, obs("step 2 took 0.40\ndone\n")) is None  # "1" did not vary
    assert masked(first, again, obs("step 1 took 0.40\nDONE\n")) is None
    assert masked(first, first, obs("step 1 took 0.40\ndone\n")) is None  # nothing varied: a difference
    bar_a, bar_b = obs("[====      ]\nok\n"), obs("[=======   ] 70%\nok\n")
    assert masked(bar_a, bar_b, obs("[==]\nok\n"))  # a line that changes shape is masked whole


def test_output_is_kept_in_bounded_memory_and_compared_whole() -> None:
    a, b = Capture(), Capture()
    for cap, tail in ((a, "x"), (b, "y")):
        for _ in range(200):
            cap.write("-" * 1000)
        cap.write(tail)
    pa, pb = a.printed(), b.printed()
    assert len(pa.head) == HEAD_CHARS and pa.chars == 200_001 and pa.digest != pb.digest
    said = output_difference(Observed(stdout=pa), Observed(stdout=pb))
    assert said == "printed output (stdout): 200001 characters became 200001, differing after the first 64 KiB"


@BOTH
def test_the_exception_is_compared(isolation: str) -> None:
    same = _try("y = 1\nz = y / 0\n", "y = 1\nz = 0 / 0\n", isolation)
    assert same.equal and same.compared == ["y", "the exception"] and not same.error
    assert any(n.startswith("both versions raised ZeroDivisionError") for n in same.notes)
    gone = _try("y = 1\nz = y / 0\n", "y = 1\nz = 0\n", isolation)
    assert not gone.equal and gone.difference == (
        "the exception: the original raised ZeroDivisionError: division by zero, the rewrite raised nothing"
    )
    other = _try("z = 1 / 0\n", "z = int('a')\n", isolation)
    assert not other.equal and "the rewrite raised ValueError: invalid literal" in (other.difference or "")
    new = _try("y = 1\n", "y = 1 / 0\n", isolation)
    assert new.error and "ZeroDivisionError" in new.error and not new.equal


@BOTH
def test_nothing_compared_is_never_equal_nor_called_different(isolation: str) -> None:
    c = _try("pass\n", "pass\n", isolation)
    assert not c.equal and c.difference is None and not c.better and NOTHING in c.not_compared
    text = render_comparison_text(c)
    assert "Results differ" not in text and headline(c).startswith("Nothing observable was compared")
    assert any(n.startswith("compared: nothing observable") for n in c.notes)


@BOTH
def test_what_is_not_compared_is_said(isolation: str) -> None:
    c = _try("y = 1\n", "y = 1\n", isolation)
    assert c.equal and any("file descriptors 1 and 2" in n for n in c.not_compared)


@BOTH
def test_printed_durations_are_not_compared_but_printed_results_are(isolation: str) -> None:
    slow = (
        "import time\nt = time.perf_counter()\ns = sum(range(200_000))\n"
        "print(f'sum {s} took {round(time.perf_counter() - t + 5)} s')\ndel t\n"
    )
    fast = "s = 19999900000\nprint(f'sum {s} took 0 s')\n"
    c = _try(slow, fast, isolation)
    assert c.equal, render_comparison_text(c)  # "took 5 s" then "took 0 s": the rewrite is meant to change it
    assert any("printed durations" in n for n in c.not_compared)
    wrong = _try(slow, "s = 19999900000\nprint(f'sum {s + 1} took 0 s')\n", isolation)
    assert not wrong.equal and "sum 19999900000" in (wrong.difference or ""), wrong.difference


def test_durations_as_people_print_them_read_the_same() -> None:
    from aiperf_magic.verification.observed import without_durations

    for a, b in [
        ("Wall time: 4.29 µs", "Wall time: 951 ns"),
        ("100%|##########| 10/10 [00:03<00:00, 3.02it/s]", "100%|##########| 10/10 [00:00<00:00, 912.5it/s]"),
        ("epoch 1 took 12s", "epoch 1 took 0.4s"),
        ("CPU times: user 1.2 s, sys: 3 ms, total: 1.21 s", "CPU times: user 20 ms, sys: 0 ns, total: 20 ms"),
        ("CPU times: user 3 \u03bcs, sys: 1 \u03bcs", "CPU times: user 4 \u03bcs, sys: 2 \u03bcs"),  # IPython's mu
    ]:
        assert without_durations(a) == without_durations(b), (a, b)
    assert without_durations("5 samples, 3 epochs") == "5 samples, 3 epochs"
    assert without_durations("loss 0.25") != without_durations("loss 0.75")
