"""What does each ``%%aiperf`` panel leave behind in the kernel? Widget models and RSS over many cells.

Used by ``benchmarks/panel.py --cells N``. Starts a real ipykernel (this checkout first on its
path), runs a small pandas row loop under ``%%aiperf`` N times, and under ``%%aiperf --text`` N
times beside it (the same measurement without any panel), reading the number of live widget models
and the kernel's RSS after a garbage collection. The first cells warm up imports and caches, so
the growth is counted from cell ``WARMUP`` on.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
WARMUP = 20
SETUP = (
    "%load_ext aiperf_magic\n"
    "import pandas as pd\n"
    "df = pd.DataFrame({'a': range(200), 'b': range(200)})\n"
)
CELL = "%%aiperf{flags}\ntotal = 0\nfor _, row in df.iterrows():\n    total += row['a'] * row['b']\n"
PROBE = """
import gc as _gc, json as _json, psutil as _psutil
_gc.collect()
try:
    from ipywidgets.widgets.widget import _instances as _models
except ImportError:
    _models = {}
print("AIPERF-RETENTION:" + _json.dumps({"models": len(_models),
      "rss": _psutil.Process().memory_info().rss}))
"""


@dataclass
class Growth:
    mode: str
    cells: int
    models_per_cell: float
    rss_per_cell_bytes: float
    models_at_end: int


def _probe(kc: Any) -> dict[str, int]:
    found: dict[str, int] = {}

    def hook(msg: dict[str, Any]) -> None:
        text = msg.get("content", {}).get("text", "")
        if msg.get("msg_type") == "stream" and "AIPERF-RETENTION:" in text:
            found.update(json.loads(text.split("AIPERF-RETENTION:", 1)[1]))

    kc.execute_interactive(PROBE, output_hook=hook, timeout=120)
    return found


def measure(cells: int, flags: str) -> Growth:
    """Runs ``cells`` cells in a fresh kernel; growth per cell after the warm-up."""
    from jupyter_client.manager import start_new_kernel

    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    km, kc = start_new_kernel(kernel_name="python3", env=env)
    try:
        def quiet(_msg: dict[str, Any]) -> None:  # drain iopub so no queue grows on either side
            return None

        kc.execute_interactive(SETUP, output_hook=quiet, timeout=120)
        code = CELL.format(flags=flags)
        for _ in range(min(WARMUP, cells)):
            kc.execute_interactive(code, output_hook=quiet, timeout=120)
        start = _probe(kc)
        for _ in range(cells - WARMUP):
            kc.execute_interactive(code, output_hook=quiet, timeout=120)
        end = _probe(kc)
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=True)
    counted = max(1, cells - WARMUP)
    return Growth(
        mode=f"%%aiperf{flags}",
        cells=cells,
        models_per_cell=(end["models"] - start["models"]) / counted,
        rss_per_cell_bytes=(end["rss"] - start["rss"]) / counted,
        models_at_end=end["models"],
    )


def report(cells: int) -> list[Growth]:
    rows = [measure(cells, ""), measure(cells, " --text")]
    print(f"\n{cells} cells of a 200-row iterrows loop in one kernel (growth counted after {WARMUP} warm-up cells)")
    print(f"{'mode':<18} {'widget models / cell':>21} {'models at end':>14} {'RSS / cell':>11}")
    for r in rows:
        print(f"{r.mode:<18} {r.models_per_cell:>21.2f} {r.models_at_end:>14} "
              f"{r.rss_per_cell_bytes / 1024:>8.1f} KB")
    panel, text = rows
    print(f"panel minus --text: {(panel.rss_per_cell_bytes - text.rss_per_cell_bytes) / 1024:.1f} KB per cell")
    return rows


if __name__ == "__main__":
    import sys

    report(int(sys.argv[1]) if len(sys.argv) > 1 else 500)
