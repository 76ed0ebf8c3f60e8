"""Cells that send work elsewhere are refused before anything runs, with the real reason, at once.

A cluster client, a process pool or a manager made in an earlier cell lives outside any copy of the
kernel: a trial would wait on workers it cannot reach, or repeat the work for real. So does a
connection to a server. These are found from the objects the cell reaches (directly or through
its helpers), not from the names it uses.
"""

from __future__ import annotations

import multiprocessing
import socket
import time
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor

import pytest

from aiperf_magic import verify
from aiperf_magic.render.comparison import render_comparison_text
from aiperf_magic.verification import outside

POOL_CELL = "res = pool.map(abs, range(-50, 50))\ntotal = sum(res)\n"
POOL_REWRITE = "res = list(map(abs, range(-50, 50)))\ntotal = sum(res)\n"


def _ns(**values: object) -> dict:
    return {"__name__": "__main__", **values}


@pytest.mark.parametrize("isolation", ["auto", "in-process"])
def test_a_process_pool_made_earlier_is_refused_within_a_second(isolation: str) -> None:
    with multiprocessing.Pool(2) as pool:
        started = time.monotonic()
        c = verify(POOL_CELL, POOL_REWRITE, _ns(pool=pool), repeat=3, isolation=isolation)
        took = time.monotonic() - started
    assert took < 1.0, took
    assert c.blocked and c.blocked.startswith("line 1 hands work to a multiprocessing Pool made before the Try")
    text = render_comparison_text(c)
    assert "OpenMP" not in text and "compared: nothing" not in text and "--allow-io" in text


def test_an_executor_reached_through_a_helper_is_named_on_the_calling_line() -> None:
    with ProcessPoolExecutor(1) as ex:
        ns = _ns(ex=ex)
        exec("def fan_out(xs):\n    return list(ex.map(abs, xs))\n", ns)
        c = verify("xs = [-1, 2]\nres = fan_out(xs)\n", "xs = [-1, 2]\nres = [abs(x) for x in xs]\n", ns, repeat=1)
    assert c.blocked and c.blocked.startswith("line 2 hands work to a ProcessPoolExecutor")


def test_a_rewrite_that_reaches_a_pool_is_named_as_the_rewrites_line() -> None:
    with multiprocessing.Pool(1) as pool:
        c = verify(POOL_REWRITE, POOL_CELL, _ns(pool=pool), repeat=1)
    assert c.blocked and c.blocked.startswith("the rewrite's line 1 hands work")


def test_a_thread_pool_made_earlier_works_in_a_forked_copy() -> None:
    with ThreadPoolExecutor(2) as ex:
        ex.submit(lambda: None).result()  # its threads exist in the kernel, not in a copy
        ns = _ns(ex=ex)
        exec("def double(x):\n    return 2 * x\n", ns)
        c = verify("res = list(ex.map(double, range(200)))\n", "res = [2 * x for x in range(200)]\n", ns, repeat=2)
    assert c.blocked is None and c.error is None and c.equal, render_comparison_text(c)


def test_a_connection_made_earlier_is_refused_up_front() -> None:
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen()
    conn = socket.create_connection(server.getsockname())
    try:
        ns = _ns(conn=conn)
        exec("def query(sql):\n    conn.sendall(sql.encode())\n    return 1\n", ns)
        c = verify("rows = query('select 1')\n", "rows = 1\n", ns, repeat=1)
    finally:
        conn.close()
        server.close()
    assert c.blocked == "line 1 talks to a server through a connection opened before the Try (a socket)"


def test_allow_io_runs_a_pool_cell_in_this_kernel_and_says_why() -> None:
    with multiprocessing.Pool(2) as pool:
        c = verify(POOL_CELL, POOL_REWRITE, _ns(pool=pool), repeat=1, allow_io=True)
    assert c.blocked is None and c.isolation == "in-process" and c.equal, render_comparison_text(c)
    assert any("only this kernel can reach" in n for n in c.notes)


def test_objects_that_reach_nothing_are_not_refused() -> None:
    ns = _ns(data=list(range(10)), table={"a": [1, 2]}, name="x")
    exec("class Model:\n    def __init__(self):\n        self.w = [0.5]\nm = Model()\n", ns)
    assert outside.find(ns, "y = sum(data) + len(table) + m.w[0]\nz = name\n") == []


def test_a_dask_cluster_made_earlier_is_refused_within_a_second() -> None:
    distributed = pytest.importorskip("distributed")
    with distributed.Client(processes=False, n_workers=1, threads_per_worker=1, dashboard_address=None) as client:
        ns = _ns(client=client)
        started = time.monotonic()
        c = verify(
            "fut = client.submit(sum, [1, 2])\nres = fut.result()\ntotal = res\n",
            "res = sum([1, 2])\ntotal = res\n",
            ns,
            repeat=3,
        )
        took = time.monotonic() - started
    assert took < 1.0, took
    assert c.blocked == (
        "line 1 sends work to a Dask cluster; a copy of the kernel cannot reach it without repeating the work"
    )


def test_a_queue_that_an_earlier_thread_consumes_is_refused() -> None:
    import queue
    import threading

    jobs: queue.Queue = queue.Queue()
    done = []

    def worker() -> None:
        while (item := jobs.get()) is not None:
            done.append(item)
            jobs.task_done()

    t = threading.Thread(target=worker, daemon=True)
    t.start()
    try:
        started = time.monotonic()
        c = verify("jobs.put(1)\njobs.join()\nn = len(done)\n", "n = len(done) + 1\n", _ns(jobs=jobs, done=done))
        assert time.monotonic() - started < 1.0
    finally:
        jobs.put(None)
        t.join()
    assert c.blocked and c.blocked.startswith("line 1 hands work to a queue that threads started before the Try")
    assert done == []  # the kernel's worker never saw the Try's job


def test_a_cell_that_waits_on_what_a_copy_lacks_is_stopped_in_seconds_and_told_why() -> None:
    import threading

    ready = threading.Event()  # set by a kernel thread that a forked copy does not have
    timer = threading.Timer(30, ready.set)
    timer.start()
    try:
        started = time.monotonic()
        c = verify("ready.wait()\nn = 1\n", "ready.wait()\nn = 1\n", _ns(ready=ready), repeat=1, expected_s=0.01)
        took = time.monotonic() - started
    finally:
        timer.cancel()
    assert took < 15, took
    assert c.error and "does not exist" in c.error and "OpenMP" not in c.error, c.error
