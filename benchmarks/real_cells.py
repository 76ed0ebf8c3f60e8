"""What %%aiperf shows on slow and healthy cells in the shapes public notebooks take, against labels
written before anything was measured or tuned.

    python benchmarks/real_cells.py [--half A|B|C|D|E|F|G|H|I|J|K|all] [--json out.json] [--only NAME ...] [--repeat N]
    python benchmarks/real_cells.py --plain          # every cell once, without aiperf: do they run, how long

The cells are ``benchmarks/real_cells/cells/*.py`` (each with its source, labels and data size:
see ``real_cells/cell_labels.py`` for the format), split once into half A (tune on it) and half B
(held out at first) in ``real_cells/index.json``; half C is a second held-out half of newer cells,
written and labelled after A and B had been looked at; B moved to tuning after its second report,
and half D, new cells labelled before any ran, was held out in its place; D moved to tuning after
its first report, and half E, new cells in shapes no earlier half used, labelled and committed
before any ran, was held out in its place; E moved to tuning after its first report, and half F,
again new cells in shapes no earlier half used, labelled and committed before any ran under
``%%aiperf``, was held out in its place; F moved to tuning after its first report, and half G, new
cells in shapes no earlier half used, labelled and committed before any ran under ``%%aiperf``, was
held out in its place; G moved to tuning after its first report, and half H, again new cells in
shapes no earlier half used, labelled and committed before any ran under ``%%aiperf``, was held out
in its place; H moved to tuning after its first report, and half I, new cells in shapes no earlier
half used, labelled and committed before any ran under ``%%aiperf``, was held out in its place; I
moved to tuning after its first report, and half J, again new cells in shapes no earlier half used,
labelled and committed before any ran under ``%%aiperf``, was held out beside C; J moved to tuning
after its first report, and half K, again new cells in shapes no earlier half used, labelled and
committed before any ran under ``%%aiperf``, is held out beside C (``tuning`` and ``held_out`` in
the index say which halves are which). Each kernel (``data``, ``torch``) is a fresh
Python process with a real IPython shell and aiperf loaded: for each cell, the setup (the notebook's
earlier cells) runs, the cell runs once plain to warm up, then plain and ``%%aiperf`` alternate
``--repeat`` times (plain first, then magic first, ...), and the teardown stops what the setup
started (a local HTTP server in its own process stands in for remote services; nothing reaches the
network).

What counts, on the first ``%%aiperf`` run of each cell:

- **shown**: the findings the report lists for the user, which are exactly those the panel, the
  text view and the HTML view list (``aiperf_magic.render.summary.shown_findings``: ``shown`` is
  true, the primary verdict's own code left out, the first 50). Findings hidden behind "N findings
  hidden" are not shown. A verdict also listed as a finding (AIP9xx) is judged as a verdict.
- **precision by site**: shown findings whose code is a labelled trap's code (or an ``ok:`` code)
  on one of that trap's lines, over all shown findings (healthy cells' findings included).
  Traps that exist only with CUDA (``expect[cuda]``) are neutral on a machine without it: a
  finding on them counts neither way, and they are left out of recall.
- **recall**: labelled traps with at least one right shown finding, over labelled traps.
- **verdict accuracy**: cells whose verdict (its code, or "none") is one the label accepts, and
  is not contradicted by its own numbers: AIP907 needs 0.7 core and AIP908 1.5 cores of the
  cell's own CPU time (``process_cpu_cores``); CPU other processes held is a busy machine, not
  the cell's bottleneck, except that AIP907 may say a cell that ran more than half a core of its
  own wanted a whole one when its wait for a CPU (``cpu_wait_cores``) makes up the rest.
- **false alarm**: a healthy cell with any wrongly placed shown finding, or a verdict (primary or
  listed) its label does not accept: one that blames the cell for a bottleneck it does not have.
- **overhead**: the whole magic call (``run_cell`` with ``%%aiperf``: measuring, analysis, the
  report's text and HTML views; no widget, as in a terminal) over the same cell run plain, the
  medians of the alternated runs; the median and the worst ratio over the cells whose plain run
  takes 0.1 s or more, and the median and the worst seconds added over all cells. The machine is
  shared: single runs move by up to 2x, so read the medians. The first ``%%aiperf`` of each kernel
  is timed apart, on an empty cell.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE / "real_cells"))

from cell_labels import HALVES, Cell, check_index, held_out_halves, load_cells, load_index  # noqa: E402
from cell_score import score_cell, totals  # noqa: E402

WORKER = HERE / "real_cells" / "cell_worker.py"
SECONDS_PER_CELL = 90  # a kernel that takes longer than this per cell has hung


def cuda_available() -> bool:
    code = "import torch, sys; sys.stdout.write(str(torch.cuda.is_available()))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    return out.stdout.strip() == "True"


def corpus_split_problems(index: dict[str, dict[str, str]]) -> list[str]:
    """The copy of the split in the lint corpus's labels must say what the index says."""
    path = HERE / "corpus_labels.json"
    split = json.loads(path.read_text(encoding="utf-8")).get("real_cells_split") if path.exists() else None
    if split is None:
        return []
    halves = sorted({e["half"] for e in index.values()})
    wanted = {h: sorted(n for n, e in index.items() if e["half"] == h) for h in halves}
    return [f"corpus_labels.json real_cells_split.{h} differs from real_cells/index.json"
            for h in halves if sorted(split.get(h, [])) != wanted[h]]


