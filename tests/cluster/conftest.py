"""Real engines for the cluster tests, skipped cleanly where they are not installed."""

from __future__ import annotations

import pytest


@pytest.fixture(scope="module")
def dask_client():
    """A 2-worker LocalCluster (processes, one thread each), shared by a module's tests."""
    distributed = pytest.importorskip("distributed")
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                       dashboard_address=":0", silence_logs=40)
    client = distributed.Client(cluster)
    try:
        yield client
    finally:
        client.close()
        cluster.close()


@pytest.fixture(scope="module")
def ray_local():
    """A local Ray with 2 CPUs (no dashboard), shared by a module's tests."""
    ray = pytest.importorskip("ray")
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, configure_logging=False)
    try:
        yield ray
    finally:
        ray.shutdown()
