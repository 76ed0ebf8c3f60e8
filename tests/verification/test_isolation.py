"""Trying a rewrite changes nothing: after verify(), every probe of the world equals its value before.

Each case runs with trials in forked copies ("auto" here, where fork is available) and with the
in-process fallback forced; I/O cases must be refused and said, pure ones still tried.
"""

from __future__ import annotations

import http.server
import random
import sqlite3
import sys
import threading
import time
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from aiperf_magic import verify
from aiperf_magic.render.comparison import render_comparison_text
from aiperf_magic.verification import planned_runs

BOTH = pytest.mark.parametrize("isolation", ["auto", "in-process"])


def _main_ns(**values: object) -> dict:
    ns: dict = {"__name__": "__main__", "__builtins__": __builtins__}
    ns.update(values)
    return ns


@BOTH
def test_file_append_is_refused_and_said(tmp_path: Path, isolation: str) -> None:
    log = tmp_path / "log.txt"
    log.write_text("run\n")  # the cell ran once in the kernel
    cell = f"total = 1 + 1\nwith open({str(log)!r}, 'a') as f:\n    f.write('run\\n')\n"
    c = verify(cell, cell.replace("1 + 1", "2"), _main_ns(), repeat=2, isolation=isolation)
    assert log.read_text() == "run\n"
    assert c.blocked == f"line 2 appends to {log}" and not c.better
    text = render_comparison_text(c)
    assert f"Not tried: line 2 appends to {log}." in text and "--allow-io" in text


@BOTH
def test_result_file_keeps_the_originals_value(tmp_path: Path, isolation: str) -> None:
    out = tmp_path / "result.txt"
    out.write_text(repr(3.54e23))
    before = f"result = 3.54e23\nopen({str(out)!r}, 'w').write(repr(result))\n"
    after = f"result = np.int64(0)\nopen({str(out)!r}, 'w').write(repr(result))\n"  # a wrong rewrite
    c = verify(before, after, _main_ns(np=np), repeat=2, isolation=isolation)
    assert out.read_text() == repr(3.54e23) and c.blocked and "writes to" in c.blocked


@BOTH
def test_delete_is_refused(tmp_path: Path, isolation: str) -> None:
    victim = tmp_path / "b.txt"
    victim.write_text("keep")
    cell = "import os\nos.remove(victim)\n"
    c = verify(cell, cell, _main_ns(victim=str(victim)), repeat=2, isolation=isolation)
    assert victim.exists() and c.blocked == f"line 2 deletes {victim}"


@BOTH
def test_sqlite_through_a_new_connection_is_refused(tmp_path: Path, isolation: str) -> None:
    db = tmp_path / "t.db"
    with sqlite3.connect(db) as con:
        con.execute("create table t(x)")
        con.execute("insert into t values (1)")
    cell = (
        f"import sqlite3\ncon = sqlite3.connect({str(db)!r})\ncon.execute('insert into t values (1)')\ncon.commit()\n"
    )
    c = verify(cell, cell, _main_ns(), repeat=2, isolation=isolation)
    with sqlite3.connect(db) as con:
        assert con.execute("select count(*) from t").fetchone() == (1,)
    assert c.blocked == f"line 2 opens the SQLite database {db}"


@BOTH
def test_sqlite_through_a_global_connection_is_refused(tmp_path: Path, isolation: str) -> None:
    gcon = sqlite3.connect(tmp_path / "g.db")
    gcon.execute("create table t(x)")
    gcon.commit()
    ns = _main_ns(gcon=gcon)
    exec("def add():\n    gcon.execute('insert into t values (1)')\n    gcon.commit()\n", ns)
    c = verify("add()\nn = 1\n", "add()\nn = 1\n", ns, repeat=2, isolation=isolation)
    assert gcon.execute("select count(*) from t").fetchone() == (0,)
    assert c.blocked and c.blocked.startswith("line 1 writes to a SQLite database")
    gcon.close()


@pytest.fixture
def server():
    hits: list[str] = []

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            hits.append(self.path)
            self.send_response(200)
            self.end_headers()
            self.wfile.write(b"ok")

        def log_message(self, *args: object) -> None:
            pass

    srv = http.server.HTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=srv.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{srv.server_port}/", hits
    srv.shutdown()
    srv.server_close()
    thread.join()


@BOTH
def test_http_get_is_refused(server: tuple[str, list[str]], isolation: str) -> None:
    url, hits = server
    cell = f"import urllib.request\nbody = urllib.request.urlopen({url!r}).read()\n"
    c = verify(cell, cell, _main_ns(), repeat=2, isolation=isolation)
    port = url.rsplit(":", 1)[1].rstrip("/")
    assert hits == [] and c.blocked == f"line 2 connects to 127.0.0.1:{port}"


@BOTH
def test_a_counter_bumped_through_a_function_is_unchanged(isolation: str) -> None:
    ns = _main_ns(counter=1)
    exec("def bump():\n    global counter\n    counter += 1\n    return counter\n", ns)
    c = verify("y = bump()\n", "y = bump() + 0\n", ns, repeat=3, isolation=isolation)
    assert ns["counter"] == 1
    assert c.equal and c.blocked is None and c.runs == planned_runs(3)
    assert c.isolation == ("in-process" if isolation == "in-process" else "process")


