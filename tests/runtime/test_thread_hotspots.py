"""Work in threads gets its lines, in a real IPython shell: a thread pool computing a function from an
earlier cell, and threads running a function of the measured cell itself. No timing is asserted,
only where the sampled time went."""

from __future__ import annotations

from IPython.utils.capture import capture_output

EARLIER = """\
def work(n):
    total = 0
    for i in range(n):
        total += i % 7
    return total
"""

POOL = """\
%%aiperf --text --var r
from concurrent.futures import ThreadPoolExecutor
with ThreadPoolExecutor(3) as pool:
    totals = list(pool.map(work, [12_000_000] * 3))
"""

OWN_THREADS = """\
%%aiperf --text --var r
import threading
def spin():
    count = 0
    for _ in range(12_000_000):
        count += 1
threads = [threading.Thread(target=spin) for _ in range(3)]
for t in threads:
    t.start()
for t in threads:
    t.join()
"""


def run(ip, source: str):
    with capture_output():
        result = ip.run_cell(source, store_history=True)
    assert result.success, result.error_in_exec
    return ip.user_ns.get("r")


def test_a_pool_computing_an_earlier_cells_function_gives_that_function_its_time(ip):
    run(ip, EARLIER)
    r = run(ip, POOL)
    work = [h for h in r.function_lines if h.function == "work"]
    assert work, r.function_lines
    assert all(h.where and h.where.startswith("cell [") for h in work)
    # the workers' lines hold the time; the work runs about a second so that a sampler the three
    # spinning threads keep from the GIL takes enough samples on a loaded machine (0.3 s gave 0.16 s)
    assert sum(h.own_seconds for h in work) >= 0.5 * r.wall_s
    assert max(h.threads for h in work) >= 2
    loop = next(h for h in work if h.loop_count is not None)
    assert loop.loop_count == 12_000_000 and loop.loop.startswith("range(n): 12,000,000 iterations")
    waiting = next(h for h in r.hotspots if h.line == 3)  # totals = list(pool.map(...))
    assert "work" in waiting.via  # the cell line that waits for the workers carries their time...
    assert waiting.own_seconds < 0.5 * r.wall_s  # ...but the main thread's own wait does not take it all
    workers = [t for t in r.thread_times if t.name.startswith("ThreadPoolExecutor")]
    assert workers and all(t.cell and t.started and t.user_samples > 0 for t in workers)
    assert r.cell_cpu_s is not None and r.cell_cpu_s >= 0.5 * r.cpu_s


def test_threads_running_the_cells_own_function_get_its_lines_not_the_join(ip):
    r = run(ip, OWN_THREADS)
    lines = {h.line: h for h in r.hotspots}
    loop_body = lines.get(5)  # count += 1
    assert loop_body is not None and loop_body.threads >= 2, r.hotspots
    join = lines.get(10)
    assert join is None or join.share < loop_body.share
    # the workers' loop takes most of the time; the main thread's lines (starting them while they
    # hold the GIL, the join) the rest; the work runs about a second so that a sampler the spinning
    # threads keep from the GIL still takes enough samples to share it (0.3 s gave 0.34 under load)
    loop = sum(h.share for h in r.hotspots if h.line in (4, 5))
    assert loop >= 0.4 and loop > max((h.share for h in r.hotspots if h.line not in (4, 5)), default=0.0)
    assert r.function_lines == []  # spin is the cell's own: its lines are cell lines
