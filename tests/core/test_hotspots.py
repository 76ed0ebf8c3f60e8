"""The all-thread line sampler, driven by hand with fake stacks and fake thread CPU clocks.

Frames are stand-ins holding real code objects compiled under the file names that decide whose code
it is: a cell (``<ipython-input-N-...>``), an earlier cell, a library file under ``sys.prefix``.
"""

from __future__ import annotations

import os
import sys
from types import SimpleNamespace

import pytest

from aiperf_magic.measure.hotspots import LineSampler

CELL = "<ipython-input-9-cafe>"
EARLIER = "<ipython-input-3-beef>"
LIBRARY = os.path.join(sys.prefix, "lib", "python3", "site-packages", "somelib", "core.py")
HARNESS = "/home/someone/project/run_notebook.py"  # user code outside the cell: whatever runs the shell

ROOT = compile("def run_code(): pass", "interactiveshell.py", "exec").co_consts[0]


def code(qualname: str, filename: str, lines: int = 6):
    """A code object named ``qualname`` ("work", "DataFrame.iterrows") from ``filename``, spanning
    ``lines`` lines of body."""
    owner, _, name = qualname.rpartition(".")
    body = "\n".join(f"        x{i} = {i}" for i in range(lines))
    src = f"class {owner}:\n    def {name}(self):\n{body}\n" if owner else f"def {name}():\n{body}\n"
    found = compile(src, filename, "exec")
    while found.co_name != name:
        found = next(c for c in found.co_consts if hasattr(c, "co_name"))
    return found


CELL_CODE = compile("\n".join(f"y{i} = {i}" for i in range(12)), CELL, "exec")
WORK = code("work", EARLIER)
SPIN = code("spin", CELL)  # a function the measured cell itself defined
JOIN = code("Thread.join", LIBRARY)
ITER = code("DataFrame.iterrows", LIBRARY)
BOOT = code("Thread._bootstrap", LIBRARY)
SELECT = code("EPoll.poll", LIBRARY)
HARNESS_CODE = code("main", HARNESS)


def frame(code_obj, line: int, back=None, **extra):
    return SimpleNamespace(f_code=code_obj, f_lineno=line, f_back=back, f_globals=extra.pop("globals", {}),
                           f_trace=None, f_locals=extra.pop("f_locals", {}), **extra)


def main_stack(cell_line: int, *inner: tuple) -> SimpleNamespace:
    """The cell's thread: a harness, run_code, the cell at ``cell_line``, then ``inner`` frames."""
    f = frame(HARNESS_CODE, 1)
    f = frame(ROOT, 1, f)
    f = frame(CELL_CODE, cell_line, f)
    for code_obj, line in inner:
        f = frame(code_obj, line, f)
    return f


def worker_stack(*inner: tuple) -> SimpleNamespace:
    f = frame(BOOT, 1)
    for code_obj, line in inner:
        f = frame(code_obj, line, f)
    return f


class World:
    """Threads by ident, each with a stack and a CPU clock the test moves."""

    def __init__(self) -> None:
        self.stacks: dict[int, SimpleNamespace] = {}
        self.cpu: dict[int, float] = {}

    def thread(self, ident: int, stack, cpu: float = 0.0) -> None:
        self.stacks[ident], self.cpu[ident] = stack, cpu

    def sampler(self, **kw) -> LineSampler:
        threads = lambda: [SimpleNamespace(ident=i, native_id=i, name=f"t{i}") for i in self.stacks]  # noqa: E731
        return LineSampler(1, ROOT, line_offset=0, frames=lambda: dict(self.stacks), threads=threads,
                           thread_cpu=lambda native: self.cpu.get(native), cell_files={EARLIER: 3},
                           read_names=False, **kw)


def by_line(hotspots):
    return {h.line: h for h in hotspots}


