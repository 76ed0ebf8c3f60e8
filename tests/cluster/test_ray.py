"""%%aiperf on cells that run on a real local Ray (2 CPUs). Ray takes about 20 s to start on a small
machine, hence ``slow``; the tests still run in ``make test``."""

from __future__ import annotations

import pytest
from IPython.utils.capture import capture_output

pytest.importorskip("ray")
pytestmark = pytest.mark.slow

SETUP = """\
import ray

@ray.remote
def inc(x):
    return x + 1

@ray.remote
def heavy(n):
    import numpy as np
    a = np.random.default_rng(0).random((n, n))
    for _ in range(8):
        a = a @ a / n
    return float(a.sum())

@ray.remote
def straggler(seconds):
    import time
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        pass
    return seconds
"""


def run(ip, body: str):
    with capture_output() as out:
        result = ip.run_cell("%%aiperf --var rep\n" + body)
    assert result.success, out.stdout + out.stderr
    return ip.user_ns["rep"]


@pytest.fixture
def ray_ip(ip, ray_local):
    assert ip.run_cell(SETUP).success
    ray_local.get([ray_local.remote(lambda: 0).remote() for _ in range(4)])  # workers started before timing
    return ip


def test_tiny_ray_tasks_are_too_many_small_tasks(ray_ip) -> None:
    rep = run(ray_ip, "total = sum(ray.get([inc.remote(i) for i in range(500)]))\n")
    assert ray_ip.user_ns["total"] == sum(range(1, 501))
    c = rep.cluster
    assert c is not None and c.engine == "ray" and c.threads == 2
    assert c.tasks == 500, c  # the probe waited for Ray's last report of task events
    assert rep.verdict is not None and rep.verdict.code == "AIP911", (rep.verdict, c)


def test_one_heavy_ray_task_per_cpu_is_cluster_bound(ray_ip) -> None:
    rep = run(ray_ip, "results = ray.get([heavy.remote(700) for _ in range(2)])\n")
    c = rep.cluster
    assert c is not None and c.tasks == 2, c
    assert c.worker_hotspots[0].function == "heavy"
    assert rep.verdict is not None and rep.verdict.code == "AIP910", (rep.verdict, c)
    assert "heavy" in rep.verdict.sentence


def test_one_long_ray_task_leaves_a_cpu_idle(ray_ip) -> None:
    rep = run(ray_ip, "done = ray.get([straggler.remote(1.0), straggler.remote(0.05)])\n")
    c = rep.cluster
    assert c is not None and c.tasks == 2, c
    assert rep.verdict is not None and rep.verdict.code == "AIP912", (rep.verdict, c)
