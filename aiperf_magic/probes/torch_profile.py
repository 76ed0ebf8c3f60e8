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
    from ..run import CellRun

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


def _top_ops(averages: Any, with_device: bool) -> list[dict[str, Any]]:
    def self_time(avg: Any) -> float:
        device = getattr(avg, "self_device_time_total", 0.0) if with_device else 0.0
        return float(avg.self_cpu_time_total) + float(device or 0.0)

    rows = []
    for avg in sorted(averages, key=self_time, reverse=True)[:TOP_OPS]:
        row = {
            "name": str(avg.key),
            "calls": int(avg.count),
            "self_cpu_ms": round(avg.self_cpu_time_total / 1000.0, 3),
            "cpu_total_ms": round(avg.cpu_time_total / 1000.0, 3),
        }
        if with_device:
            row["self_device_ms"] = round(float(getattr(avg, "self_device_time_total", 0.0)) / 1000.0, 3)
        rows.append(row)
    return rows


def _copies(prof: Any) -> dict[str, dict[str, int | None]]:
    """Memcpy activities of the CUDA trace, by direction; bytes where this torch reports them."""
    out: dict[str, dict[str, int | None]] = {k: {"count": 0, "bytes": 0} for k in _COPY_KINDS.values()}
    results = getattr(getattr(prof, "profiler", None), "kineto_results", None)
    if results is None:
        return out
    for event in results.events():
        name = event.name()
        if not name.startswith("Memcpy"):
            continue
        kind = next((v for k, v in _COPY_KINDS.items() if k in name), None)
        if kind is None:
            continue
        slot = out[kind]
        slot["count"] = (slot["count"] or 0) + 1
        meta = event.extra_meta() if hasattr(event, "extra_meta") else {}
        size = (meta or {}).get("bytes")
        if size is None or slot["bytes"] is None:
            slot["bytes"] = None  # unknown for at least one copy: do not under-report
        else:
            slot["bytes"] = int(slot["bytes"]) + int(size)
    return out


def summarise_profile(prof: Any, wall_s: float, with_device: bool) -> dict[str, Any]:
    averages = list(prof.key_averages())
    loader = [a for a in averages if str(a.key).startswith(DATALOADER_PREFIX)]
    loader_s = sum(a.cpu_time_total for a in loader) / 1e6
    share = loader_s / wall_s if wall_s > 0 else 0.0
    summary: dict[str, Any] = {
        "activities": ["cpu", "cuda"] if with_device else ["cpu"],
        "wall_s": round(wall_s, 6),
        "top_ops": _top_ops([a for a in averages if a not in loader], with_device),
        "copies": _copies(prof) if with_device else None,
        "dataloader": {
            "seconds": round(loader_s, 6),
            "batches": int(sum(a.count for a in loader)),
            "share": round(share, 4),
            "input_bound": share > INPUT_BOUND_SHARE,
            "level": input_bound_level(share),
        },
        "notes": [],
    }
    if not with_device:
        summary["notes"].append("CPU activity only (no CUDA device): host↔device copies not recorded")
    return summary


class TorchProfileStage:
    name = "torch-profile"

    def before(self, run: CellRun) -> None:
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

    def after(self, run: CellRun, report: Report) -> None:
        entry = run.state.pop(STATE_KEY, None)
        if entry is None:
            return
        prof, with_device = entry
        prof.stop()  # first: nothing of aiperf's own work belongs in the trace
        report.torch_profile = summarise_profile(prof, report.wall_s, with_device)
        loader = report.torch_profile["dataloader"]
        if loader["input_bound"]:
            report.notes.append(
                f"torch profile: {loader['level']}: waiting for DataLoader batches took "
                f"{100 * loader['share']:.0f} % of the cell ({loader['seconds']:.3f} s)"
            )