def test_one_thread_gets_every_tick_whatever_it_does():
    world = World()
    world.thread(1, main_stack(4, (ITER, 2)))
    world.thread(7, worker_stack((SELECT, 1)))  # the kernel's IOPub thread: library code only
    lines = world.sampler()
    lines.start()
    for _ in range(5):
        lines.sample(0.02, 0.02)
    hot = by_line(lines.hotspots(0.1))
    assert list(hot) == [4]
    assert hot[4].share == pytest.approx(1.0)
    assert hot[4].callee == "DataFrame.iterrows" and hot[4].own_seconds == pytest.approx(0.1)
    assert lines.function_lines(0.1) == []  # the harness and the library are nobody's lines here


def test_busy_workers_take_the_time_from_a_main_thread_waiting_in_join():
    world = World()
    world.thread(1, main_stack(8, (JOIN, 1)))  # the cell waits in t.join()
    lines = world.sampler()
    lines.start()
    world.thread(21, worker_stack((SPIN, 3)))  # threads the cell started, running its own function
    world.thread(22, worker_stack((SPIN, 4)))
    for _ in range(10):
        world.cpu[21] += 0.01
        world.cpu[22] += 0.01  # the GIL: each runs half of the time, the main thread none
        lines.sample(0.02, 0.02)
    hot = by_line(lines.hotspots(0.2))
    assert 8 not in hot  # the join line holds no time while the workers compute
    assert hot[3].share == pytest.approx(0.5) and hot[4].share == pytest.approx(0.5)
    assert lines.shares.started_in_cell == {21, 22}


def test_when_every_thread_waits_the_cells_threads_share_the_tick():
    world = World()
    world.thread(1, main_stack(8, (JOIN, 1)))
    lines = world.sampler()
    lines.start()
    world.thread(21, worker_stack((SPIN, 3), (SELECT, 1)))  # a cell-started thread waiting on a socket
    for _ in range(4):
        lines.sample(0.02, 0.02)
    hot = by_line(lines.hotspots(0.08))
    assert hot[8].share == pytest.approx(0.5) and hot[3].share == pytest.approx(0.5)
    assert hot[3].callee == "EPoll.poll"


def test_a_pool_worker_running_an_earlier_cells_function_charges_the_waiting_cell_line():
    world = World()
    world.thread(1, main_stack(5, (JOIN, 1)))  # list(pool.map(work, chunks)) waiting
    world.thread(30, worker_stack((SELECT, 1)))  # an idle pool worker from an earlier cell
    lines = world.sampler()
    lines.start()
    world.thread(30, worker_stack((WORK, 4)))
    for _ in range(5):
        world.cpu[30] += 0.02
        lines.sample(0.02, 0.02)
    hot = by_line(lines.hotspots(0.1))
    assert hot[5].share == pytest.approx(1.0) and hot[5].via == {"work": 5}
    assert hot[5].own_seconds == 0.0  # the time is the worker's, waited for on this line
    (fn,) = lines.function_lines(0.1)
    assert (fn.function, fn.where, fn.line, fn.threads) == ("work", "cell [3]", 4, 1)
    assert fn.share == pytest.approx(1.0)


def test_a_function_from_an_earlier_cell_on_the_cells_own_thread():
    world = World()
    world.thread(1, main_stack(2, (WORK, 5), (ITER, 9)))
    lines = world.sampler()
    lines.start()
    for _ in range(3):
        lines.sample(0.02, 0.02)
    (cell,) = lines.hotspots(0.06)
    (fn,) = lines.function_lines(0.06)
    assert cell.line == 2 and cell.via == {"work": 3} and cell.callee == "DataFrame.iterrows"
    assert fn.line == 5 and fn.callee == "DataFrame.iterrows" and fn.own_seconds == pytest.approx(0.06)


