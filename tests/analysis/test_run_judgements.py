"""The run weighs loaders, compiled models and frames by what a change would save: a DataLoader over
tensors in memory is not told to use workers, a wide model is not told to compile, a small frame is
not told to narrow its dtypes, and a loader the cell never iterates is not the one reported."""

from __future__ import annotations

from typing import Any

import pytest

from aiperf_magic.report import ColumnProfile, Finding, Fix, FrameProfile, Hotspot, Report
from aiperf_magic.rules.engine import analyze_cell
from aiperf_magic.rules.evidence import weigh
from aiperf_magic.rules.fixing import attach_fixes
from aiperf_magic.rules.from_run import findings_from_run, weigh_frames

torch = pytest.importorskip("torch")


def hot(line: int, share: float, samples: int = 20, **more: Any) -> Hotspot:
    return Hotspot(line=line, seconds=share, share=share, samples=samples, **more)


def findings(source: str, spots: list[Hotspot], ns: dict[str, Any], functions: list[Hotspot] | None = None
             ) -> list[Finding]:
    analysis = analyze_cell(source, select=["ALL"], namespace=ns)
    attach_fixes(analysis)
    report = Report(source=source, wall_s=1.0, cpu_s=1.0, hotspots=spots, function_lines=functions or [])
    for f in analysis.findings:
        weigh(f, analysis.node_of(f), spots, ns, sampled=True, wall_s=1.0)
    findings_from_run(analysis, report, ns)
    return analysis.findings


class Noisy(torch.utils.data.Dataset):  # type: ignore[misc]
    def __len__(self) -> int:
        return 64

    def __getitem__(self, i: int) -> Any:
        return torch.randn(8) * i


LOOP = ("train_loader = DataLoader(train, batch_size=8)\ntest_loader = DataLoader(test, batch_size=8)\n"
        "for x, y in train_loader:\n    loss = model(x)\n")
HEADER = hot(3, 0.5, callees={"_BaseDataLoaderIter.__next__": 10}, loop_line=3, loop_count=8)


def test_the_loop_that_iterates_a_loader_carries_the_finding_and_the_unread_loader_stays_hidden() -> None:
    ns = {"DataLoader": torch.utils.data.DataLoader, "train": Noisy(), "test": Noisy(), "model": torch.nn.Linear(8, 1)}
    ns["train_loader"] = torch.utils.data.DataLoader(ns["train"], batch_size=8)
    getitem = hot(12, 0.4, function="Noisy.__getitem__", where="cell [1]", file="<cell 1>", own_seconds=0.4)
    found = findings(LOOP, [HEADER, hot(4, 0.45, loop_line=3)], ns, [getitem])
    shown = [(f.code, f.line) for f in found if f.shown and f.code == "AIP101"]
    assert shown == [("AIP101", 3)]
    moved = next(f for f in found if f.code == "AIP101" and f.shown)
    assert "Noisy.__getitem__ (cell [1]) 40%" in moved.message and moved.fix is not None  # the fix: the constructor
    unread = next(f for f in found if f.code == "AIP101" and not f.shown)
    assert unread.line == 2 and "never iterates test_loader" in (unread.hidden_reason or "")


def test_a_loader_over_tensors_in_memory_is_not_told_to_use_workers() -> None:
    data = torch.utils.data.TensorDataset(torch.randn(64, 8), torch.randn(64))
    ns = {"DataLoader": torch.utils.data.DataLoader, "train": data, "test": data, "model": torch.nn.Linear(8, 1),
          "train_loader": torch.utils.data.DataLoader(data, batch_size=8)}
    found = findings(LOOP, [HEADER, hot(4, 0.45, loop_line=3)], ns)
    assert [f for f in found if f.code == "AIP101" and f.shown] == []


def test_compiling_is_not_proposed_where_the_arithmetic_takes_the_time() -> None:
    wide = torch.nn.Sequential(torch.nn.Linear(784, 1024), torch.nn.ReLU(), torch.nn.Linear(1024, 10)).eval()
    source = "with torch.no_grad():\n    for images in batches:\n        out = model(images)\n"
    ns = {"torch": torch, "model": wide, "batches": [torch.randn(100, 784)] * 200}
    (eager,) = [f for f in findings(source, [hot(3, 0.95, loop_line=2, loop_count=200)], ns) if f.code == "AIP506"]
    assert not eager.shown and "the arithmetic takes the time" in (eager.hidden_reason or "")
    assert eager.evidence["leaf_modules"] == 3
    tiny = torch.nn.Sequential(*[torch.nn.Linear(4, 4) for _ in range(24)]).eval()
    ns.update(model=tiny, batches=[torch.randn(1, 4)] * 200)
    # 0.2 ms a call for 24 layers: mostly Python's dispatch, which compiling removes
    spots = [Hotspot(line=3, seconds=0.04, share=0.9, samples=20, loop_line=2, loop_count=200)]
    (small,) = [f for f in findings(source, spots, ns) if f.code == "AIP506"]
    assert small.shown and small.evidence["leaf_modules"] == 24


