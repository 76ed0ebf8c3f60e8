"""One kernel's run of the labelled cells: a fresh IPython shell with aiperf loaded, each cell's
setup, then the cell plain and under ``%%aiperf`` alternately, timed side by side.

    python cell_worker.py KERNEL OUT.json NAME [NAME ...] [--repeat N] [--plain]

Started by ``benchmarks/real_cells.py``, one process per kernel (``data``: NumPy and pandas
imported up front; ``torch``: torch as well), so every cell meets the same modules whatever ran
before it. torch runs one intra-op thread by default (``--torch-threads``): on a small shared
machine two OpenMP threads wait for each other at every operator (a small MLP's step took 4.5 ms
with one thread and 38 to 112 ms with two on this project's 2-core machine). Between cells the
namespace is reset (``%reset -f``). The first ``%%aiperf`` of the process is timed on an empty
cell, before any labelled cell, and reported on its own.
"""

from __future__ import annotations

import argparse
import gc
import json
import sys
import time
import traceback
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from cell_labels import Cell, read_cell  # noqa: E402

PRELOAD = {"data": ("numpy", "pandas"), "torch": ("numpy", "pandas", "torch")}


def new_shell() -> Any:
    from IPython.testing.globalipapp import get_ipython

    shell = get_ipython()
    # as in a Jupyter kernel, the user's namespace is the __main__ module: functions defined in a
    # cell can be pickled by name (process pools)
    sys.modules["__main__"] = shell.user_module
    shell.run_line_magic("load_ext", "aiperf_magic")
    return shell


def run(shell: Any, code: str) -> tuple[float, str | None]:
    """Seconds ``run_cell`` took for ``code`` (output captured), and the error it raised, if any."""
    from IPython.utils.capture import capture_output

    with capture_output():
        start = time.perf_counter()
        result = shell.run_cell(code, store_history=False)
        elapsed = time.perf_counter() - start
    error = result.error_in_exec or result.error_before_exec
    return elapsed, None if error is None else f"{type(error).__name__}: {error}"


def summarise(report: Any) -> dict[str, Any]:
    """What the scoring needs from one Report: the findings the panel lists (as the text and HTML
    views list them: ``shown_findings``), the hidden ones, the verdict and the hottest lines."""
    from aiperf_magic.render.summary import shown_findings

    listed = {id(f) for _, f in shown_findings(report)}

    def finding(f: Any) -> dict[str, Any]:
        return {"code": f.code, "line": f.line, "message": f.message[:300], "preview": f.preview,
                "share": f.evidence.get("share"), "hidden_reason": f.hidden_reason}

    verdict = report.verdict
    return {
        "wall_s": report.wall_s, "cpu_s": report.cpu_s, "cpu_wait_s": report.cpu_wait_s,
        "shown": [finding(f) for f in report.findings if id(f) in listed],
        "hidden": [finding(f) for f in report.findings
                   if id(f) not in listed and f.code != getattr(verdict, "code", None)],
        "verdict": verdict.code if verdict else "none",
        "verdict_sentence": verdict.sentence if verdict else "",
        "verdict_evidence": dict(verdict.evidence) if verdict else {},
        # why there is no verdict, when there is none (too short, the machine was busy, no single bottleneck)
        "verdict_note": "" if verdict else next((n for n in report.notes if n.startswith("No ")), ""),
        "hotspots": [{"line": h.line, "share": round(h.share, 3), "callee": h.callee} for h in report.hotspots[:3]],
    }


def first_call_cost(shell: Any) -> dict[str, float]:
    """The first ``%%aiperf`` in a kernel against the second, on an empty cell."""
    first, _ = run(shell, "%%aiperf\npass\n")
    second, _ = run(shell, "%%aiperf\npass\n")
    plain, _ = run(shell, "pass\n")
    return {"first_s": first, "second_s": second, "plain_s": plain}


def measure(shell: Any, cell: Cell, repeat: int, plain_only: bool) -> dict[str, Any]:
    out: dict[str, Any] = {"name": cell.name}
    shell.run_line_magic("reset", "-f")
    gc.collect()
    state = shell._aiperf_magics.state
    try:
        out["setup_s"], error = run(shell, cell.setup)
        if error:
            return {**out, "error": f"setup: {error}"}
        warm, error = run(shell, cell.source)  # also the warm-up: imports, caches
        if error:
            return {**out, "error": f"cell: {error}"}
        out["plain_s"], out["magic_s"], out["reports"] = [warm] if plain_only else [], [], []
        for r in range(0 if plain_only else repeat):
            for mode in ("plain", "magic") if r % 2 == 0 else ("magic", "plain"):
                before = state.last_report
                seconds, error = run(shell, ("%%aiperf\n" if mode == "magic" else "") + cell.source)
                if error:
                    return {**out, "error": f"{mode} run: {error}"}
                out[f"{mode}_s"].append(seconds)
                if mode == "magic":
                    if state.last_report is before:
                        return {**out, "error": "%%aiperf made no report"}
                    out["reports"].append(summarise(state.last_report))
        return out
    except Exception:
        return {**out, "error": traceback.format_exc(limit=3)}
    finally:
        if cell.teardown.strip():
            run(shell, cell.teardown)


def worker_parser(doc: str, repeat: int) -> argparse.ArgumentParser:
    """The arguments every worker takes: the kernel's preloads, the output file, the cells."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    parser.add_argument("kernel", choices=sorted(PRELOAD))
    parser.add_argument("out")
    parser.add_argument("names", nargs="+")
    parser.add_argument("--repeat", type=int, default=repeat)
    parser.add_argument("--torch-threads", type=int, default=1)
    return parser


def start_kernel(args: argparse.Namespace) -> Any:
    """Import the kernel's preloads (torch with its thread count) and make its shell."""
    for module in PRELOAD[args.kernel]:
        __import__(module)
    if args.kernel == "torch":
        import torch

        torch.set_num_threads(args.torch_threads)
    return new_shell()


def main() -> None:
    parser = worker_parser(__doc__ or "", repeat=3)
    parser.add_argument("--plain", action="store_true", help="run each cell once, plain, without aiperf")
    args = parser.parse_args()
    shell = start_kernel(args)
    results: dict[str, Any] = {"kernel": args.kernel, "cells": []}
    if not args.plain:
        results["first_call"] = first_call_cost(shell)
    for name in args.names:
        cell = read_cell(HERE / "cells" / f"{name}.py")
        result = measure(shell, cell, args.repeat, args.plain)
        results["cells"].append(result)
        status = result.get("error") or f"plain {min(result.get('plain_s') or [0]):.2f} s"
        print(f"  {name}: {status}", file=sys.stderr, flush=True)
        Path(args.out).write_text(json.dumps(results), encoding="utf-8")
    Path(args.out).write_text(json.dumps(results), encoding="utf-8")


if __name__ == "__main__":
    main()
