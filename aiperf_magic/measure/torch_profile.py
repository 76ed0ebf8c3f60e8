"""Opt-in deep mode, ``%%aiperf --torch-profile``: torch.profiler around the cell, summarised.

The stage starts ``torch.profiler.profile`` in ``before`` (CPU activity, plus CUDA when a device
is available) and stops it first thing in ``after``. It writes ``report.torch_profile``, a plain
JSON-ready dict: the top operators by self time, host↔device copies (count and bytes, from the
CUDA trace), and the share of the cell spent waiting for DataLoader batches — input-bound above
5 %, strongly above 20 %. Only when torch is already imported: aiperf never imports it itself.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..report import Report
    from .run import CellRun

STATE_KEY = "torch_profile.profiler"
TOP_OPS = 10
INPUT_BOUND_SHARE = 0.05  # DataLoader time above this share of the cell: input-bound
STRONGLY_INPUT_BOUND_SHARE = 0.20  # ... above this: strongly input-bound
DATALOADER_PREFIX = "enumerate(DataLoader)"  # the record_function name torch gives each __next__

_COPY_KINDS = {"HtoD": "host_to_device", "DtoH": "device_to_host", "DtoD": "device_to_device"}


def input_bound_level(share: float) -> str:
    if share > STRONGLY_INPUT_BOUND_SHARE:
        return "strongly input-bound"
    if share > INPUT_BOUND_SHARE:
        return "input-bound"
    return "none"


class _OpTotals:
    __slots__ = ("calls", "self_ns", "total_ns")

    def __init__(self) -> None:
        self.calls = 0
        self.self_ns = 0
        self.total_ns = 0


def _self_times(rows: list[tuple[int, int, int, str]]) -> dict[str, _OpTotals]:
    """Calls, self and total time per op name from (thread, start, duration, name) intervals.

    One sweep per thread with a stack of open ops: an op's self time is its duration less its
    children's. torch's own ``key_averages`` does the same through Python objects per event and
    takes minutes on the half a million events of a small training loop; this takes about a second.
    """
    totals: dict[str, _OpTotals] = {}
    rows.sort(key=lambda r: (r[0], r[1], -r[2]))
    stack: list[list[Any]] = []  # [end_ns, name, duration_ns, children_ns]
    thread = None

    def close(item: list[Any]) -> None:
        slot = totals.get(item[1])
        if slot is None:
            slot = totals[item[1]] = _OpTotals()
        slot.calls += 1
        slot.self_ns += item[2] - item[3]
        slot.total_ns += item[2]

    for tid, start, duration, name in rows:
        if tid != thread:
            while stack:
                close(stack.pop())
            thread = tid
        while stack and stack[-1][0] <= start:
            close(stack.pop())
        if stack:
            stack[-1][3] += duration
        stack.append([start + duration, name, duration, 0])
    while stack:
        close(stack.pop())
    return totals


def _ms(ns: int) -> float:
    return round(ns / 1e6, 3)


def _top(totals: dict[str, _OpTotals], self_key: str) -> list[dict[str, Any]]:
    ranked = sorted(totals.items(), key=lambda kv: kv[1].self_ns, reverse=True)[:TOP_OPS]
    return [
        {"name": name, "calls": t.calls, self_key: _ms(t.self_ns), "total_ms": _ms(t.total_ns)} for name, t in ranked
    ]


def _copy_kind(name: str) -> str | None:
    if not name.startswith("Memcpy"):
        return None
    return next((v for k, v in _COPY_KINDS.items() if k in name), None)


def summarise_profile(prof: Any, wall_s: float, with_device: bool) -> dict[str, Any]:
    """The plain-dict summary stored in ``report.torch_profile``."""
    events = prof.profiler.kineto_results.events()
    cpu_rows: list[tuple[int, int, int, str]] = []
    device: dict[str, _OpTotals] = {}
    copies: dict[str, dict[str, int | None]] = {k: {"count": 0, "bytes": 0} for k in _COPY_KINDS.values()}
    loader_ns = batches = 0
    for event in events:
        name = event.name()
        if name.startswith(DATALOADER_PREFIX):
            loader_ns += event.duration_ns()
            batches += 1
            continue
        if event.device_type().name == "CPU":
            cpu_rows.append((event.start_thread_id(), event.start_ns(), event.duration_ns(), name))
            continue
        slot = device.get(name)
        if slot is None:
            slot = device[name] = _OpTotals()
        slot.calls += 1
        slot.self_ns += event.duration_ns()
        slot.total_ns += event.duration_ns()
        kind = _copy_kind(name)
        if kind is not None:
            _add_copy(copies[kind], event)
    share = loader_ns / 1e9 / wall_s if wall_s > 0 else 0.0
    summary: dict[str, Any] = {
        "activities": ["cpu", "cuda"] if with_device else ["cpu"],
        "wall_s": round(wall_s, 6),
        "events": len(events),
        "top_ops": _top(_self_times(cpu_rows), "self_cpu_ms"),
        "top_device_ops": _top(device, "self_device_ms") if with_device else None,
        "copies": copies if with_device else None,
        "dataloader": {
            "seconds": round(loader_ns / 1e9, 6),
            "batches": batches,
            "share": round(share, 4),
            "input_bound": share > INPUT_BOUND_SHARE,
            "level": input_bound_level(share),
        },
        "notes": [],
    }
    if not with_device:
        summary["notes"].append("CPU activity only (no CUDA device): host↔device copies not recorded")
    return summary


def _add_copy(slot: dict[str, int | None], event: Any) -> None:
    slot["count"] = (slot["count"] or 0) + 1
    meta = event.extra_meta() if hasattr(event, "extra_meta") else None
    size = (meta or {}).get("bytes")
    if size is None or slot["bytes"] is None:
        slot["bytes"] = None  # unknown for at least one copy: never under-report
    else:
        slot["bytes"] = int(slot["bytes"]) + int(size)


# The profiler this module started and has not stopped yet. A run cancelled before ``after`` (the
# extension unloaded mid-cell) would otherwise leave it recording every later op of the kernel.
_running: list[Any] = []


def stop_leftover() -> bool:
    """Stop a profiler left running by a cancelled run; True when there was one."""
    stopped = False
    while _running:
        prof = _running.pop()
        try:
            prof.stop()
            stopped = True
        except Exception:
            pass  # already stopped by torch itself: nothing left to release
    return stopped


class TorchProfileStage:
    name = "torch-profile"

    def before(self, run: CellRun) -> None:
        if stop_leftover():
            run.notes.append("--torch-profile: stopped a profiler left running by an interrupted cell")
        if not getattr(run.options, "torch_profile", False):
            return
        torch = sys.modules.get("torch")
        if torch is None:
            run.notes.append(
                "--torch-profile: torch is not imported in this kernel, so there is nothing "
                "to profile (import torch before the measured cell)"
            )
            return
        from torch.profiler import ProfilerActivity, profile

        with_device = bool(torch.cuda.is_available())
        activities = [ProfilerActivity.CPU] + ([ProfilerActivity.CUDA] if with_device else [])
        prof = profile(activities=activities)
        try:
            prof.start()
        except Exception as exc:  # e.g. another profiler is already running in this process
            run.notes.append(f"--torch-profile: profiler did not start: {type(exc).__name__}: {exc}")
            return
        run.state[STATE_KEY] = (prof, with_device)
        _running.append(prof)

    def cancel(self, run: CellRun) -> None:
        """For a run that ends without ``after``: stop the profiler, keep nothing."""
        run.state.pop(STATE_KEY, None)
        stop_leftover()

    def after(self, run: CellRun, report: Report) -> None:
        entry = run.state.pop(STATE_KEY, None)
        if entry is None:
            return
        prof, with_device = entry
        prof.stop()  # first: nothing of aiperf's own work belongs in the trace
        if prof in _running:
            _running.remove(prof)
        report.torch_profile = summarise_profile(prof, report.wall_s, with_device)
        loader = report.torch_profile["dataloader"]
        if loader["input_bound"]:
            report.notes.append(
                f"torch profile: {loader['level']}: waiting for DataLoader batches took "
                f"{100 * loader['share']:.0f} % of the cell ({loader['seconds']:.3f} s)"
            )
