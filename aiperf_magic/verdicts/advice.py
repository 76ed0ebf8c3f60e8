"""What the hot lines do, read from the run, so that a verdict's advice fits the code that took the time.

A CPU-bound cell can be a torch model computing (more threads, a GPU, bigger batches help; NumPy does
not), a DataLoader preparing batches in the main process (workers help), pandas called once per row
(column operations help), a Python loop over numbers (vectorising helps) or a file being parsed (fewer
columns, another format). The sampler says which for each hot line: the library function the line's
time went into (``callees``, by samples; a sample in none of them was the line's own bytecode or C
code it called directly) and the kinds of the names it loads (``types``). :func:`hot_work` sums that
over the lines that took most of the run; the verdicts word their advice from it.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

from ..report import Hotspot, Report

# the lines that together took this share of the cell are the ones the advice speaks of
COVER = 0.6
MIN_SHARE = 0.15  # a line under this share of the run is not what the cell spends its time on

MODEL_CALLEES = ("Module._wrapped_call_impl", "Module._call_impl", "Tensor.backward", "backward",
                 "Optimizer.", "_disable_dynamo", "GradScaler.")
LOADER_CALLEES = ("_BaseDataLoaderIter.__next__", "_SingleProcessDataLoaderIter", "default_collate", "collate")
PANDAS_CALLEES = ("DataFrame.", "Series.", "NDFrame.", "_LocationIndexer.", "_iLocIndexer.", "_LocIndexer.",
                  "_AtIndexer.", "_iAtIndexer.", "_ScalarAccessIndexer.", "IndexingMixin.", "Index.", "concat",
                  "merge", "GroupBy.")
READ_CALLEES = ("read_csv", "read_table", "read_json", "read_excel", "read_parquet", "TextFileReader.", "_read",
                "loadtxt", "genfromtxt")
WAIT_CALLEES = ("sleep", "urlopen", "get", "post", "request", "Session.", "recv", "recv_into", "readinto",
                "_wait_for_tstate_lock", "wait", "acquire", "result", "select", "poll", "connect")

KINDS = ("model", "loader", "pandas", "read", "wait", "numpy", "python", "other")


@dataclass
class HotWork:
    """One kind of work the hot lines did, and the line that did most of it."""

    kind: str  # one of KINDS
    line: int | None  # the line with most of that kind of work (the cell body's numbering)
    share: float  # the run's share that kind of work took on the hot lines
    text: str = ""  # that line's source, stripped


def kinds_of(h: Hotspot) -> dict[str, float]:
    """One line's work by kind, as shares of its samples: each library function its samples were
    in counts for that function's kind; samples in no library function (the line's own bytecode, or
    C code it calls directly: NumPy's operators, list lookups, torch's indexing) count as "python",
    or "wait" on a ``time.sleep`` line."""
    out: defaultdict[str, float] = defaultdict(float)
    total = max(h.samples, sum(h.callees.values()), 1)
    types = " ".join(h.types.values())
    for label, n in h.callees.items():
        out[_kind(label, types)] += n / total
    rest = 1.0 - sum(out.values())
    if rest > 1e-9:
        out["wait" if "sleep" in h.text else "python"] += rest
    return out


def _kind(label: str, types: str) -> str:
    if _starts(label, LOADER_CALLEES):
        return "loader"
    if _starts(label, MODEL_CALLEES):
        return "model"
    if _starts(label, READ_CALLEES):
        return "read"
    if _starts(label, PANDAS_CALLEES) or (label in ("apply", "map") and "pandas" in types):
        return "pandas"
    if _starts(label, WAIT_CALLEES):
        return "wait"
    if "." not in label and "numpy" in types:
        return "numpy"  # NumPy's functions are plain names (sum, _mean): a call on the line's arrays
    if "torch" in types:
        return "model"
    return "other"


def _starts(label: str, prefixes: Iterable[str]) -> bool:
    return any(label == p or label.startswith(p) for p in prefixes)


def hot_lines(report: Report) -> list[Hotspot]:
    """The cell's lines that together took most of the run, hottest first."""
    out: list[Hotspot] = []
    covered = 0.0
    for h in sorted(report.hotspots, key=lambda h: -h.share):
        if h.share < MIN_SHARE or covered >= COVER:
            break
        out.append(h)
        covered += h.share
    return out