@BOTH
def test_a_module_cache_filled_through_a_function_is_unchanged(tmp_path: Path, isolation: str, monkeypatch) -> None:
    (tmp_path / "aiperf_cache_mod.py").write_text(
        "_cache = {}\n\ndef lookup(k):\n    _cache[k] = k * 2\n    return _cache[k]\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    import aiperf_cache_mod

    c = verify(
        "v = aiperf_cache_mod.lookup(7)\n",
        "v = 14\n",
        _main_ns(aiperf_cache_mod=aiperf_cache_mod),
        repeat=2,
        isolation=isolation,
    )
    assert aiperf_cache_mod._cache == {} and c.equal
    sys.modules.pop("aiperf_cache_mod", None)


@BOTH
def test_rng_streams_are_where_they_were(isolation: str) -> None:
    torch = pytest.importorskip("torch")
    random.seed(1)
    np.random.seed(1)
    torch.manual_seed(1)
    states = (random.getstate(), np.random.get_state()[1].copy(), torch.get_rng_state().clone())
    cell = "a = random.random()\nb = np.random.rand(3)\nt = torch.rand(2)\n"
    c = verify(cell, cell, _main_ns(random=random, np=np, torch=torch), repeat=2, isolation=isolation)
    assert c.equal, c  # the same draws before and after: each started from the same state
    assert random.getstate() == states[0]
    assert (np.random.get_state()[1] == states[1]).all()
    assert torch.equal(torch.get_rng_state(), states[2])


@BOTH
def test_a_model_trained_through_a_function_keeps_its_weights(isolation: str) -> None:
    torch = pytest.importorskip("torch")
    torch.manual_seed(0)
    model = torch.nn.Linear(8, 2)
    opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    x = torch.randn(16, 8)
    ns = _main_ns(torch=torch, model=model, opt=opt, x=x)
    exec(
        "def train_step():\n    opt.zero_grad()\n    loss = model(x).pow(2).mean()\n    loss.backward()\n"
        "    opt.step()\n    return loss.item()\n",
        ns,
    )
    ns["train_step"]()  # the cell ran once in the kernel
    weights = {k: v.clone() for k, v in model.state_dict().items()}
    momentum = [s["momentum_buffer"].clone() for s in opt.state.values()]
    c = verify("loss = train_step()\n", "loss = train_step()\n", ns, repeat=2, isolation=isolation)
    assert c.blocked is None and c.error is None, c
    assert all(torch.equal(weights[k], v) for k, v in model.state_dict().items())  # bitwise
    assert all(torch.equal(a, s["momentum_buffer"]) for a, s in zip(momentum, opt.state.values(), strict=True))


def test_in_process_trials_say_isolation_is_partial_and_why() -> None:
    c = verify("y = 1\n", "y = 1\n", _main_ns(), repeat=1, isolation="in-process")
    assert c.isolation == "in-process" and c.equal
    assert any("isolation is partial" in n and "in-process trials were asked for" in n for n in c.notes)
    assert "in this kernel (partial isolation)" in render_comparison_text(c)


def test_pure_row_loop_is_still_tried_equal_and_faster() -> None:
    df = pd.DataFrame({"a": np.arange(400), "b": np.linspace(0.0, 1.0, 400)})
    loop = "for i, row in df.iterrows():\n    df.loc[i, 'c'] = row['a'] * 2.0\n"
    c = verify(loop, "df['c'] = df['a'] * 2.0\n", _main_ns(df=df), repeat=3)
    assert c.equal and c.better and c.isolation == "process" and c.runs == 4
    assert list(df.columns) == ["a", "b"]


def test_allow_io_runs_the_writes_the_announced_number_of_times(tmp_path: Path) -> None:
    log = tmp_path / "log.txt"
    log.write_text("")
    cell = f"with open({str(log)!r}, 'a') as f:\n    f.write('run\\n')\n"
    c = verify(cell, cell, _main_ns(), repeat=3, allow_io=True)
    assert c.blocked is None and c.runs == planned_runs(3)
    assert log.read_text().count("run") == 2 * planned_runs(3)  # both versions, every run, in children
    assert any("--allow-io" in n for n in c.notes)


# --- hostile cells --------------------------------------------------------------------------------


def test_a_cell_that_forks_is_refused() -> None:
    cell = "import os\npid = os.fork()\nif pid == 0:\n    os._exit(0)\nos.waitpid(pid, 0)\n"
    c = verify(cell, cell, _main_ns(), repeat=1)
    assert c.blocked == "line 2 starts a process (fork)"


def test_a_thread_started_by_the_cell_is_guarded_too(tmp_path: Path) -> None:
    out = tmp_path / "t.txt"
    cell = (
        f"import threading\nt = threading.Thread(target=lambda: open({str(out)!r}, 'w').write('x'))\n"
        "t.start()\nt.join()\ndone = 1\n"
    )
    c = verify(cell, cell, _main_ns(), repeat=1)
    assert not out.exists() and c.blocked == f"line 2 writes to {out}"  # the lambda's line, run by the thread


def test_a_cell_that_prints_a_lot_prints_nothing(capfd) -> None:
    cell = "for i in range(20000):\n    print('noise', i)\nimport os\nos.write(1, b'native noise\\n')\nx = 1\n"
    c = verify(cell, cell, _main_ns(), repeat=1)
    assert c.equal and "noise" not in capfd.readouterr().out


def test_a_raising_rewrite_and_a_crashing_rewrite_are_reported() -> None:
    raised = verify("y = 1\n", "y = 1 / 0\n", _main_ns(), repeat=1)
    assert raised.error and "ZeroDivisionError" in raised.error and not raised.better
    crashed = verify("y = 1\n", "import os, signal\nos.kill(os.getpid(), signal.SIGSEGV)\n", _main_ns(), repeat=1)
    assert crashed.error and "crashed" in crashed.error  # the trial died, the kernel did not


def test_values_that_cannot_be_pickled_are_compared_inside_a_trial() -> None:
    before = "res = {'lock': threading.Lock(), 'v': sum(xs), 'f': lambda: 1}\n"
    after = "res = {'lock': threading.Lock(), 'v': sum(xs) + 0, 'f': lambda: 1}\n"
    c = verify(before, after, _main_ns(threading=threading, xs=list(range(100))), repeat=2)
    assert c.equal, c
    assert c.runs == planned_runs(2) + 1 and any("cannot be pickled" in n for n in c.notes)


def test_cancel_stops_the_trials_quietly() -> None:
    stop = threading.Event()

    def progress(done: int, total: int, text: str) -> None:
        if done >= 1:
            stop.set()

    ns = _main_ns(time=time)
    c = verify("time.sleep(0.3)\n", "time.sleep(0.2)\n", ns, repeat=3, progress=progress, cancel=stop)
    assert c.refused and c.refused.startswith("cancelled after") and "nothing was changed" in c.refused
    assert "Stopped: cancelled" in render_comparison_text(c)


def test_a_runaway_original_is_killed_at_its_limit() -> None:
    t0 = time.monotonic()
    c = verify("x = 1\n", "import time\ntime.sleep(30)\n", _main_ns(), repeat=1, timeout_s=0.5)
    assert c.timed_out and time.monotonic() - t0 < 15


def test_a_copy_that_would_not_fit_in_memory_is_refused(monkeypatch) -> None:
    import psutil

    class Mem:
        available = 64 << 20
        total = 1 << 30

    monkeypatch.setattr(psutil, "virtual_memory", lambda: Mem)
    big = np.zeros(10_000_000)
    c = verify("y = big.sum()\n", "y = big.sum()\n", _main_ns(big=big), repeat=1)
    assert c.refused and "not enough free memory" in c.refused


def test_a_writable_memmap_of_the_kernel_is_never_written(tmp_path: Path) -> None:
    path = tmp_path / "m.dat"
    np.arange(8, dtype="int64").tofile(path)
    mm = np.memmap(path, dtype="int64", mode="r+")
    c = verify("mm[0] = 99\ntotal = int(mm.sum())\n", "mm[0] = 99\ntotal = 127\n", _main_ns(mm=mm), repeat=1)
    assert int(mm[0]) == 0 and np.fromfile(path, dtype="int64")[0] == 0
    assert c.blocked == "the cell writes to memory shared with a file or another process", c
    del mm


def test_exits_input_and_pools_in_a_trial() -> None:
    exited = verify("x = 1\n", "import os\nos._exit(0)\n", _main_ns(), repeat=1)
    assert exited.error and "ended without a result" in exited.error
    raised = verify("x = 1\n", "import sys\nsys.exit(3)\n", _main_ns(), repeat=1)
    assert raised.error and "SystemExit" in raised.error
    asked = verify("name = input('who? ')\n", "name = input()\n", _main_ns(), repeat=1)
    assert asked.blocked == "line 1 waits for keyboard input"
    pool = "import multiprocessing as mp\nwith mp.get_context('fork').Pool(2) as p:\n    r = p.map(abs, [-1, 2])\n"
    refused = verify(pool, pool, _main_ns(), repeat=1)
    assert refused.blocked and refused.blocked.startswith("line 2 ")  # its semaphore file, or the fork
    allowed = verify(pool, pool, _main_ns(), repeat=1, allow_io=True)
    assert allowed.equal and allowed.blocked is None, allowed


def test_try_from_a_background_thread_like_the_panel() -> None:
    box: dict = {}
    slow, fast = "y = sum(range(3_000_000))\n", f"y = {sum(range(3_000_000))}\n"  # tens of ms against nothing
    thread = threading.Thread(target=lambda: box.update(c=verify(slow, fast, _main_ns(), repeat=2)))
    thread.start()
    thread.join(60)
    assert box["c"].equal and box["c"].isolation == "process" and box["c"].better
    stuck = threading.Thread(
        target=lambda: box.update(t=verify("x = 1\n", "while True:\n    pass\n", _main_ns(), repeat=1, timeout_s=0.5))
    )
    stuck.start()
    stuck.join(60)
    assert box["t"].timed_out
