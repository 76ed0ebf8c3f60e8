"""Try in a real notebook kernel (nbclient): after each Try, a probe of the user's world equals its value
right after the cell ran, and Try says why it did not run the cell's I/O.

One kernel runs every case (starting kernels is slow); each case cell prints one JSON line.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import nbformat
import pytest
from nbclient import NotebookClient

SETUP = r"""
import json, os, random, signal, sqlite3, sys, threading, time, http.server, urllib.request
import numpy as np, pandas as pd
from aiperf_magic import verify
from aiperf_magic.report import Finding, Fix
from aiperf_magic.render.comparison import render_comparison_text

def report(case, c, before, after):
    print(json.dumps({"case": case, "blocked": c.blocked, "equal": c.equal, "isolation": c.isolation,
                      "runs": c.runs, "error": c.error, "refused": c.refused, "before": before, "after": after,
                      "text": render_comparison_text(c)}, default=str))

def attempt(case, cell, probe, after=None, **kw):
    exec(cell, globals())                      # the cell runs once, as in the notebook
    seen = probe()
    c = verify(cell, after or cell, globals(), repeat=2, **kw)
    report(case, c, seen, probe())

def lines(path):
    return open(path).read().count("\n") if os.path.exists(path) else -1

def add_fix(code="AIP999"):
    rep = get_ipython()._aiperf_magics.state.last_report
    rep.findings.append(Finding(code, "test", line=1, fixable=True, fix=Fix("the same cell", source=rep.source)))
