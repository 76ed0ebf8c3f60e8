"""The run weighs findings that a static rule or the frame profiler made, by what they would save.

- AIP506 (compile the model): compiling removes Python's dispatch per module call, not the
  arithmetic. Each call's measured time is set against its dispatch (about ``DISPATCH_S`` per leaf
  module on a CPU); when the arithmetic dominates (a wide MLP on batches of 100), compiling saves
  little and the finding is kept out of view.
- AIP101 on a ``DataLoader`` the cell never iterates (a test loader made next to the train loader):
  it is not what the cell spends its time on; the loop that does iterate a loader is reported by
  :mod:`.loading` where the time went.
- AIP201 (arithmetic one element at a time) on a loop over fewer than ``MIN_ITERATIONS`` rows of a
  live 2-D (or larger) array or tensor that uses each row whole (``parts.append(row * 0.5)`` over
  200 rows of 5,000): each iteration is already array arithmetic on thousands of elements.
- AIP303 (narrower dtypes) on a frame under ``SMALL_FRAME_BYTES``: the memory it would save is too
  little to matter; the finding stays in the report, not shown. Nor is one whose only cast rounds
  the values (float64 columns that are not exact in float32: returns, averages, an equity curve),
  unless the frame is a tenth or more of the memory that stayed available during the cell: a loss
  of precision is a trade for memory that is short, not a default; with memory to spare, only a
  cast that saves most of the frame is shown (a Series of 0/1 flags in float64 on a datetime index
  saves a quarter: the index stays).

- GPU-only traps (AIP102, AIP501, AIP504, AIP505: a copy to the GPU, tensor cores, a host-device
  sync) in a run without a CUDA device: the copy, the float32 kernels or the sync they name did not
  happen here (``device = "cuda" if torch.cuda.is_available() else "cpu"`` kept the tensors on the
  CPU); they matter where CUDA is, and stay in the report, not shown.

A finding kept out of view this way carries ``evidence["judged"]``: the verdict does not bring it
back (what it would save was measured, not only the time of its lines).
"""

from __future__ import annotations

import re
import sys
from collections.abc import Mapping
from typing import Any

import libcst as cst

from ...cell.tree import walk_all
from ...report import Finding, Report
from ...sizing import kind
from ..engine import Analysis
from ..evidence import line_time, loop_iterations
from ..facts import unwrap_iterable

# Eager PyTorch's Python overhead per leaf module call: 4 to 7 µs for tiny Linear/ReLU layers on this
# project's 2-core machine (one thread), more when it is busy; compiling can save about this much.
DISPATCH_S = 10e-6
DISPATCH_SHARE = 0.2  # compiling is worth a card when the dispatch is at least this share of a call
SMALL_FRAME_BYTES = 10 * 1024**2
# memory is short when a frame is at least 1/SHORT_SHARE of the memory that stayed available during
# the cell: then a cast that only rounds (float32), or one that saves less than MOST_SAVED of the
# frame, is worth showing; with memory to spare, only casts that save most of the frame are
SHORT_SHARE = 10
MOST_SAVED = 0.5
GPU_ONLY = frozenset({"AIP102", "AIP501", "AIP504", "AIP505"})
MEASURED_SAMPLES = 10  # samples of a loader's loop before its batches' share of the cell is read


def judge_static(analysis: Analysis, report: Report, namespace: Mapping[str, Any]) -> None:
    no_cuda = any(f.code in GPU_ONLY and f.shown for f in analysis.findings) and not cuda_present()
    for finding in analysis.findings:
        if no_cuda and finding.code in GPU_ONLY and finding.shown:
            finding.shown, finding.evidence["judged"] = False, True
            finding.hidden_reason = ("this run had no CUDA device: the GPU work this finding names did not happen "
                                     "here; it matters where the cell runs on a GPU")
            continue
        node = analysis.node_of(finding)
        if finding.code == "AIP506" and finding.shown and node is not None and "rows" not in finding.evidence:
            _eager_calls(finding, node, report, namespace)  # (one row per step: batching, not compiling, is the fix)
        elif finding.code == "AIP201" and finding.shown and node is not None and not finding.evidence.get("from_run"):
            _whole_rows(finding, node, namespace)
        elif finding.code == "AIP101" and node is not None and not finding.evidence.get("from_run"):
            _never_iterated(finding, node, analysis)
            if not finding.evidence.get("judged"):  # hidden or not: the verdict must not bring it back
                _cheap_batches(finding, node, analysis, report, namespace)


