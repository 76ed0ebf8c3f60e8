"""How many runnable trap cells get a rewrite that ``verify`` proves equal, and whether it is faster.

Each cell below is a trap in the shape real notebooks write it, on data built from arrays (a
20,000-row frame, 20,000-item arrays, a 50,000-line file): row loops that assign with
``.loc``/``.at``, append per row or sum with ``itertuples``, index loops, ``apply``, growing arrays
and frames, list lookups, ``readlines`` loops, a training loop that reads ``loss.item()``.

For every cell: the findings of every rule (as ``%%aiperf`` sees it, with the live namespace),
then

- **covered**: all its fixes applied (``--unsafe-fixes``) give a rewrite that ``verify`` runs
  beside the original on copies of the same data and finds equal;
- **default**: what ``lint --fix`` applies without ``--unsafe-fixes``; it must never be slower;
- **measure first**: for a rewrite whose gain depends on size, whether ``%%aiperf`` would
  propose it on this data (``rules.payoff``), and what Try measured.

    python benchmarks/fix_coverage.py [--rows 20000] [--repeat 5] [--only NAME,...]

Prints one row per cell and the totals; exits 1 when coverage is under 90 % or a default fix is
slower (beyond the noise margin).
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from dataclasses import dataclass, field
from typing import Any

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from aiperf_magic import verify
from aiperf_magic.rules import analyze_cell, attach_fixes, fix_findings
from aiperf_magic.rules.payoff import decide

SETUP = """
import numpy as np
import pandas as pd
import torch
from torch import nn

rng = np.random.default_rng(0)
df = pd.DataFrame({
    "price": rng.random(ROWS) * 100,
    "qty": rng.integers(1, 20, ROWS),
    "a": rng.random(ROWS),
    "b": rng.random(ROWS),
})
a = rng.random(ROWS)
b = rng.random(ROWS)
c = 0.5
readings = (rng.random(ROWS) * 10).tolist()
allowed = list(range(0, 20_000, 3))
codes = rng.integers(0, 20_000, 2_000).tolist()
vocab = [f"w{i}" for i in range(2_000)]
words = [vocab[i] for i in rng.integers(0, 2_000, 2_000)]
chunks = [rng.random((50, 8)) for _ in range(400)]
frames = [df.iloc[k * 20:(k + 1) * 20] for k in range(300)]
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(8, 32), nn.ReLU(), nn.Linear(32, 1))
optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
loss_fn = nn.MSELoss()
batches = [(torch.randn(64, 8), torch.randn(64, 1)) for _ in range(100)]


def price_with_tax(p):
    return p * 1.2
