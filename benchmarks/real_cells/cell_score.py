"""Scoring one cell's measured run against its labels, and adding the scores up.

The first ``%%aiperf`` run of a cell is the one scored; the later runs only time it and say
whether the findings it showed were the same every time (``stable``).
"""

from __future__ import annotations

import statistics
from collections import defaultdict
from typing import Any

from cell_labels import Cell

# overhead ratios only for cells whose plain run takes this long: a 1 ms cell's ratio says nothing
MIN_RATIO_S = 0.1


# a CPU-bound verdict must be true of the cell's own CPU time: the cores its threshold names, from the
# process's CPU alone (time spent waiting for a CPU held by other processes is a busy machine)
OWN_CORES = {"AIP907": 0.7, "AIP908": 1.5}
# ... except that AIP907 may say a cell wanted one whole core on a busy machine: more than half a core
# of its own, and a whole one with the time it waited for a CPU (its sentence then says it waited)
STARVED_OWN_CORES = 0.5


def is_verdict(code: str) -> bool:
    return code.startswith("AIP9")


def contradiction(code: str, evidence: dict[str, Any]) -> str | None:
    """Why a verdict is false by its own numbers, or None."""
    cores = evidence.get("process_cpu_cores")
    if code not in OWN_CORES or cores is None or cores >= OWN_CORES[code]:
        return None
    wanted = cores + (evidence.get("cpu_wait_cores") or 0.0)
    if code == "AIP907" and cores > STARVED_OWN_CORES and wanted >= OWN_CORES[code]:
        return None
    waited = f", {wanted:.2f} with its wait for a CPU" if wanted > cores else ""
    return f"{code} at {cores:.2f} core of the cell's own CPU{waited}"


def score_cell(cell: Cell, result: dict[str, Any], cuda: bool) -> dict[str, Any]:
    base: dict[str, Any] = {"name": cell.name, "family": cell.family, "kind": cell.kind,
                            "verdicts": list(cell.verdicts), "unsure": cell.unsure}
    if result.get("error"):
        return {**base, "error": result["error"]}
    report = result["reports"][0]
    active = [t for t in cell.traps if cuda or not t.cuda]
    neutral = [t for t in cell.traps if t not in active]
    sites = []
    for f in report["shown"]:
        code, line = f["code"], f["line"]
        if is_verdict(code):
            continue  # a verdict also listed as a finding: judged with the verdicts
        if any(t.accepts(code, line) for t in active) or (code, line) in cell.ok:
            mark = "right"
        elif any(t.accepts(code, line) for t in neutral):
            mark = "neutral"
        else:
            mark = "wrong"
        sites.append({"code": code, "line": line, "mark": mark, "message": f["message"]})
    shown = [(s["code"], s["line"]) for s in sites]
    found = [t for t in active if any(t.accepts(code, line) for code, line in shown)]
    verdict = report["verdict"]
    others = [f["code"] for f in report["shown"] if is_verdict(f["code"])]
    contradicted = contradiction(verdict, report.get("verdict_evidence") or {})
    verdict_ok = verdict in cell.verdicts and contradicted is None
    plain, magic = statistics.median(result["plain_s"]), statistics.median(result["magic_s"])
    listed = [sorted((f["code"], f["line"] or 0) for f in r["shown"]) for r in result["reports"]]
    scored = {
        **base,
        "sites": sites,
        "traps": [t.label() for t in active],
        "found": [t.label() for t in found],
        "missed": [t.label() for t in active if t not in found],
        "neutral_traps": [t.label() for t in neutral],
        "hidden": [{"code": f["code"], "line": f["line"], "why": f["hidden_reason"]} for f in report["hidden"]],
        "verdict": verdict,
        "verdict_ok": verdict_ok,
        "verdict_contradicted": contradicted,
        "verdict_sentence": report["verdict_sentence"],
        "verdict_note": report.get("verdict_note", ""),
        "other_verdicts": others,
        "hotspots": report["hotspots"],
        "plain_s": plain,
        "magic_s": magic,
        "ratio": magic / plain if plain > 0 else None,
        "added_s": magic - plain,
        "runs": {"plain": result["plain_s"], "magic": result["magic_s"]},
        "stable": all(x == listed[0] for x in listed),
    }
    if cell.kind == "healthy":
        scored["false_alarm"] = (any(s["mark"] == "wrong" for s in sites) or not verdict_ok
                                 or any(c not in cell.verdicts for c in others))
    return scored


def _pct(num: int, den: int) -> float | None:
    return round(100.0 * num / den, 1) if den else None


def totals(scored: list[dict[str, Any]]) -> dict[str, Any]:
    """The figures of one half (or of all cells): counts, and percentages where they have a base."""
    ran = [s for s in scored if not s.get("error")]
    marks = [m["mark"] for s in ran for m in s["sites"]]
    right, wrong = marks.count("right"), marks.count("wrong")
    traps = sum(len(s["traps"]) for s in ran)
    found = sum(len(s["found"]) for s in ran)
    healthy = [s for s in ran if s["kind"] == "healthy"]
    alarms = [s["name"] for s in healthy if s["false_alarm"]]
    verdicts = sum(1 for s in ran if s["verdict_ok"])
    timed = [s for s in ran if s["plain_s"] >= MIN_RATIO_S]
    ratios = sorted((s["ratio"], s["name"]) for s in timed)
    added = sorted((s["added_s"], s["name"]) for s in ran)
    families: dict[str, dict[str, int]] = defaultdict(lambda: {"traps": 0, "found": 0, "wrong": 0})
    for s in ran:
        fam = families[s["family"]]
        fam["traps"] += len(s["traps"])
        fam["found"] += len(s["found"])
        fam["wrong"] += sum(1 for m in s["sites"] if m["mark"] == "wrong")
    return {
        "cells": len(scored),
        "slow": sum(1 for s in scored if s["kind"] == "slow"),
        "healthy": sum(1 for s in scored if s["kind"] == "healthy"),
        "errors": [s["name"] for s in scored if s.get("error")],
        "precision": {"right": right, "shown": right + wrong, "percent": _pct(right, right + wrong),
                      "neutral": marks.count("neutral")},
        "recall": {"found": found, "traps": traps, "percent": _pct(found, traps)},
        "verdict": {"right": verdicts, "cells": len(ran), "percent": _pct(verdicts, len(ran))},
        "false_alarms": {"cells": alarms, "count": len(alarms), "healthy": len(healthy)},
        "overhead": {
            "ratio_cells": len(ratios),
            "median_ratio": statistics.median(r for r, _ in ratios) if ratios else None,
            "worst_ratio": ratios[-1][0] if ratios else None,
            "worst_ratio_cell": ratios[-1][1] if ratios else None,
            "median_added_s": statistics.median(a for a, _ in added) if added else None,
            "worst_added_s": added[-1][0] if added else None,
            "worst_added_cell": added[-1][1] if added else None,
        },
        "unstable": [s["name"] for s in ran if not s["stable"]],
        "families": dict(sorted(families.items())),
    }