"""

CASES = [
    # file append; file overwritten by the result (a wrong rewrite); delete
    "attempt('append', \"with open('log.txt', 'a') as f:\\n    f.write('run\\\\n')\\n\", lambda: lines('log.txt'))",
    "attempt('overwrite', \"result = 3.54e23\\nopen('res.txt', 'w').write(repr(result))\\n\","
    " lambda: open('res.txt').read(), after=\"result = np.int64(0)\\nopen('res.txt', 'w').write(repr(result))\\n\")",
    "open('a.txt', 'w').close(); open('b.txt', 'w').close(); victim = 'a.txt'\n"
    "exec(\"os.remove(victim)\\n\"); victim = 'b.txt'\n"
    "c = verify('os.remove(victim)\\n', 'os.remove(victim)\\n', globals(), repeat=2)\n"
    "report('delete', c, True, os.path.exists('b.txt'))",
    # SQLite: a new connection, and a global one reached through a function
    "sqlite3.connect('t.db').execute('create table if not exists t(x)')\n"
    "attempt('sqlite-new', \"con = sqlite3.connect('t.db')\\n\"\n"
    "        \"con.execute('insert into t values (1)')\\ncon.commit()\\n\","
    " lambda: sqlite3.connect('t.db').execute('select count(*) from t').fetchone()[0])",
    "gcon = sqlite3.connect('g.db'); gcon.execute('create table if not exists t(x)'); gcon.commit()\n"
    "def add():\n    gcon.execute('insert into t values (1)')\n    gcon.commit()\n"
    "attempt('sqlite-global', 'add()\\n', lambda: gcon.execute('select count(*) from t').fetchone()[0])",
    # an HTTP GET to a local server in a thread, counting hits
    "hits = []\n"
    "class H(http.server.BaseHTTPRequestHandler):\n"
    "    def do_GET(self):\n"
    "        hits.append(1); self.send_response(200); self.end_headers(); self.wfile.write(b'ok')\n"
    "    def log_message(self, *a): pass\n"
    "srv = http.server.HTTPServer(('127.0.0.1', 0), H)\n"
    "threading.Thread(target=srv.serve_forever, daemon=True).start()\n"
    "url = f'http://127.0.0.1:{srv.server_port}/'\n"
    "attempt('http', 'body = urllib.request.urlopen(url).read()\\n', lambda: len(hits))",
    # state reached through functions: a counter, a module's cache, a model and its optimizer, RNG streams
    "counter = 0\ndef bump():\n    global counter\n    counter += 1\n    return counter\n"
    "attempt('counter', 'y = bump()\\n', lambda: counter)",
    "open('cachemod.py', 'w').write('_cache = {}\\ndef lookup(k):\\n    _cache[k] = k * 2\\n    return _cache[k]\\n')\n"
    "sys.path.insert(0, os.getcwd()); import cachemod\n"
    "attempt('cache', 'v = cachemod.lookup(len(cachemod._cache) + 1)\\n', lambda: sorted(cachemod._cache))",
    "random.seed(3); np.random.seed(3)\n"
    "attempt('rng', 'a = random.random()\\nb = np.random.rand(2)\\n',"
    " lambda: [random.getstate()[1][:4], np.random.get_state()[1][:4].tolist(), np.random.get_state()[2]])",
]

TORCH_CASE = (
    "import torch\ntorch.manual_seed(0)\nmodel = torch.nn.Linear(8, 2)\n"
    "opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)\nxb = torch.randn(16, 8)\n"
    "def train_step():\n    opt.zero_grad()\n    loss = model(xb).pow(2).mean()\n    loss.backward()\n"
    "    opt.step()\n    return loss.item()\n"
    "def weights():\n    return [p.detach().numpy().tobytes().hex() for p in model.parameters()]\n"
    "for iso in ('auto', 'in-process'):\n"
    "    attempt('torch-' + iso, 'loss = train_step()\\n', weights, isolation=iso)\n"
    "    attempt('torch-rng-' + iso, 't = torch.rand(3)\\n', lambda: torch.get_rng_state().numpy().tobytes().hex(),"
    " isolation=iso)"
)

IN_PROCESS = (
    "for name, cell, probe in [('counter', 'y = bump()\\n', lambda: counter),"
    " ('cache', 'v = cachemod.lookup(99)\\n', lambda: sorted(cachemod._cache)),"
    " ('append', \"with open('log.txt', 'a') as f:\\n    f.write('run\\\\n')\\n\", lambda: lines('log.txt')),"
    " ('rng', 'a = random.random()\\nb = np.random.rand(2)\\n',"
    " lambda: [random.getstate()[1][:4], np.random.get_state()[1][:4].tolist()])]:\n"
    "    attempt(name + '-inproc', cell, probe, isolation='in-process')"
)

INTERRUPT = (
    "threading.Timer(1.5, os.kill, (os.getpid(), signal.SIGINT)).start()\n"
    "c = verify('time.sleep(0.4)\\n', 'time.sleep(0.3)\\n', globals(), repeat=5)\n"
    "import psutil\nreport('interrupt', c, 0, len(psutil.Process().children(recursive=True)))"
)


def _run(tmp_path: Path, sources: list[str]) -> list[Any]:
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(s) for s in sources]
    NotebookClient(nb, kernel_name="python3", timeout=240, resources={"metadata": {"path": str(tmp_path)}}).execute()
    return nb.cells


def _texts(cell: Any) -> str:
    out = []
    for o in cell.outputs:
        out.append(o.get("text", "") or o.get("data", {}).get("text/plain", ""))
    return "\n".join(out)


def _results(cells: list[Any]) -> dict[str, dict[str, Any]]:
    found = {}
    for cell in cells:
        for line in _texts(cell).splitlines():
            if line.startswith('{"case"'):
                row = json.loads(line)
                found[row["case"]] = row
    return found


@pytest.mark.slow
def test_try_in_a_kernel_changes_nothing_and_says_why(tmp_path: Path) -> None:
    try:
        import torch  # noqa: F401

        torch_cells = [TORCH_CASE]
    except ImportError:
        torch_cells = []
    sources = [
        "%load_ext aiperf_magic",
        SETUP,
        *CASES,
        *torch_cells,
        IN_PROCESS,
        INTERRUPT,
        # the magic itself: refused, then --allow-io runs the writes the announced number of times
        "%%aiperf\nwith open('magic.txt', 'a') as f:\n    f.write('run\\n')\n",
        "add_fix()",
        "%aiperf try AIP999",
        "%aiperf try AIP999 --allow-io --repeat 2",
        "print('magic lines', lines('magic.txt'))",
        "%%aiperf\n!echo run >> shell.txt\n",
        "add_fix()",
        "%aiperf try AIP999",
        "print('shell lines', lines('shell.txt'))",
        # a pure row loop over a frame built from arrays: still tried, equal and faster
        # (float a: the loop's .loc column is float64, and so is the rewrite's)
        "frame = pd.DataFrame({'a': np.arange(3000.0), 'b': np.random.rand(3000)})",
        "%%aiperf\nfor i, row in frame.iterrows():\n    frame.loc[i, 'c'] = row['a'] * 2\n",
        "_rep = get_ipython()._aiperf_magics.state.last_report\n"
        "if _rep.finding('AIP301') is None:\n"
        "    _rep.findings.append(Finding('AIP301', 'Row loop over a DataFrame', line=1, fixable=True))",
        "%aiperf try AIP301 --repeat 3",
        "print('alive', list(frame.columns), len(__import__('psutil').Process().children(recursive=True)))",
    ]
    cells = _run(tmp_path, sources)
    rows = _results(cells)
    for case in ("append", "overwrite", "delete", "sqlite-new", "sqlite-global", "http"):
        row = rows[case]
        assert row["before"] == row["after"], row
        assert row["blocked"] and row["isolation"] == "process", row
        assert f"Not tried: {row['blocked']}." in row["text"], row
    assert "appends to log.txt" in rows["append"]["blocked"]
    assert "deletes b.txt" in rows["delete"]["blocked"]
    assert "connects to 127.0.0.1" in rows["http"]["blocked"]
    assert "SQLite" in rows["sqlite-new"]["blocked"] and "SQLite" in rows["sqlite-global"]["blocked"]
    for case in ("counter", "cache", "rng"):
        row = rows[case]
        assert row["before"] == row["after"] and row["equal"] and row["blocked"] is None, row
    for case in [c for c in rows if c.startswith("torch")]:
        assert rows[case]["before"] == rows[case]["after"] and rows[case]["equal"], rows[case]
    for case in ("counter-inproc", "cache-inproc", "append-inproc", "rng-inproc"):
        row = rows[case]
        assert row["before"] == row["after"] and row["isolation"] == "in-process", row
        assert "isolation is partial" in row["text"], row
    assert rows["append-inproc"]["blocked"]
    interrupted = rows["interrupt"]
    assert interrupted["refused"].startswith("cancelled") and interrupted["after"] == 0, interrupted

    start = len(sources) - 14  # the magic's cells, in order
    magic = [_texts(c) for c in cells[start:]]
    assert "Not tried: line 2 appends to magic.txt." in magic[2]  # the cell's line, under %%aiperf
    assert "--allow-io: the cell's writes run for real, 3 times for each version" in magic[3]
    assert "magic lines 7" in magic[4]  # 1 from the cell + 2 versions x 3 runs, in forked children
    assert "Not tried: line 2 runs the shell command `echo run >> shell.txt`." in magic[7]
    assert "shell lines 1" in magic[8]
    assert "Results are equal" in magic[12] and "faster" in magic[12] and "forked copies" in magic[12]
    assert "alive ['a', 'b', 'c'] 0" in magic[13]