def select(cells: list[Cell], index: dict[str, dict[str, str]], half: str, only: list[str]) -> list[Cell]:
    names = {c.name for c in cells}
    unknown = [n for n in only if n not in names]
    if unknown:
        raise SystemExit(f"unknown cell {', '.join(unknown)}; see benchmarks/real_cells/cells/")
    chosen = [c for c in cells if half == "all" or index[c.name]["half"] == half]
    other = [n for n in only if half != "all" and index[n]["half"] != half]
    if other:
        print(f"left out, not in half {half}: {', '.join(other)}", file=sys.stderr)
    return [c for c in chosen if c.name in only] if only else chosen


def run_kernel(kernel: str, cells: list[Cell], repeat: int, plain: bool, torch_threads: int,
               worker: Path = WORKER) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="aiperf-real-cells-") as tmp:
        out = Path(tmp) / "out.json"
        cmd = [sys.executable, str(worker), kernel, str(out), *[c.name for c in cells], "--repeat", str(repeat),
               "--torch-threads", str(torch_threads)] + (["--plain"] if plain else [])
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
        print(f"kernel {kernel}: {len(cells)} cells", file=sys.stderr, flush=True)
        try:
            proc = subprocess.run(cmd, cwd=tmp, env=env, timeout=SECONDS_PER_CELL * len(cells) + 60, check=False)
            failed = f"the kernel exited with {proc.returncode}" if proc.returncode else None
        except subprocess.TimeoutExpired:
            failed = "the kernel took too long and was stopped"
        data: dict[str, Any] = json.loads(out.read_text()) if out.exists() else {"cells": []}
    done = {r["name"] for r in data["cells"]}
    data["cells"] += [{"name": c.name, "error": failed or "not run"} for c in cells if c.name not in done]
    return data


def line_of(s: dict[str, Any], half: str) -> str:
    head = f"{half} {s['kind']:<7} {s['name']:<38}"
    if s.get("error"):
        return head + " ERROR " + s["error"].splitlines()[-1][:150]
    marks = {"right": "+", "wrong": "x", "neutral": "~"}
    shown = " ".join(f"{m['code']}@{m['line']}{marks[m['mark']]}" for m in s["sites"]) or "-"
    missed = " ".join(s["missed"]) or "-"
    verdict = f"{s['verdict']}{'+' if s['verdict_ok'] else 'x'}"
    if s.get("verdict_contradicted"):
        verdict += f" (contradicted: {s['verdict_contradicted']})"
    elif not s["verdict_ok"] and s.get("verdict_note"):
        verdict += f" ({s['verdict_note'].split('. ')[0][:90]})"
    alarm = "  FALSE ALARM" if s.get("false_alarm") else ""
    steady = "" if s["stable"] else "  (findings varied across runs)"
    return (f"{head} {s['plain_s']:6.2f}s {s['ratio']:5.2f}x  shown {shown}  missed {missed}  "
            f"verdict {verdict}{alarm}{steady}")