"""

# name -> the trap cell (runs in the namespace SETUP built)
CELLS: dict[str, str] = {
    "iterrows .loc": (
        "for idx, row in df.iterrows():\n"
        "    df.loc[idx, 'total'] = row['price'] * row['qty']\n"
    ),
    "iterrows .loc, two columns": (
        "for i, r in df.iterrows():\n"
        "    df.loc[i, 'spread'] = r['a'] - r['b']\n"
        "    df.loc[i, 'double'] = r['a'] * 2\n"
    ),
    "iterrows .loc, conditional": (
        "for idx, row in df.iterrows():\n"
        "    df.loc[idx, 'expensive'] = 1 if row['price'] > 50 else 0\n"
    ),
    "iterrows append": (
        "totals = []\n"
        "for _, row in df.iterrows():\n"
        "    totals.append(row['price'] * row['qty'])\n"
    ),
    "itertuples sum": (
        "revenue = 0\n"
        "for r in df.itertuples():\n"
        "    revenue += r.price * r.qty\n"
    ),
    "itertuples append": (
        "gaps = []\n"
        "for r in df.itertuples(index=False):\n"
        "    gaps.append(r.a - r.b)\n"
    ),
    "range(len(df)) .at": (
        "for i in range(len(df)):\n"
        "    df.at[i, 'ratio'] = df.at[i, 'a'] / (df.at[i, 'b'] + 1)\n"
    ),
    "range(len(df)) .loc read": (
        "scaled = []\n"
        "for i in range(len(df)):\n"
        "    scaled.append(df.loc[i, 'a'] * 3)\n"
    ),
    "index loop append": (
        "out = []\n"
        "for i in range(len(a)):\n"
        "    out.append(a[i] * b[i] + c)\n"
    ),
    "index loop sum": (
        "dot = 0.0\n"
        "for i in range(len(a)):\n"
        "    dot += a[i] * b[i]\n"
    ),
    "apply axis=1": "df['line_total'] = df.apply(lambda r: r['price'] * r['qty'], axis=1)\n",
    "Series.apply": "df['a_sq'] = df['a'].apply(lambda v: v * v + 1)\n",
    "list comprehension over an array": "squares = [v ** 2 for v in a]\n",
    "sum of a generator": "energy = sum(v * v for v in a)\n",
    "list comprehension over a list": "celsius = [(f - 32) * 5 / 9 for f in readings]\n",
    "np.append growth": (
        "acc = np.array([])\n"
        "for chunk in chunks:\n"
        "    acc = np.append(acc, chunk[:, 0] * 2)\n"
    ),
    "np.vstack growth": (
        "stacked = np.empty((0, 8))\n"
        "for chunk in chunks:\n"
        "    stacked = np.vstack([stacked, chunk])\n"
    ),
    "pd.concat growth": (
        "combined = pd.DataFrame()\n"
        "for part in frames:\n"
        "    combined = pd.concat([combined, part])\n"
    ),
    "torch.cat growth": (
        "x = torch.linspace(0, 1, 256).unsqueeze(1)\n"
        "features = x\n"
        "for i in range(2, 40):\n"
        "    features = torch.cat([features, x ** i], 1)\n"
    ),
    "in list": (
        "hits = 0\n"
        "for q in codes:\n"
        "    if q in allowed:\n"
        "        hits += 1\n"
    ),
    "list.index": (
        "ids = []\n"
        "for w in words:\n"
        "    ids.append(vocab.index(w))\n"
    ),
    "readlines loop": (
        "n_chars = 0\n"
        "with open(path) as fh:\n"
        "    for line in fh.readlines():\n"
        "        n_chars += len(line)\n"
    ),
    "readlines words": (
        "n_words = 0\n"
        "with open(path) as fh:\n"
        "    for line in fh.readlines():\n"
        "        n_words += len(line.split())\n"
    ),
    "loss.item() per step": (
        "running = 0.0\n"
        "for xb, yb in batches:\n"
        "    optimizer.zero_grad()\n"
        "    loss = loss_fn(model(xb), yb)\n"
        "    loss.backward()\n"
        "    optimizer.step()\n"
        "    running += loss.item()\n"
    ),
}


@dataclass
class Row:
    name: str
    codes: list[str] = field(default_factory=list)
    covered: bool = False
    why: str = ""
    speedup: float | None = None
    default_speedup: float | None = None  # what lint --fix applies without --unsafe-fixes
    measure_first: list[str] = field(default_factory=list)  # "AIP201: proposed ..." per such fix


def text_file(lines: int) -> str:
    fd, path = tempfile.mkstemp(suffix=".txt")
    with os.fdopen(fd, "w") as fh:
        fh.writelines(f"line {i} of the log with some words\n" for i in range(lines))
    return path


def namespace(rows: int, path: str) -> dict[str, Any]:
    ns: dict[str, Any] = {"ROWS": rows, "path": path}
    exec(SETUP, ns)
    return ns


def check(name: str, cell: str, rows: int, path: str, repeat: int) -> Row:
    row = Row(name)
    ns = namespace(rows, path)
    analysis = analyze_cell(cell, select=["ALL"], namespace=ns)
    attach_fixes(analysis)
    found = analysis.findings
    row.codes = [f.code for f in found]
    if not found:
        row.why = "not detected"
        return row
    after = fix_findings(cell, found, unsafe=True, namespace=ns)
    if after == cell:
        row.why = "; ".join(f"{f.code}: {f.fix.reason}" for f in found if f.fix is not None and f.fix.reason)
        return row
    c = verify(cell, after, namespace(rows, path), repeat=repeat)
    row.covered = bool(c.equal and not c.error and not c.timed_out and not c.refused)
    row.speedup = c.speedup
    if not row.covered:
        row.why = c.error or c.difference or c.refused or "timed out"
    default = fix_findings(cell, found, unsafe=False, namespace=ns)
    if default != cell:
        d = c if default == after else verify(cell, default, namespace(rows, path), repeat=repeat)
        row.default_speedup = d.speedup if d.equal else 0.0
    before_s = c.before_s or 0.0
    for f in found:
        if f.fix is not None and f.fix.measure_first:
            decide(f, analysis.node_of(f), analysis.cell, ns, before_s, sampled=False)
            row.measure_first.append(f"{f.code}: {f.fix.evidence_note}")
    return row


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", type=int, default=20_000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--only", default="", help="comma-separated cell names")
    args = parser.parse_args()
    path = text_file(50_000)
    rows: list[Row] = []
    try:
        for name, cell in CELLS.items():
            if args.only and name not in args.only.split(","):
                continue
            row = check(name, cell, args.rows, path, args.repeat)
            rows.append(row)
            speed = f"{row.speedup:.1f}x" if row.speedup else "-"
            default = f"{row.default_speedup:.1f}x" if row.default_speedup is not None else "-"
            status = "equal" if row.covered else f"NO: {row.why[:70]}"
            print(f"{name:34s} {','.join(row.codes):14s} {status:10s} all fixes {speed:>8s}  default {default:>8s}")
            for note in row.measure_first:
                print(f"{'':36s}measure first, {note}")
    finally:
        os.unlink(path)
    detected = [r for r in rows if r.codes]
    covered = [r for r in detected if r.covered]
    slower = [r for r in rows if r.default_speedup is not None and r.default_speedup < 0.9]
    share = len(covered) / len(detected) if detected else 0.0
    print(
        f"\n{len(detected)} of {len(rows)} trap cells detected; {len(covered)} got a rewrite verify proved equal "
        f"({share:.0%}); default fixes slower than the original: {len(slower)} "
        f"({', '.join(r.name for r in slower) or 'none'})"
    )
    sys.exit(0 if share >= 0.9 and not slower else 1)


if __name__ == "__main__":
    main()
