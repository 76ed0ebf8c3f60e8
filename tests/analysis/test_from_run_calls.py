"""Findings from the run on lines that are one call: a row-wise ``apply`` whose lambda sits on the
line after ``apply(`` and tests for missing values (AIP302), requests sent one per element from
inside ``apply`` (AIP402), and a list of lists flattened with ``sum(lists, [])`` (AIP203). Each with
the counterexamples the mechanism must leave alone."""

from __future__ import annotations

import pytest

from aiperf_magic.report import Hotspot
from tests.analysis.test_from_run_hand_over import hot, run_on, shown

pd = pytest.importorskip("pandas")
np = pytest.importorskip("numpy")

COALESCE = ('products["sale"] = products.apply(\n'
            '    lambda row: row["price"] if pd.notnull(row["price"]) else row["list_price"], axis=1)\n')


def frame(n: int = 80_000) -> object:
    return pd.DataFrame({"price": np.arange(float(n)), "list_price": np.arange(float(n)), "name": ["a b"] * n})


def test_a_lambda_on_the_line_after_apply_testing_for_missing_values_is_row_wise_work() -> None:
    spots = [hot(2, 0.7, 11, callees={"Series.__getitem__": 9}), hot(1, 0.3, 5, callees={"DataFrame.apply": 5})]
    found = run_on(COALESCE, spots, {"pd": pd, "products": frame()})
    assert ("AIP302", 1) in shown(found)
    (finding,) = [f for f in found if f.code == "AIP302" and f.shown]
    assert "80,000 times" in finding.message


def test_a_lambda_on_the_next_line_that_splits_strings_is_not() -> None:
    """Not flagged, because splitting a string per row has no faster whole-column form here."""
    source = COALESCE.replace('row["price"] if pd.notnull(row["price"]) else row["list_price"]',
                              'row["name"].split()[0]')
    spots = [hot(2, 0.7, 11, callees={"Series.__getitem__": 9}), hot(1, 0.3, 5, callees={"DataFrame.apply": 5})]
    assert "AIP302" not in [c for c, _ in shown(run_on(source, spots, {"pd": pd, "products": frame()}))]


def test_a_date_made_from_each_rows_values_is_row_wise_work_and_a_formatted_one_is_not() -> None:
    """``pd.Timedelta(days=row["days"])`` per row is ``pd.to_timedelta(column, unit="D")``; formatting
    the date as text per row is string work."""
    source = COALESCE.replace('row["price"] if pd.notnull(row["price"]) else row["list_price"]',
                              'pd.Timestamp("2024-01-01") + pd.Timedelta(days=row["price"])')
    spots = [hot(2, 0.7, 11, callees={"Series.__getitem__": 9}), hot(1, 0.3, 5, callees={"DataFrame.apply": 5})]
    assert ("AIP302", 1) in shown(run_on(source, spots, {"pd": pd, "products": frame()}))
    formatted = source.replace('pd.Timestamp("2024-01-01") + pd.Timedelta(days=row["price"])',
                               '(pd.Timestamp("2024-01-01") + pd.Timedelta(days=row["price"])).strftime("%d")')
    assert formatted != source and compile(formatted, "cell", "exec")
    assert "AIP302" not in [c for c, _ in shown(run_on(formatted, spots, {"pd": pd, "products": frame()}))]


ENRICH = ('stations["bikes"] = stations["station_id"].apply(\n'
          '    lambda sid: requests.get(f"{base}/station/{sid}", timeout=10).json()["value"])\n')


def stations(n: int) -> object:
    return pd.DataFrame({"station_id": [f"st{i:03d}" for i in range(n)]})


def test_requests_sent_one_per_element_from_apply_are_sequential_blocking_io() -> None:
    requests = pytest.importorskip("requests")
    spots = [hot(2, 1.0, 46, callees={"get": 45})]
    found = run_on(ENRICH, spots, {"requests": requests, "stations": stations(60), "base": "http://x"}, cpu=0.2)
    (finding,) = [f for f in found if f.code == "AIP402" and f.shown]
    assert finding.line == 1 and "60 requests" in finding.message
    # the fixer maps the lambda over a thread pool and stores the list as the column
    assert finding.fix is not None and "list(pool.map(lambda sid:" in finding.fix.source, finding.fix


