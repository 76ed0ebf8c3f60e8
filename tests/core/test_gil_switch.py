"""The switch interval while a cell is sampled, and the cell's densely sampled start.

Unit tests drive ``SwitchInterval`` and ``Sampler`` with fake interval setters and a fake clock; the
kernel tests run real ``%%aiperf`` cells and read ``sys.getswitchinterval()`` from inside and after
them, including the hostile ones: a cell that sets its own interval, starts a thread, forks, raises,
is interrupted, or unloads the extension.
"""

from __future__ import annotations

import os
import random
import sys
import threading
from types import SimpleNamespace

import pytest
from IPython.utils.capture import capture_output

from aiperf_magic.measure import gil_switch
from aiperf_magic.measure.gil_switch import LOW_S, SwitchInterval
from aiperf_magic.measure.hotspots import LineSampler
from aiperf_magic.measure.sampler import DENSE_FOR_S, DENSE_S, Sampler

CELL = "<ipython-input-9-cafe>"
ROOT = compile("def run_code(): pass", "interactiveshell.py", "exec").co_consts[0]
CELL_CODE = compile("\n".join(f"y{i} = {i}" for i in range(12)), CELL, "exec")
SPIN = compile("def spin():\n    x = 1\n    y = 2\n", CELL, "exec").co_consts[0]  # the cell's own function


def frame(code, line, back=None):
    return SimpleNamespace(f_code=code, f_lineno=line, f_back=back, f_globals={}, f_trace=None, f_locals={})


class World:
    """Threads by ident, each with a stack: the cell's thread (1) on a line of the cell."""

    def __init__(self) -> None:
        self.stacks = {1: frame(CELL_CODE, 4, frame(ROOT, 1))}

    def sampler(self) -> LineSampler:
        threads = lambda: [SimpleNamespace(ident=i, native_id=i, name=f"t{i}") for i in self.stacks]  # noqa: E731
        return LineSampler(1, ROOT, line_offset=0, frames=lambda: dict(self.stacks), threads=threads,
                           thread_cpu=lambda native: 0.0, read_names=False)

    def worker(self, ident: int) -> None:
        self.stacks[ident] = frame(SPIN, 2)


class FakeClock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


class CountingProbe:
    def __init__(self) -> None:
        self.notes: list[str] = []

    def start(self) -> None:
        pass

    def sample(self, row) -> None:
        row["cpu_percent"] = 1.0

    def stop(self) -> None:
        pass


class Interp:
    """A stand-in for the interpreter's interval, stored in whole microseconds as CPython does."""

    def __init__(self, value: float = 0.005) -> None:
        self.us = round(value * 1e6)
        self.sets: list[float] = []

    def get(self) -> float:
        return self.us / 1e6

    def set(self, value: float) -> None:
        self.sets.append(value)
        self.us = round(value * 1e6)


def switch(interp: Interp) -> SwitchInterval:
    return SwitchInterval(get=interp.get, set_=interp.set)


@pytest.fixture(autouse=True)
def users_interval_is_back():
    before = sys.getswitchinterval()
    yield
    assert sys.getswitchinterval() == before
    assert not gil_switch._LOWERED


def test_lowered_then_the_users_interval_restored():
    interp = Interp(0.005)
    s = switch(interp)
    s.lower()
    assert interp.get() == LOW_S and s.lowered
    s.lower()  # twice is once
    assert interp.sets == [LOW_S]
    s.restore()
    assert interp.get() == 0.005 and not s.lowered
    s.restore()
    assert interp.sets == [LOW_S, 0.005]


def test_a_users_interval_as_short_or_shorter_is_left_alone():
    interp = Interp(0.0001)
    s = switch(interp)
    s.lower()
    s.restore()
    assert interp.sets == [] and interp.get() == 0.0001


def test_an_interval_the_user_set_during_the_cell_is_kept():
    interp = Interp(0.005)
    s = switch(interp)
    s.lower()
    interp.set(0.002)  # the cell's own sys.setswitchinterval
    s.restore()
    assert interp.get() == 0.002