def cuda_present() -> bool:
    """Whether torch (already imported by the cell: never imported here) sees a CUDA device."""
    torch = sys.modules.get("torch")
    if torch is None:
        return True  # no torch: the finding is about another library's device; leave it to the run
    try:
        return bool(torch.cuda.is_available())
    except Exception:  # a torch build whose CUDA query fails
        return True


def _eager_calls(finding: Finding, loop: cst.CSTNode, report: Report, namespace: Mapping[str, Any]) -> None:
    _, seconds = line_time(report.hotspots, finding.line, finding.end_line)
    counted = [h.loop_count for h in report.hotspots if h.loop_line == finding.line and h.loop_count]
    calls = max(counted) if counted else loop_iterations(loop, namespace)
    leaves = _leaf_modules(loop, namespace)
    if not seconds or not calls or not leaves:
        return
    per_call = seconds / calls
    dispatch = leaves * DISPATCH_S
    finding.evidence.update({"per_call_s": round(per_call, 6), "leaf_modules": leaves})
    if dispatch >= DISPATCH_SHARE * per_call:
        return
    finding.shown, finding.evidence["judged"] = False, True
    finding.hidden_reason = (
        f"each of the {calls:,} calls took {per_call * 1e3:.2g} ms for {leaves} layers, of which Python's dispatch "
        f"is about {dispatch * 1e3:.2g} ms: the arithmetic takes the time, and compiling would save little"
    )


def _leaf_modules(loop: cst.CSTNode, namespace: Mapping[str, Any]) -> int | None:
    """Leaf modules of the live torch model the loop calls (``model(x)``)."""
    for node in walk_all(loop):
        if isinstance(node, cst.Call) and isinstance(node.func, cst.Name):
            model = namespace.get(node.func.value)
            if model is not None and kind(model) == "module":
                return leaves_of(model)
    return None


def leaves_of(model: Any) -> int | None:
    """The layers a module call dispatches one by one: its modules without children."""
    try:
        return sum(1 for m in model.modules() if next(m.children(), None) is None) or 1
    except Exception:  # a module whose children cannot be listed
        return None


def _whole_rows(finding: Finding, loop: cst.CSTNode, namespace: Mapping[str, Any]) -> None:
    from .numbers import MIN_ITERATIONS

    if not isinstance(loop, cst.For) or not isinstance(loop.iter, cst.Name) or not isinstance(loop.target, cst.Name):
        return
    live = namespace.get(loop.iter.value)
    shape = getattr(live, "shape", None) if kind(live) in ("array", "tensor") else None
    if shape is None or len(shape) < 2 or not 0 < int(shape[0]) < MIN_ITERATIONS:
        return
    row = loop.target.value
    for node in walk_all(loop.body):
        if isinstance(node, cst.Subscript) and isinstance(node.value, cst.Name) and node.value.value == row:
            return  # the body takes the row's items one by one
    rows, size = int(shape[0]), 1
    for n in shape[1:]:
        size *= int(n)
    finding.shown, finding.evidence["judged"] = False, True
    finding.hidden_reason = (f"each of its {rows:,} iterations works on a whole row of {size:,} elements of "
                             f"{loop.iter.value}: that is already array arithmetic, not one element at a time")


def _never_iterated(finding: Finding, node: cst.CSTNode, analysis: Analysis) -> None:
    facts = analysis.facts
    if facts is None:
        return
    names = {t.value for a in facts.assigns if a.value is node for t in a.targets if isinstance(t, cst.Name)}
    if len(names) != 1:
        return
    (name,) = names
    for loop in facts.loops:
        it = unwrap_iterable(facts, loop.iter)
        if isinstance(it, cst.Name) and it.value == name:
            return
    for call in facts.calls:
        args = call.node.args
        if call.node is not node and any(isinstance(a.value, cst.Name) and a.value.value == name for a in args):
            return  # handed to a function (train(model, loader)) or to iter()/next(): it may be read there
    finding.shown, finding.evidence["judged"] = False, True
    finding.hidden_reason = f"the cell never iterates {name} (no loop walks it and no call receives it)"