def test_a_small_frame_keeps_its_dtype_finding_out_of_view() -> None:
    def profile(name: str, size: int) -> tuple[FrameProfile, Finding]:
        prof = FrameProfile(name=name, memory_bytes=size, columns=[ColumnProfile("a", "int64", size, "int8")])
        return prof, Finding(code="AIP303", message=f"DataFrame `{name}` uses {size / 1024**2:.1f} MB; ...", line=1)

    (small, small_f), (big, big_f) = profile("df", 2 * 1024**2), profile("all_data", 16 * 1024**2)
    report = Report(source="", frames=[small, big], findings=[small_f, big_f])
    weigh_frames(report)
    assert not small_f.shown and "under 10 MB" in (small_f.hidden_reason or "") and big_f.shown


def test_a_cast_that_rounds_or_saves_little_waits_for_memory_to_be_short() -> None:
    """A float32 that rounds every value (returns, an equity curve) and a cast that saves a quarter of
    a Series (its datetime index stays) are shown when the frame is a tenth of the memory left."""
    mb = 1024**2

    def finding(name: str, saved: int, safety: str) -> tuple[FrameProfile, Finding]:
        column = ColumnProfile("a", "float64", 23 * mb, "float32")
        prof = FrameProfile(name=name, kind="Series", memory_bytes=46 * mb, columns=[column])
        fix = Fix(title="Convert", safety=safety, source="", diff="")
        return prof, Finding(code="AIP303", message=f"Series `{name}` uses 45.8 MB; with smaller dtypes it would use "
                             f"34.3 MB ({saved} % less): a→float32.", line=1, fix=fix)

    def weighed(available: int) -> list[Finding]:
        made = [finding("equity", 25, "unsafe"), finding("signal", 25, "safe"), finding("codes", 80, "safe")]
        report = Report(source="", frames=[p for p, _ in made], findings=[f for _, f in made])
        report.samples.mem_available_bytes = [available + 100 * mb, available, None]
        weigh_frames(report)
        return report.findings

    rounded, quarter, most = weighed(20 * 1024 * mb)
    assert not rounded.shown and "rounds the values" in (rounded.hidden_reason or "")
    assert not quarter.shown and "save 25% of it" in (quarter.hidden_reason or "") and most.shown
    assert all(f.shown for f in weighed(300 * mb))  # 46 MB of 300 MB left: memory is short


def test_a_loop_of_small_model_calls_is_found_by_its_dispatch_and_a_training_loop_is_not() -> None:
    tiny = torch.nn.Sequential(*[torch.nn.Linear(4, 4) for _ in range(24)]).eval()
    source = "for text in requests_batch:\n    label = net(encode(text))\n"
    ns = {"net": tiny, "requests_batch": ["x"] * 2000, "encode": lambda t: torch.randn(1, 4)}
    spot = Hotspot(line=2, seconds=0.5, share=0.95, samples=25, callees={"Module._wrapped_call_impl": 24},
                   types={"net": "torch.nn.modules.container.Sequential"}, loop_line=1, loop_count=2000)
    found = [f for f in findings(source, [spot], ns) if f.shown]
    eager = [f for f in found if f.code == "AIP506"]
    assert [f.line for f in eager] == [1] and "2,000 calls of net" in eager[0].message
    training = source + "    label.sum().backward()\n"
    assert [f for f in findings(training, [spot], ns) if f.shown and f.code == "AIP506"] == []


ROWS = "parts = []\nfor row in parts_source:\n    parts.append(row * 0.5)\n"


def test_a_loop_over_a_few_whole_rows_of_an_array_is_not_told_to_vectorise() -> None:
    np = pytest.importorskip("numpy")
    spots = [hot(3, 0.36, 2, loop_line=2)]
    found = findings(ROWS, spots, {"parts_source": np.zeros((200, 5_000)), "np": np})
    (f,) = [f for f in found if f.code == "AIP201"]
    assert not f.shown and f.evidence["judged"]
    assert "each of its 200 iterations works on a whole row of 5,000 elements" in (f.hidden_reason or "")


@pytest.mark.parametrize("source, shape", [
    (ROWS, (5_000, 3)),  # 5,000 rows of 3: the loop itself is the cost
    ("parts = []\nfor row in parts_source:\n    parts.append(row[0] * 0.5)\n", (200, 5_000)),  # one item per row
])
def test_many_rows_or_one_item_per_row_stay_the_static_rules_call(source: str, shape: tuple[int, int]) -> None:
    """Not hidden by the run, because the loop walks many rows, or takes one number of each."""
    np = pytest.importorskip("numpy")
    found = findings(source, [hot(3, 0.36, 2, loop_line=2)], {"parts_source": np.zeros(shape), "np": np})
    (f,) = [f for f in found if f.code == "AIP201"]
    assert f.shown and not f.evidence.get("judged")


def test_a_subclass_of_ndarray_on_an_items_line_is_whole_array_work() -> None:
    """``tokens[s:s + 256]`` of a ``np.memmap`` per start: the sampler types the map as numpy.memmap and
    describes it as an ndarray of ten million; the items are windows of it, not a few numbers."""
    from aiperf_magic.rules.from_run.interpreted import _small

    def line(kind: str, text: str, n: int) -> Hotspot:
        return Hotspot(line=3, seconds=0.1, share=0.5, sizes={"tokens": n, "s": 1},
                       types={"tokens": kind, "s": "torch.Tensor"}, locals={"tokens": text, "s": "Tensor () int64"})

    assert not _small([line("numpy.memmap", "ndarray of 10,000,000 uint16", 10_000_000)])
    assert not _small([line("numpy.ndarray", "ndarray of 10,000,000 uint16", 10_000_000)])
    assert _small([line("numpy.memmap", "ndarray of 4 uint16", 4)])