def hot_work(report: Report) -> list[HotWork]:
    """The kinds of work of the hot lines, by the share of the run each took (largest first)."""
    shares: defaultdict[str, float] = defaultdict(float)
    first: dict[str, Hotspot] = {}
    for h in hot_lines(report):
        for kind, part in kinds_of(h).items():
            shares[kind] += part * h.share
            best = first.get(kind)
            if best is None or part * h.share > kinds_of(best).get(kind, 0.0) * best.share:
                first[kind] = h
    return [HotWork(kind, first[kind].line, share, first[kind].text) for kind, share in
            sorted(shares.items(), key=lambda item: -item[1])]


def cpu_advice(report: Report, cores: str = "one") -> str:
    """Advice for a CPU-bound cell that fits what its hot lines did: the main kind of work, and the
    second one when it took at least half as much."""
    if cores == "many":
        return PARALLEL
    works = hot_work(report)
    if not works:
        return _cpu_sentence(report, None)
    text = _cpu_sentence(report, works[0])
    if len(works) > 1 and works[1].share >= 0.5 * works[0].share and works[1].kind != "other":
        text += " Next: " + _cpu_sentence(report, works[1])
    return text


# what to do about each kind of CPU work; {where} names the line that did most of it
CPU_ADVICE = {
    "model": "The model's own computation takes the time{where}: on the CPU give torch more threads "
             "(torch.set_num_threads) and larger batches, or run it on a GPU; for inference, "
             "torch.inference_mode() and a compiled model (torch.compile) save the rest.",
    "loader": "Preparing batches takes the time{where}: DataLoader workers (num_workers > 0) run the "
              "dataset's __getitem__ and collation in parallel with the model, or do the per-item "
              "preprocessing once, before the loop.",
    "pandas": "pandas is called once per row or step{where}: one operation on whole columns (arithmetic, "
              "np.where, merge, groupby) does the same work in a single call.",
    "read": "Reading and parsing take the time{where}: read only the columns you need (usecols=, dtype=), "
            "or keep the data in a binary format such as Parquet.",
    "numpy": "NumPy is called from a Python loop{where}: one call on whole arrays (broadcasting, axis=) "
             "replaces the loop.",
    "python": "The interpreter runs the hot line once per element{where}: vectorise it (NumPy or pandas "
              "operations on whole arrays) or compile the loop (Numba).",
}
GENERAL = ("Make the hot lines do less work (a better algorithm, less data per step) or split the work "
           "across processes.")
PARALLEL = ("The work already runs in parallel: only less work (a better algorithm, smaller dtypes) or more "
            "cores make it faster.")
WAIT_ADVICE = "Overlap the waits: a thread pool for blocking I/O (AIP402), asyncio, or fewer, larger requests."


def _cpu_sentence(report: Report, work: HotWork | None) -> str:
    if work is None or work.kind not in CPU_ADVICE:
        return GENERAL
    where = f" (line {report.cell_line(work.line)})" if work.line is not None else ""
    return CPU_ADVICE[work.kind].format(where=where)


def wait_advice(report: Report) -> str:
    """Advice for a cell that mostly waited, from what its hot lines waited on."""
    works = hot_work(report)
    if works and works[0].kind == "wait" and "sleep" in works[0].text:
        return (f"The cell sleeps (line {report.cell_line(works[0].line or 1)}): only a shorter pause, or "
                "other work done during it, makes it faster.")
    return WAIT_ADVICE