def test_a_thread_already_running_user_code_before_the_cell_is_not_the_cells():
    world = World()
    world.thread(1, main_stack(3))
    world.thread(40, worker_stack((WORK, 2)))  # a background job an earlier cell started
    lines = world.sampler()
    lines.start()
    for _ in range(5):
        world.cpu[1] += 0.02
        world.cpu[40] += 0.005
        lines.sample(0.02, 0.02)
    hot = by_line(lines.hotspots(0.1))
    assert list(hot) == [3] and hot[3].share == pytest.approx(1.0)
    (fn,) = lines.function_lines(0.1)
    assert fn.line == 2 and fn.seconds == pytest.approx(0.025)  # the CPU it used, not the cell's time
    assert 40 in lines.shares.background


def test_the_cells_thread_outside_run_code_is_not_the_cell():
    world = World()
    world.thread(1, frame(HARNESS_CODE, 3))  # between cells: the harness's own (user) file
    lines = world.sampler()
    lines.start()
    lines.sample(0.02, 0.02)
    assert lines.hotspots(0.02) == [] and lines.function_lines(0.02) == []
    assert lines.outside_s == pytest.approx(0.02)


def test_cell_thread_only_mode_ignores_other_threads():
    world = World()
    world.thread(1, main_stack(8, (JOIN, 1)))
    world.thread(21, worker_stack((SPIN, 3)))
    lines = world.sampler(all_threads=False)
    lines.start()
    for _ in range(3):
        world.cpu[21] += 0.02
        lines.sample(0.02, 0.02)
    assert [h.line for h in lines.hotspots(0.06)] == [8]


def test_with_hundreds_of_threads_each_tick_reads_a_bounded_turn_of_them(monkeypatch):
    from aiperf_magic.measure import hotspots

    world = World()
    world.thread(1, main_stack(2))
    lines = world.sampler()
    lines.start()
    for ident in range(100, 300):
        world.thread(ident, worker_stack((SELECT, 1)))
    read: list[int] = []
    original = hotspots.user_stack

    def counting(frame, root, *cell_file):
        read.append(id(frame))
        return original(frame, root, *cell_file)

    monkeypatch.setattr(hotspots, "user_stack", counting)
    seen: set[int] = set()
    for _ in range(4):
        read.clear()
        lines.sample(0.02, 0.02)
        assert len(read) <= hotspots.MAX_THREADS + 1
        seen |= set(read)
    assert len(seen) == 201  # in turn, every thread was read (and the cell's at every tick)
    assert [h.line for h in lines.hotspots(0.08)] == [2]


def test_a_lambdas_line_reads_the_names_of_the_cell_frame_that_called_it_from_that_line():
    # ``min(unvisited, key=lambda n: dist[n])``: the sampler mostly finds the lambda's frame on top,
    # which sees ``dist`` only; the list min() scans is a name of the cell's frame on the same line
    cell = compile("dist = {}\ncurrent = min(unvisited, key=lambda n: dist[n])\n", CELL, "exec")
    lam = next(c for c in cell.co_consts if getattr(c, "co_name", "") == "<lambda>")
    names = {"unvisited": list(range(3_000)), "dist": dict.fromkeys(range(3_000), 1.0)}
    f = frame(ROOT, 1, frame(HARNESS_CODE, 1))
    f = frame(cell, 2, f, globals=names)
    world = World()
    world.thread(1, frame(lam, 2, f, globals=names))
    lines = world.sampler()
    lines.read_names = True
    lines.start()
    for _ in range(3):
        lines.sample(0.02, 0.02)
    (hot,) = lines.hotspots(0.06)
    assert hot.line == 2 and hot.sizes == {"dist": 3_000, "unvisited": 3_000}
    # a function called from a cell line is another line: its caller's names are not its own
    world.thread(1, main_stack(2, (WORK, 5)))
    lines = world.sampler()
    lines.read_names = True
    lines.start()
    for _ in range(3):
        lines.sample(0.02, 0.02)
    assert all(not h.sizes for h in lines.hotspots(0.06))
