"""Before/after of each fixable trap at the seed article's scale, proved through ``verify``.

Each workload is a cell with a trap; its rewrite comes from the fixer itself (``propose``, which
reads the workload's data as ``%%aiperf`` hands rules the live namespace: several detectors need it
to know a list holds numbers), and ``verify`` runs both on copies of the same data, interleaved,
and checks the results are equal.

    python benchmarks/fixes.py [--repeat 5] [--only AIP301,AIP201]
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from collections.abc import Callable
from typing import Any

import numpy as np
import pandas as pd

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from aiperf_magic import verify
from aiperf_magic.report import Finding
from aiperf_magic.rules import propose

GOALS = {"AIP301": 50.0, "AIP201": 5.0, "AIP203": 10.0, "AIP302": 20.0, "AIP202": 10.0}
ROWS = 100_000


def frame() -> pd.DataFrame:
    rng = np.random.default_rng(0)
    return pd.DataFrame(
        {"A": rng.integers(0, 1000, ROWS), "price": rng.random(ROWS) * 100, "qty": rng.integers(1, 20, ROWS)}
    )


def text_file() -> str:
    fd, path = tempfile.mkstemp(suffix=".txt")
    with os.fdopen(fd, "w") as fh:
        fh.writelines(f"line {i} of the log with some words\n" for i in range(500_000))
    return path


def fetch(url: str) -> str:
    time.sleep(0.01)  # a 10 ms network round trip, without a network
    return url.upper()


# label, code, cell (the anchor is line 1 unless given), namespace factory, anchor line
WORKLOADS: list[tuple[str, str, str, Callable[[], dict[str, Any]], int]] = [
    (
        "AIP301 iterrows + df.loc (100,000 rows)",
        "AIP301",
        "for index, row in df.iterrows():\n    df.loc[index, 'new_col'] = row['A'] * 2\n",
        lambda: {"df": frame()},
        1,
    ),
    (
        "AIP301 itertuples -> list (100,000 rows)",
        "AIP301",
        "out = []\nfor r in df.itertuples():\n    out.append(r.price * r.qty)\n",
        lambda: {"df": frame()},
        2,
    ),
    (
        "AIP302 apply(axis=1) (100,000 rows)",
        "AIP302",
        "df['total'] = df.apply(lambda r: r['price'] * r['qty'], axis=1)\n",
        lambda: {"df": frame()},
        1,
    ),
    ("AIP201 [x**2 for x in range(1,000,000)]", "AIP201", "squared = [x ** 2 for x in range(1_000_000)]\n", dict, 1),
    (
        "AIP201 [x**2 for x in list] (1,000,000)",
        "AIP201",
        "squared = [x ** 2 for x in py_list]\n",
        lambda: {"py_list": list(range(1_000_000))},
        1,
    ),
    (
        "AIP203 np.append x 20,000",
        "AIP203",
        "import numpy as np\narr = np.array([])\nfor i in range(20_000):\n    arr = np.append(arr, i * 0.5)\n",
        dict,
        4,
    ),
    (
        "AIP203 torch.cat x 10,000 rows",
        "AIP203",
        "import torch\nfeats = torch.empty(0, 8)\nfor row in rows:\n    feats = torch.cat([feats, row], dim=0)\n",
        lambda: {"rows": list(__import__("torch").randn(10_000, 1, 8).unbind(0))},
        4,
    ),
    (
        "AIP203 pd.concat of 1,000 x 1,000-row parts",
        "AIP203",
        "import pandas as pd\nres = parts[0]\nfor part in parts[1:]:\n"
        "    res = pd.concat([res, part], ignore_index=True)\n",
        lambda: {"parts": [pd.DataFrame({"a": np.arange(1000) + i, "b": np.ones(1000)}) for i in range(1000)]},
        4,
    ),
    (
        "AIP203 df.loc[len(df)] = row x 5,000",
        "AIP203",
        "import pandas as pd\nlog = pd.DataFrame({'step': [0], 'loss': [0.0]})\nfor step in range(1, 5_000):\n"
        "    log.loc[len(log)] = [step, step * 0.1]\n",
        dict,
        4,
    ),
    (
        "AIP202 in list (10,000 x 5,000)",
        "AIP202",
        "kept = [q for q in queries if q in allowed]\n",
        lambda: {"queries": list(range(0, 20_000, 2)), "allowed": list(range(5_000))},
        1,
    ),
    (
        "AIP202 list.index (5,000 x 5,000)",
        "AIP202",
        "ids = [vocab.index(w) for w in words]\n",
        lambda: {"vocab": [f"w{i}" for i in range(5_000)], "words": [f"w{i}" for i in range(4_999, -1, -1)]},
        1,
    ),
    (
        "AIP104 readlines (500,000 lines)",
        "AIP104",
        "total = 0\nwith open(path) as fh:\n    for line in fh.readlines():\n        total += len(line)\n",
        lambda: {"path": text_file()},
        3,
    ),
    (
        "AIP402 50 blocking fetches",
        "AIP402",
        "pages = []\nfor url in urls:\n    pages.append(fetch(url))\n",
        lambda: {"urls": [f"u{i}" for i in range(50)], "fetch": fetch},
        2,
    ),
]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--only", default="", help="comma-separated codes")
    args = parser.parse_args()
    only = {c.strip().upper() for c in args.only.split(",") if c.strip()}
    print(f"{'workload':<44} {'before':>10} {'after':>10} {'speedup':>9} {'memory':>8} {'equal':>6} {'goal':>7}")
    seen: set[str] = set()
    for label, code, cell, make_ns, line in WORKLOADS:
        if only and code not in only:
            continue
        namespace = make_ns()
        fix = propose(cell, Finding(code, "benchmark", line=line), namespace)
        if fix is None or not fix.source:
            print(f"{label:<44} no fix: {fix.reason if fix else 'none'}")
            continue
        c = verify(cell, fix.source, namespace, repeat=args.repeat)
        goal = GOALS.get(code) if code not in seen else None  # the first workload per code is the goal case
        seen.add(code)
        speed = f"{c.speedup:.1f}x" if c.speedup else "-"
        mem = f"{c.memory_ratio:.3g}" if c.memory_ratio is not None else "-"
        met = "" if goal is None else ("ok" if c.speedup and c.speedup >= goal else "MISS") + f" {goal:g}x"
        print(
            f"{label:<44} {_t(c.before_s):>10} {_t(c.after_s):>10} {speed:>9} {mem:>8} "
            f"{'yes' if c.equal else 'NO':>6} {met:>7}"
        )
        if c.error or c.refused or c.difference:
            print(f"    {c.error or c.refused or c.difference}")
    print(
        f"\nmedian of {args.repeat} interleaved runs each (after a warm-up); memory = after/before peak "
        "(tracemalloc; - where tensors make it unmeasurable on CPU); equal = results checked by verify"
    )


def _t(s: float | None) -> str:
    if s is None:
        return "-"
    return f"{s * 1e3:.1f} ms" if s < 1 else f"{s:.2f} s"


if __name__ == "__main__":
    main()
