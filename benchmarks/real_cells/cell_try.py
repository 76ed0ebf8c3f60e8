"""The Try of each slow cell's shown fixes: the rewrite the panel offers, run through the real
``verify`` beside the original, as a user clicking Try would run it.

    python cell_try.py KERNEL OUT.json NAME [NAME ...] [--repeat N]

Started by ``benchmarks/real_cells.py --try``, one process per kernel, with the same shell, setup
and teardown as ``cell_worker.py``. For each cell: the setup runs, the cell runs once plain (the
warm-up), once under ``%%aiperf``; then every shown finding that carries a rewrite (at most
``MAX_TRIES``, in the panel's order) is tried with ``verify(report.source, fix.source, namespace)``
and the panel's options (``first_line``, ``expected_s``). A Try that a trial blocked (a request to
the local server standing in for a remote service) is run again with ``allow_io=True``, as the
panel offers after a block. :func:`score` turns the results into the per-cell outcome and totals.
"""

from __future__ import annotations

import json
import statistics
import sys
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from cell_labels import Cell, held_out_halves, read_cell  # noqa: E402
from cell_worker import run, start_kernel, worker_parser  # noqa: E402

MAX_TRIES = 3
REPEAT = 5  # the panel's Try repeat


def comparison_row(finding: Any, c: Any, allow_io: bool) -> dict[str, Any]:
    return {
        "code": finding.code, "line": finding.line, "safety": finding.fix.safety,
        "measure_first": bool(finding.fix.measure_first), "equal": bool(c.equal), "better": bool(c.better),
        "faster": c.faster, "speedup": c.speedup, "speedup_low": c.speedup_low, "speedup_high": c.speedup_high,
        "before_s": c.before_s, "after_s": c.after_s,
        "difference": (c.difference or "")[:300], "error": (c.error or "").strip().splitlines()[-1:] or None,
        "refused": c.refused, "blocked": c.blocked, "timed_out": c.timed_out, "allow_io": allow_io,
    }


def try_cell(shell: Any, cell: Cell, repeat: int) -> dict[str, Any]:
    from aiperf_magic.render.summary import shown_findings
    from aiperf_magic.verification import verify

    out: dict[str, Any] = {"name": cell.name, "tries": [], "shown": [], "reasons": []}
    shell.run_line_magic("reset", "-f")
    state = shell._aiperf_magics.state
    try:
        _, error = run(shell, cell.setup)
        if error:
            return {**out, "error": f"setup: {error}"}
        plain_s, error = run(shell, cell.source)
        if error:
            return {**out, "error": f"cell: {error}"}
        out["plain_s"] = plain_s
        before = state.last_report
        _, error = run(shell, "%%aiperf\n" + cell.source)
        report = state.last_report
        if error or report is before:
            return {**out, "error": f"%%aiperf: {error or 'no report'}"}
        shown = [f for _, f in shown_findings(report)]
        out["shown"] = [f"{f.code}@{f.line}" for f in shown]
        out["reasons"] = [f"{f.code}@{f.line}: {f.fix.reason}" for f in shown if f.fix and not f.fix.source
                          and f.fix.reason]
        for finding in [f for f in shown if f.fix is not None and f.fix.source][:MAX_TRIES]:
            options = {"first_line": report.cell_line(1), "expected_s": report.wall_s or None,
                       "rebind": finding.fix.rebind or None}  # a rewrite of an earlier cell's function
            c = verify(report.source, finding.fix.source, shell.user_ns, repeat=repeat, **options)
            allow_io = False
            if c.blocked:
                allow_io = True
                c = verify(report.source, finding.fix.source, shell.user_ns, repeat=repeat, allow_io=True,
                           **options)
            out["tries"].append(comparison_row(finding, c, allow_io))
            # the rewrite of a labelled trap (the code on one of its lines), or of another shown finding
            out["tries"][-1]["trap"] = any(t.accepts(finding.code, finding.line) for t in cell.traps)
            out["tries"][-1]["source"] = finding.fix.cell_source or finding.fix.source
            out["tries"][-1]["cell"] = finding.fix.cell
        return out
    except Exception:
        return {**out, "error": traceback.format_exc(limit=3)}
    finally:
        if cell.teardown.strip():
            run(shell, cell.teardown)


def outcome(result: dict[str, Any]) -> str:
    """One word per cell, from the Tries of the shown findings on a labelled trap (all shown fixes
    when none is on one): better (one is equal and faster), different, slower (a default fix,
    equal and slower), equal (equal, not faster), failed (the rewrite raised, was refused or timed
    out), nofix, error. A different Try of another shown fix is counted apart."""
    if result.get("error"):
        return "error"
    # judged on the rewrites of the labelled traps; on the other shown fixes when no trap got one
    tries = [t for t in result["tries"] if t.get("trap")] or result["tries"]
    if not tries:
        return "nofix"
    if any(not t["equal"] and t["difference"] for t in tries):
        return "different"
    if any(t["better"] for t in tries):
        return "better"
    # slower beyond the runs' spread (its whole interval below 1), for a fix applied by default
    if any(t["equal"] and t["faster"] is False and _high(t) < 1 and not t["measure_first"] and t["safety"] == "safe"
           for t in tries):
        return "slower"
    if any(t["equal"] for t in tries):
        return "equal"
    return "failed"