def test_switched_off_it_never_touches_the_interval(monkeypatch):
    monkeypatch.setattr(gil_switch, "ENABLED", False)
    interp = Interp(0.005)
    s = switch(interp)
    s.lower()
    s.restore()
    assert interp.sets == []


def test_a_forked_child_gets_the_users_interval_back():
    interp = Interp(0.005)
    s = switch(interp)
    s.lower()
    gil_switch._in_child()  # what os.register_at_fork runs in the child
    assert interp.get() == 0.005 and not gil_switch._LOWERED


# -- the sampler's side ------------------------------------------------------------------------------

def one_thread_world() -> World:
    return World()


def test_the_sampler_lowers_it_for_a_cell_on_one_thread_and_restores_it_at_stop():
    interp, clock = Interp(0.005), FakeClock()
    sampler = Sampler([CountingProbe()], clock=clock, lines=one_thread_world().sampler(), switch=switch(interp))
    sampler.start(thread=False)
    assert interp.get() == LOW_S
    clock.now += 0.02
    sampler.tick()
    assert interp.get() == LOW_S
    sampler.stop()
    assert interp.get() == 0.005


def test_a_thread_the_cell_starts_gets_the_users_interval_back_at_once():
    interp, clock, world = Interp(0.005), FakeClock(), one_thread_world()
    lines = world.sampler()
    sampler = Sampler([CountingProbe()], clock=clock, lines=lines, switch=switch(interp))
    sampler.start(thread=False)
    world.worker(21)  # the cell started a thread
    clock.now += 0.02
    sampler.tick()
    assert interp.get() == 0.005 and not lines.one_thread
    clock.now += 0.02
    sampler.tick()
    assert interp.sets == [LOW_S, 0.005]  # not lowered again for this cell
    sampler.stop()


def test_a_thread_already_running_user_code_means_the_interval_is_never_lowered():
    interp, world = Interp(0.005), one_thread_world()
    world.worker(21)  # a background job from an earlier cell
    sampler = Sampler([CountingProbe()], clock=FakeClock(), lines=world.sampler(), switch=switch(interp))
    sampler.start(thread=False)
    sampler.stop()
    assert interp.sets == []


def test_without_line_sampling_the_interval_is_left_alone():
    interp = Interp(0.005)
    sampler = Sampler([CountingProbe()], clock=FakeClock(), switch=switch(interp))
    sampler.start(thread=False)
    sampler.stop()
    assert interp.sets == []


def test_the_dense_start_samples_lines_every_few_ms_and_the_timeline_every_interval():
    clock, probe, world = FakeClock(), CountingProbe(), one_thread_world()
    lines = world.sampler()
    sampler = Sampler([probe], interval_s=0.02, clock=clock, lines=lines, switch=switch(Interp()))
    sampler.start(thread=False)
    periods = []
    for _ in range(200):
        period = sampler.period
        periods.append(period)
        clock.now += period
        sampler.tick()
    samples = sampler.stop()
    dense = [p for p in periods[:30]]
    assert all(0.5 * DENSE_S <= p <= 1.5 * DENSE_S for p in dense)
    assert len(set(dense)) > 10  # drawn, not a fixed beat a loop could keep time with
    assert periods[-1] == 0.02
    first = sum(1 for t in samples.t if t < DENSE_FOR_S)
    assert 8 <= first <= 11  # rows stay an interval apart during the dense start
    gaps = [b - a for a, b in zip(samples.t, samples.t[1:], strict=False)]
    assert min(gaps) >= 0.02 - DENSE_S / 2
    assert lines.thread_samples[1] == 200  # every tick read the lines


