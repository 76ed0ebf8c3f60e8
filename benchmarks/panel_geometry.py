"""How tall is each tutorial's panel, and how far down is its first Try button?

    python benchmarks/panel_geometry.py [--app lab|notebook] [--out FILE] [NAME ...]

Runs the tutorials in a real JupyterLab 4 (or Notebook 7) in headless Chromium (Debian's
``chromium``, as the browser tests do) with a 1400 x 1000 viewport, and for every ``%%aiperf`` cell
prints the height of the aiperf panel and the offset of its first **Try** button from the top of
the cell's output. A screenshot of each panel goes to ``test-artifacts/geometry/``. The numbers
depend on the fonts and on what each cell found on this machine, so compare runs made here.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS, start_server, stop_server  # noqa: E402

NB = "window.jupyterapp.shell.currentWidget"
TUTORIALS = ["00_quickstart", "01_data_loading", "02_data_structures", "03_gil_and_concurrency",
             "04_framework_traps", "05_to_production"]
SHOTS = ROOT / "test-artifacts" / "geometry"

MEASURE = """(index) => {
  const cell = window.jupyterapp.shell.currentWidget.content.widgets[index].node;
  const area = cell.querySelector('.jp-Cell-outputArea') || cell.querySelector('.jp-OutputArea');
  const panel = cell.querySelector('.aiperf-panel');
  if (!area || !panel) return null;
  const top = area.getBoundingClientRect().top;
  const tries = Array.from(panel.querySelectorAll('button'))
      .filter(b => /(^|\\W)Try( downcast)?$/.test(b.textContent.trim()) && b.offsetParent !== null);
  const first = tries.length ? tries[0].getBoundingClientRect() : null;
  return {panel_px: Math.round(panel.getBoundingClientRect().height),
          output_px: Math.round(area.getBoundingClientRect().height),
          try_px: first ? Math.round(first.bottom - top) : null};
}"""


def aiperf_cells(page: Any) -> list[tuple[int, str]]:
    sources = page.evaluate(f"""() => Array.from({{length: {NB}.content.model.cells.length}},
        (_, i) => {NB}.content.model.cells.get(i)).map(c => [c.type, c.sharedModel.getSource(), !!c.executionCount])""")
    out = []
    for i, (kind, src, ran) in enumerate(sources):
        first = src.lstrip().split("\n", 1)[0].rstrip()
        if kind == "code" and ran and first.startswith("%%aiperf") and not first.endswith("?"):
            out.append((i, first))
    return out


def run_notebook(page: Any, server: Any, name: str) -> list[dict[str, Any]]:
    shutil.copy(ROOT / "notebooks" / f"{name}.ipynb", server.root / f"{name}.ipynb")
    prefix = "lab/tree" if server.app == "lab" else "notebooks"
    page.goto(f"{server.url}/{prefix}/{name}.ipynb?reset")
    page.wait_for_function(f"() => window.jupyterapp && {NB} && {NB}.sessionContext")
    page.wait_for_function(f"() => {NB}.sessionContext.session?.kernel?.status === 'idle'", timeout=120_000)
    # done when every code cell the notebook had is run (``%aiperf apply`` inserts one that is not)
    page.evaluate(f"""() => {{ const cells = {NB}.content.model.cells;
        window.__aiperf_ids = Array.from({{length: cells.length}}, (_, i) => cells.get(i))
            .filter(c => c.type === 'code' && c.sharedModel.getSource().trim()).map(c => c.id); }}""")
    page.evaluate("() => window.jupyterapp.commands.execute('notebook:run-all-cells')")
    page.wait_for_function(
        f"""() => {{ const cells = {NB}.content.model.cells; const ran = new Set();
            for (let i = 0; i < cells.length; i++) {{ const c = cells.get(i); if (c.executionCount) ran.add(c.id); }}
            return window.__aiperf_ids.every(id => ran.has(id))
                && {NB}.sessionContext.session?.kernel?.status === 'idle'; }}""",
        timeout=900_000, polling=1000,
    )
    rows = []
    for index, first in aiperf_cells(page):
        scroll = f"async i => {{ await {NB}.content.scrollToItem(i, 'start'); }}"
        page.evaluate(scroll, index)
        deadline = time.monotonic() + 15
        got = None
        while time.monotonic() < deadline:
            page.wait_for_timeout(500)
            page.evaluate(scroll, index)
            got = page.evaluate(MEASURE, index)
            if got and got["panel_px"] > 0:
                page.wait_for_timeout(1500)  # plots and widgets finish laying out
                got = page.evaluate(MEASURE, index)
                break
        SHOTS.mkdir(parents=True, exist_ok=True)
        area = page.evaluate_handle(
            f"i => {NB}.content.widgets[i].node.querySelector('.jp-Cell-outputArea')", index).as_element()
        if area is not None and got:
            try:
                area.screenshot(path=str(SHOTS / f"{name}-{index:02d}.png"), timeout=10_000)
            except Exception as exc:  # a screenshot is a convenience, the numbers are the result
                print(f"no screenshot of {name} cell {index}: {type(exc).__name__}", file=sys.stderr)
        rows.append({"notebook": name, "cell": index, "magic": first, **(got or {})})
        print(json.dumps(rows[-1]), flush=True)
    return rows


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("names", nargs="*", default=TUTORIALS)
    parser.add_argument("--app", default="lab", choices=["lab", "notebook"])
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    base = Path(tempfile.mkdtemp(prefix="aiperf-geometry-"))
    server = start_server(args.app, base)
    rows: list[dict[str, Any]] = []
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
            for name in args.names:
                context = browser.new_context(viewport={"width": 1400, "height": 1000})
                page = context.new_page()
                page.set_default_timeout(120_000)
                try:
                    rows += run_notebook(page, server, name)
                finally:
                    page.evaluate(f"() => {NB}?.sessionContext?.shutdown?.()")
                    context.close()
            browser.close()
    finally:
        stop_server(server)
        shutil.rmtree(base, ignore_errors=True)
    print(f"{'notebook':<24} {'cell':>4} {'panel px':>9} {'Try at px':>10}  magic")
    for r in rows:
        print(f"{r['notebook']:<24} {r['cell']:>4} {r.get('panel_px') or '-':>9} {r.get('try_px') or '-':>10}  "
              f"{r['magic']}")
    if args.out:
        args.out.write_text(json.dumps(rows, indent=1))


if __name__ == "__main__":
    main()
