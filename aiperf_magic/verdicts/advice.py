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
from dataclasses import dataclass

from .. import units as fmt
from ..report import Hotspot, Report
from ..rules.from_run.callees import kinds_of

# the lines that together took this share of the cell are the ones the advice speaks of
COVER = 0.6
MIN_SHARE = 0.15  # a line under this share of the run is not what the cell spends its time on

@dataclass
class HotWork:
    """One kind of work the hot lines did, and the line that did most of it."""

    kind: str  # one of KINDS
    line: int | None  # the line with most of that kind of work (the cell body's numbering)
    share: float  # the run's share that kind of work took on the hot lines
    text: str = ""  # that line's source, stripped


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


def waited_share(report: Report) -> float:
    """The share of the run the hot lines spent waiting (sockets, sleeps, locks, results)."""
    return sum(w.share for w in hot_work(report) if w.kind == "wait")


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
    "loader": "Preparing batches takes the time{where}: work done per item (decoding, augmenting, "
              "normalising) can run in DataLoader workers (num_workers > 0) or once, before the loop; "
              "over tensors already in memory, larger batches mean fewer collations.",
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


def memory_where(report: Report) -> str | None:
    """The line that allocated most and the line the memory peaked at (``Report.memory_lines``),
    in one sentence for AIP904: "Line 3 allocated 1.2 GB (`big = ...`); memory peaked at line 5."."""
    top = report.memory_lines[0] if report.memory_lines else None
    parts = []
    if top is not None and top.allocated_bytes > 0:
        kept = f", {fmt.size(top.net_bytes)} of it still held at the end" if top.net_bytes else ""
        code = f" (`{top.text}`)" if top.text else ""
        parts.append(f"Line {report.cell_line(top.line)} allocated {fmt.size(top.allocated_bytes)}{kept}{code}")
    if report.peak_line is not None:
        peak = f"memory peaked at line {report.cell_line(report.peak_line)}"
        parts.append(peak if parts else peak[0].upper() + peak[1:])
    return "; ".join(parts) + "." if parts else None