def test_no_dense_start_where_the_interval_is_already_as_short():
    clock = FakeClock()
    sampler = Sampler([CountingProbe()], interval_s=0.004, clock=clock, switch=switch(Interp()))
    sampler.start(thread=False)
    assert sampler.dense_s is None and sampler.period == 0.004
    off = Sampler([CountingProbe()], interval_s=0.02, clock=clock, dense_s=0)
    assert off.dense_s is None


def test_the_dense_start_leaves_the_users_random_sequence_alone():
    random.seed(1234)
    expected = [random.random() for _ in range(3)]
    random.seed(1234)
    sampler = Sampler([CountingProbe()], interval_s=0.02, clock=FakeClock())
    for _ in range(50):
        sampler.period  # noqa: B018  (draws a period)
    assert [random.random() for _ in range(3)] == expected


# -- real cells --------------------------------------------------------------------------------------

def run(ip, code: str):
    with capture_output():
        return ip.run_cell(code)


def test_inside_a_cell_the_interval_is_short_and_after_it_the_users(ip):
    before = sys.getswitchinterval()
    assert run(ip, "%%aiperf --text\nimport sys, time\nseen = sys.getswitchinterval()\ntime.sleep(0.03)\n").success
    assert ip.user_ns["seen"] == LOW_S
    assert sys.getswitchinterval() == before
    assert run(ip, "%%aiperf --text --no-hotspots\nimport sys\nseen = sys.getswitchinterval()\n").success
    assert ip.user_ns["seen"] == before  # nothing sampled on the lines: nothing to change


def test_a_cell_that_sets_its_own_interval_keeps_it(ip):
    before = sys.getswitchinterval()
    try:
        assert run(ip, "%%aiperf --text\nimport sys\nsys.setswitchinterval(0.002)\nx = sum(range(10**5))\n").success
        assert sys.getswitchinterval() == pytest.approx(0.002)
    finally:
        sys.setswitchinterval(before)


def test_a_cell_that_starts_threads_runs_them_at_the_users_interval(ip):
    before = sys.getswitchinterval()
    code = ("%%aiperf --text\nimport sys, threading, time\nseen = []\n"
            "def spin():\n    t = time.perf_counter()\n    while time.perf_counter() - t < 0.15:\n        pass\n"
            "    seen.append(sys.getswitchinterval())\n"
            "ts = [threading.Thread(target=spin) for _ in range(2)]\n"
            "for t in ts: t.start()\nfor t in ts: t.join()\n")
    assert run(ip, code).success
    assert ip.user_ns["seen"] == [before, before]


@pytest.mark.parametrize("body, error", [
    ("x = 1\nraise ValueError('boom')\n", ValueError),
    ("x = 1\nraise KeyboardInterrupt\n", KeyboardInterrupt),
])
def test_the_interval_comes_back_after_an_exception_or_ctrl_c(ip, body, error):
    before = sys.getswitchinterval()
    result = run(ip, "%%aiperf --text\nimport time\ntime.sleep(0.02)\n" + body)
    assert isinstance(result.error_in_exec, error)
    assert sys.getswitchinterval() == before


def test_unloading_during_a_cell_gives_the_interval_back(ip):
    before = sys.getswitchinterval()
    assert run(ip, "%%aiperf\nimport time\ntime.sleep(0.02)\n%unload_ext aiperf_magic\nstill = 1\n").success
    assert sys.getswitchinterval() == before
    ip.run_line_magic("load_ext", "aiperf_magic")


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs os.fork")
def test_a_child_forked_during_a_cell_runs_at_the_users_interval(ip, tmp_path):
    before = sys.getswitchinterval()
    out = tmp_path / "child.txt"
    code = ("%%aiperf --text\nimport os, sys\npid = os.fork()\n"
            "if pid == 0:\n"
            f"    open({str(out)!r}, 'w').write(repr(sys.getswitchinterval()))\n"
            "    os._exit(0)\n"
            "os.waitpid(pid, 0)\n")
    assert run(ip, code).success
    assert float(out.read_text()) == before
    assert threading.active_count() >= 1