def test_an_apply_that_computes_while_the_process_is_busy_is_not_waiting() -> None:
    """Not flagged, because the process's CPU was busy: the time was not the network's."""
    requests = pytest.importorskip("requests")
    spots = [hot(2, 1.0, 46, callees={"get": 45})]
    found = run_on(ENRICH, spots, {"requests": requests, "stations": stations(60), "base": "http://x"}, cpu=0.9)
    assert "AIP402" not in [c for c, _ in shown(found)]


def test_three_requests_from_apply_are_too_few_to_send_together() -> None:
    """Not flagged, because three rows make three requests: a pool would save little."""
    requests = pytest.importorskip("requests")
    spots = [hot(2, 1.0, 46, callees={"get": 45})]
    found = run_on(ENRICH, spots, {"requests": requests, "stations": stations(3), "base": "http://x"}, cpu=0.2)
    assert "AIP402" not in [c for c, _ in shown(found)]


def test_a_list_of_lists_flattened_with_sum_copies_everything_at_each_addition() -> None:
    source = "all_tokens = sum(tokenized, [])\n"
    tokenized = [["w"] * 30 for _ in range(4_000)]
    found = run_on(source, [hot(1, 1.0, 1, own_seconds=0.37)], {"tokenized": tokenized})
    (finding,) = [f for f in found if f.code == "AIP203" and f.shown]
    assert finding.line == 1 and "4,000 lists" in finding.message and "120,000 items" in finding.message
    assert finding.fix is not None and "list(chain.from_iterable(tokenized))" in finding.fix.source, finding.fix


@pytest.mark.parametrize("source, value", [
    ("total = sum(counts, [])\n", [[1]] * 50),  # 50 additions: nothing to speak of
    ("total = sum(counts)\n", list(range(4_000))),  # numbers summed: no list is copied
    ("total = sum(counts, start)\n", [[1]] * 4_000),  # a start list of the user's: not the idiom
])
def test_sums_that_copy_no_growing_list_are_left_alone(source: str, value: object) -> None:
    """Not flagged, because no long list is copied at every addition."""
    found = run_on(source, [hot(1, 1.0, 1)], {"counts": value, "start": []})
    assert "AIP203" not in [c for c, _ in shown(found)]


# -- a loader whose batches' time is in the user's collate function ---------------------------------
TEXT_LOOP = ("loader = DataLoader(items, batch_size=8, collate_fn=collate_batch)\nfor label, text in loader:\n"
             "    l = loss(net(text), label)\n    l.backward()\n")


def collate_lines(share: float) -> list[Hotspot]:
    return [Hotspot(line=3, seconds=share, share=share, samples=3, own_seconds=share, function="collate_batch",
                    where="cell [1]", file="<ipython-input-collate>")]


def test_batches_whose_time_is_the_users_collate_function_are_loaded_in_the_main_process() -> None:
    """The header's 12 % in ``__next__`` and the 19 % the collate function's lines took are one cost."""
    torch = pytest.importorskip("torch")
    from torch.utils.data import DataLoader

    ns = {"DataLoader": DataLoader, "items": list(range(5_000)), "collate_batch": lambda b: b,
          "loader": DataLoader(list(range(5_000)), batch_size=8), "net": torch.nn.Linear(4, 1), "loss": None}
    header = hot(2, 0.12, 2, callees={"_BaseDataLoaderIter.__next__": 2}, loop_line=2, loop_count=625)
    body = [hot(3, 0.4, 6, callees={"Module._wrapped_call_impl": 6}, loop_line=2),
            hot(4, 0.3, 5, callees={"Tensor.backward": 5}, loop_line=2)]
    found = run_on(TEXT_LOOP, [header, *body], ns, functions=collate_lines(0.19))
    (f,) = [f for f in found if f.code == "AIP101" and f.shown]
    assert f.evidence["loading_share"] == pytest.approx(0.31) and "took 31% of the cell" in f.message
    # not flagged, because with 2 % in the collate function the batches took 14 % of the cell
    found = run_on(TEXT_LOOP, [header, *body], ns, functions=collate_lines(0.02))
    assert "AIP101" not in [c for c, _ in shown(found)]