def print_totals(name: str, t: dict[str, Any]) -> None:
    p, r, v, fa, o = t["precision"], t["recall"], t["verdict"], t["false_alarms"], t["overhead"]

    def pct(x: float | None) -> str:
        return "n/a" if x is None else f"{x:.0f} %"

    print(f"\n{name}: {t['cells']} cells ({t['slow']} slow, {t['healthy']} healthy)"
          + (f", {len(t['errors'])} failed: {', '.join(t['errors'])}" if t["errors"] else ""))
    print(f"  precision by site  {p['right']}/{p['shown']} = {pct(p['percent'])}"
          + (f"  ({p['neutral']} neutral: CUDA-only traps)" if p["neutral"] else ""))
    print(f"  recall             {r['found']}/{r['traps']} = {pct(r['percent'])}")
    print(f"  verdict accuracy   {v['right']}/{v['cells']} = {pct(v['percent'])}")
    print(f"  false alarms       {fa['count']} of {fa['healthy']} healthy cells"
          + (f": {', '.join(fa['cells'])}" if fa["cells"] else ""))
    if o["median_ratio"] is not None:
        print(f"  overhead           median {o['median_ratio']:.2f}x, worst {o['worst_ratio']:.2f}x "
              f"({o['worst_ratio_cell']}) over the {o['ratio_cells']} cells of 0.1 s or more; "
              f"added median {o['median_added_s']:+.3f} s, worst {o['worst_added_s']:+.2f} s ({o['worst_added_cell']})")
    if t["unstable"]:
        print(f"  findings varied across runs in {len(t['unstable'])} cells: {', '.join(t['unstable'])}")
    fams = "  ".join(f"{f} {x['found']}/{x['traps']}" + (f" ({x['wrong']} wrong)" if x["wrong"] else "")
                     for f, x in t["families"].items())
    print(f"  recall by family   {fams}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--half", choices=(*HALVES, "all"), default="all")
    parser.add_argument("--json", metavar="PATH", help="write every cell's scores and the totals here")
    parser.add_argument("--only", action="append", default=[], metavar="NAME",
                        help="run only this cell (repeatable, or comma-separated)")
    parser.add_argument("--repeat", type=int, default=3, help="alternated plain/%%aiperf runs per cell (default 3)")
    parser.add_argument("--plain", action="store_true", help="run each cell once without aiperf and print its time")
    parser.add_argument("--torch-threads", type=int, default=1, help="torch intra-op threads in the torch kernel")
    parser.add_argument("--try", dest="tries", action="store_true",
                        help="Try the shown fixes of the slow cells that have a faster rewrite")
    args = parser.parse_args()
    if args.repeat < 1:
        parser.error("--repeat must be 1 or more")
    cells, index = load_cells(), load_index()
    problems = check_index(cells, index) + corpus_split_problems(index)
    if problems:
        raise SystemExit("the labels and the split disagree:\n  " + "\n  ".join(problems))
    only = [n for item in args.only for n in item.split(",") if n]
    chosen = select(cells, index, args.half, only)
    cuda = cuda_available()
    if args.tries:
        from cell_try import REPEAT, report_tries

        return report_tries(chosen, index, cuda, args.json, lambda kernel, group: run_kernel(
            kernel, group, REPEAT, False, args.torch_threads, HERE / "real_cells" / "cell_try.py"))
    start = time.perf_counter()
    results: dict[str, dict[str, Any]] = {}
    first_calls: dict[str, Any] = {}
    for kernel in ("data", "torch"):
        group = [c for c in chosen if c.kernel == kernel]
        if group:
            data = run_kernel(kernel, group, args.repeat, args.plain, args.torch_threads)
            results.update({r["name"]: r for r in data["cells"]})
            if "first_call" in data:
                first_calls[kernel] = data["first_call"]
    if args.plain:
        for c in chosen:
            r = results[c.name]
            print(f"{index[c.name]['half']} {c.kind:<7} {c.name:<38} " + (r.get("error") or f"{r['plain_s'][0]:.2f} s"))
        return 1 if any(r.get("error") for r in results.values()) else 0
    scored = [score_cell(c, results[c.name], cuda) for c in chosen]
    for s in scored:
        print(line_of(s, index[s["name"]]["half"]))
    halves = sorted({index[s["name"]]["half"] for s in scored})
    summary = {h: totals([s for s in scored if index[s["name"]]["half"] == h]) for h in halves}
    if len(halves) > 1:
        summary["all"] = totals(scored)
    for name, t in summary.items():
        title = "all cells" if name == "all" else f"half {name}" + (" (held out)" if name in held_out_halves()
                                                                   else " (tune)")
        print_totals(title, t)
    for kernel, fc in first_calls.items():
        print(f"first %%aiperf in the {kernel} kernel: {fc['first_s']:.2f} s on an empty cell "
              f"(the next one {fc['second_s']:.2f} s, plain {fc['plain_s'] * 1000:.1f} ms)")
    print(f"\n{time.perf_counter() - start:.0f} s, cuda {'yes' if cuda else 'no'}, repeat {args.repeat}, "
          f"machine load {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    if args.json:
        Path(args.json).write_text(json.dumps({"totals": summary, "first_call": first_calls, "cuda": cuda,
                                               "repeat": args.repeat, "cells": scored}, indent=1), encoding="utf-8")
    return 1 if any(s.get("error") for s in scored) else 0


if __name__ == "__main__":
    sys.exit(main())