def _high(t: dict[str, Any]) -> float:
    high = t.get("speedup_high")
    return high if high is not None else (t["speedup"] or 1.0)


def score(results: list[dict[str, Any]]) -> dict[str, Any]:
    words = [outcome(r) for r in results]
    speedups = [max(t["speedup"] for t in r["tries"] if t["better"]) for r, w in zip(results, words, strict=True)
                if w == "better"]
    counts = {w: words.count(w) for w in ("better", "different", "slower", "equal", "failed", "nofix", "error")}
    other = sum(1 for r in results for t in r.get("tries", []) if not t.get("trap") and not t["equal"]
                and t["difference"])
    return {"cells": len(results), **counts, "other_different": other,
            "percent": 100 * counts["better"] / len(results) if results else None,
            "median_speedup": statistics.median(speedups) if speedups else None}


def line_of(result: dict[str, Any], half: str) -> str:
    word = outcome(result)
    head = f"{half} {result['name']:<38} {word:<9}"
    if result.get("error"):
        return head + " " + result["error"].strip().splitlines()[-1][:150]
    parts = []
    for t in result["tries"]:
        what = ("equal" if t["equal"] else "DIFFERENT" if t["difference"] else "no result")
        speed = f" x{t['speedup']:.2f}" if t["speedup"] else ""
        extra = (t["difference"] or (t["error"] or [""])[0] or t["refused"] or t["blocked"] or "")[:120]
        io = " (allow_io)" if t["allow_io"] else ""
        mark = "" if t.get("trap") else " (not the trap)"
        parts.append(f"{t['code']}@{t['line']}{mark} {what}{speed}{io}" + (f" [{extra}]" if extra else ""))
    if not parts:
        parts = [f"shown {' '.join(result['shown']) or '-'}", *result["reasons"][:2]]
    return head + " " + "; ".join(parts)


def main() -> None:
    args = worker_parser(__doc__ or "", repeat=REPEAT).parse_args()
    shell = start_kernel(args)
    results: dict[str, Any] = {"kernel": args.kernel, "cells": []}
    for name in args.names:
        result = try_cell(shell, read_cell(HERE / "cells" / f"{name}.py"), args.repeat)
        results["cells"].append(result)
        print(f"  {line_of(result, '')}", file=sys.stderr, flush=True)
        Path(args.out).write_text(json.dumps(results), encoding="utf-8")
    Path(args.out).write_text(json.dumps(results), encoding="utf-8")


if __name__ == "__main__":
    main()


def rewrite_exists(cell: Cell, cuda: bool) -> bool:
    """The label says a correct, faster rewrite exists (one that needs a GPU only where CUDA is)."""
    said = cell.header["rewrite"].strip().lower()
    return cell.kind == "slow" and said.startswith("yes") and (cuda or not said.startswith("yes on a gpu"))


def report_tries(chosen: list[Cell], index: dict[str, dict[str, str]], cuda: bool, json_path: str | None,
                 run_kernel: Callable[[str, list[Cell]], dict[str, Any]]) -> int:
    """``real_cells.py --try``: Try the cells with a faster rewrite, print each and the totals per half."""
    cells = [c for c in chosen if rewrite_exists(c, cuda)]
    results: dict[str, dict[str, Any]] = {}
    for kernel in ("data", "torch"):
        group = [c for c in cells if c.kernel == kernel]
        if group:
            results.update({r["name"]: r for r in run_kernel(kernel, group)["cells"]})
    ordered = [results[c.name] for c in cells]
    for r in ordered:
        print(line_of(r, index[r["name"]]["half"]))
    halves = sorted({index[c.name]["half"] for c in cells})
    summary = {h: score([r for r in ordered if index[r["name"]]["half"] == h]) for h in halves}
    for half, t in summary.items():
        title = f"half {half}" + (" (held out)" if half in held_out_halves() else " (tune)")
        pct = "n/a" if t["percent"] is None else f"{t['percent']:.0f} %"
        median = "n/a" if t["median_speedup"] is None else f"x{t['median_speedup']:.1f}"
        print(f"\n{title}: {t['cells']} slow cells with a faster rewrite")
        print(f"  equal and faster   {t['better']}/{t['cells']} = {pct}, median speedup {median}")
        print(f"  different {t['different']}, slower by default {t['slower']}, equal not faster {t['equal']}, "
              f"rewrite failed {t['failed']}, no fix shown {t['nofix']}, cell error {t['error']}; "
              f"different Tries of other shown fixes {t['other_different']}")
    if json_path:
        Path(json_path).write_text(json.dumps({"totals": summary, "cuda": cuda, "cells": ordered}, indent=1),
                                   encoding="utf-8")
    return 1 if any(r.get("error") for r in ordered) else 0