def _cheap_batches(finding: Finding, node: cst.CSTNode, analysis: Analysis, report: Report,
                   namespace: Mapping[str, Any]) -> None:
    """The run measured the loop that iterates the loader and found what the run's own AIP101
    (:func:`.loading.loader_loop`) refuses: getting the batches (the loop's header, where
    ``__next__`` runs ``__getitem__`` and collation, and the user's code those ran) took under
    ``LOADING_SHARE`` of the cell, so
    workers could take at most that off the main process; or no Python of the user's ran per sample
    and the dataset does not decode (a ``TensorDataset``: one indexing per sample, which workers
    would only copy between processes)."""
    from ..data_loading.datasets import COSTLY, live_cost
    from .loading import LOADING_SHARE, USER_WORK_SHARE, dataset_work, loading_share

    facts, cell = analysis.facts, analysis.cell
    if facts is None or cell is None:
        return
    names = {t.value for a in facts.assigns if a.value is node for t in a.targets if isinstance(t, cst.Name)}
    for loop in facts.loops:
        it = unwrap_iterable(facts, loop.iter)
        span = cell.user_range(loop.node)
        if not (isinstance(it, cst.Name) and it.value in names) or span is None:
            continue
        inside = [h for h in report.hotspots if span[0] <= h.line <= span[2]]
        if sum(h.samples for h in inside) < MEASURED_SAMPLES:
            return  # too few samples of the loop to say what its batches cost
        header = loading_share(sum(h.share for h in inside if h.line == span[0]), report)
        batches = f"getting the batches of {it.value} (line {report.cell_line(span[0])}) took {header:.0%} of the cell"
        dataset = getattr(namespace.get(it.value), "dataset", None)
        if header < LOADING_SHARE:
            reason = f"{batches}: loader workers could save at most that"
        elif dataset is not None and dataset_work(report)[0] < USER_WORK_SHARE and live_cost(dataset) != COSTLY:
            reason = (f"{batches}, yet no Python of yours ran per sample and {type(dataset).__name__} does not "
                      "decode: each sample is one indexing, which workers would only copy between processes")
        else:
            return
        finding.shown, finding.evidence["judged"] = False, True
        finding.evidence["loading_share"] = round(header, 4)
        finding.hidden_reason = reason
        return


def weigh_frames(report: Report) -> None:
    """Keep AIP303 out of view for frames too small for their dtypes to matter, and a cast that only
    rounds (float64 to float32, nothing exact to narrow) where the run had memory to spare."""
    sizes = {f"{p.kind} `{p.name}` uses": p.memory_bytes for p in report.frames}
    available = [b for b in report.samples.mem_available_bytes if b is not None]
    for finding in report.findings:
        if finding.code != "AIP303" or not finding.shown:
            continue
        held = next((n for head, n in sizes.items() if finding.message.startswith(head)), None)
        if held is not None and held < SMALL_FRAME_BYTES:
            finding.shown, finding.evidence["judged"] = False, True
            finding.hidden_reason = (f"the frame holds {held / 1024**2:.1f} MB: under 10 MB, narrower dtypes "
                                     "save too little memory to matter")
        elif held is not None and available and held * SHORT_SHARE < min(available):
            spare = (f"the frame holds {held / 1024**2:.1f} MB, and {min(available) / 1024**3:.1f} GB stayed "
                     "available during the cell")
            saved = _saved_share(finding)
            if finding.fix is not None and finding.fix.safety == "unsafe":
                reason = (f"the only narrower dtype rounds the values (float32 keeps about 7 digits), worth it "
                          f"when memory is short: {spare}")
            elif saved is not None and saved < MOST_SAVED:
                reason = f"narrower dtypes would save {saved:.0%} of it, and memory was not short: {spare}"
            else:
                continue
            finding.shown, finding.evidence["judged"] = False, True
            finding.hidden_reason = reason


def _saved_share(finding: Finding) -> float | None:
    """The share of the frame the cast saves, from the finding's "(25 % less)"."""
    match = re.search(r"\((\d+) % less\)", finding.message)
    return int(match.group(1)) / 100 if match else None
