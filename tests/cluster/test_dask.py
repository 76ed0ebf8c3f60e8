"""%%aiperf on cells that run on a real Dask LocalCluster (2 worker processes, 1 thread each)."""

from __future__ import annotations

import subprocess
import sys

import pytest
from IPython.utils.capture import capture_output

from tests.cluster.cells import HEAVY, PINNED, TINY

pytest.importorskip("distributed")


def run(ip, client, body: str):
    ip.user_ns["client"] = client
    with capture_output() as out:
        result = ip.run_cell("%%aiperf --var rep\n" + body)
    assert result.success, out.stdout + out.stderr
    return ip.user_ns["rep"], out


def verdicts(rep) -> list[str]:
    return [f.code for f in rep.findings if f.code.startswith("AIP9")]


def test_tiny_tasks_are_too_many_small_tasks(ip, dask_client) -> None:
    rep, out = run(ip, dask_client, TINY)
    assert ip.user_ns["total"] == sum(range(1, 501))  # the cell did its work
    c = rep.cluster
    assert c is not None and c.engine == "dask" and c.workers == 2 and c.threads == 2
    assert c.tasks == 500 and c.median_task_ms is not None and c.median_task_ms < 5
    assert rep.verdict is not None and rep.verdict.code == "AIP911", rep.verdict
    assert "500 tasks" in rep.verdict.sentence
    assert "AIP907" not in verdicts(rep)
    assert c.dashboard and c.dashboard.startswith("http")
    assert "Cluster" in out.stdout or any("Cluster" in o.data.get("text/plain", "") for o in out.outputs)


def test_one_heavy_task_per_worker_is_cluster_bound(ip, dask_client) -> None:
    rep, _ = run(ip, dask_client, HEAVY)
    c = rep.cluster
    assert c is not None and c.tasks == 2
    assert c.worker_hotspots[0].function == "heavy"
    assert rep.verdict is not None and rep.verdict.code == "AIP910", (rep.verdict, c)
    assert "heavy" in rep.verdict.sentence
    assert "AIP907" not in verdicts(rep) and "AIP903" not in verdicts(rep)


def test_work_pinned_to_one_worker_is_unbalanced(ip, dask_client) -> None:
    rep, _ = run(ip, dask_client, PINNED)
    c = rep.cluster
    assert c is not None and c.tasks == 12
    busy = sorted(c.worker_busy.values())
    assert busy[0] == 0.0 and busy[1] > 0.3, c.worker_busy
    assert rep.verdict is not None and rep.verdict.code == "AIP912", (rep.verdict, c)


def test_a_cell_without_tasks_has_no_cluster_verdict(ip, dask_client) -> None:
    rep, _ = run(ip, dask_client, "x = sum(range(1000))\n")
    assert rep.cluster is not None and rep.cluster.tasks == 0
    assert not [code for code in verdicts(rep) if code.startswith("AIP91")]


def test_client_closed_in_the_cell_costs_a_note_not_the_cell(ip) -> None:
    distributed = pytest.importorskip("distributed")
    cluster = distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False,
                                       dashboard_address=":0", silence_logs=40)
    own = distributed.Client(cluster)
    try:
        rep, _ = run(ip, own, "value = client.submit(sum, [1, 2]).result()\nclient.close()\n")
        assert ip.user_ns["value"] == 3
        assert rep.cluster is None
        assert any("cluster (dask): not measured" in n for n in rep.notes), rep.notes
    finally:
        own.close()
        cluster.close()


def test_scheduler_dying_mid_cell_costs_a_note_not_the_cell(ip) -> None:
    distributed = pytest.importorskip("distributed")
    cluster = distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False,
                                       dashboard_address=":0", silence_logs=50)
    own = distributed.Client(cluster)
    ip.user_ns["doomed"] = cluster
    try:
        rep, _ = run(ip, own, "value = client.submit(sum, [1, 2]).result()\ndoomed.close()\n")
        assert ip.user_ns["value"] == 3
        assert rep.cluster is None, rep.cluster
        assert any("cluster (dask): not measured" in n for n in rep.notes), rep.notes
    finally:
        own.close()
        cluster.close()


def test_a_client_made_in_the_cell_is_measured_from_the_next_cell(ip) -> None:
    pytest.importorskip("distributed")
    from aiperf_magic.render.text import render_text
    made = """\
from distributed import Client, LocalCluster
own_cluster = LocalCluster(n_workers=1, threads_per_worker=1, processes=False, dashboard_address=":0",
                           silence_logs=40)
client = Client(own_cluster)
first = client.submit(sum, [1, 2]).result()
"""
    ip.user_ns.pop("client", None)
    try:
        with capture_output() as out:
            assert ip.run_cell("%%aiperf --var rep\n" + made).success, out.stdout + out.stderr
        rep = ip.user_ns["rep"]
        assert ip.user_ns["first"] == 3
        expected = ("cluster (dask): started in this cell; measured from the next cell on" if rep.cluster is None
                    else "cluster (dask): a new client was made in this cell; its tasks are measured from the next "
                    "cell on")  # another test's client was the default one
        assert expected in rep.notes, rep.notes
        assert "measured from the next cell on" in render_text(rep)  # the views show the note
        rep, _ = run(ip, ip.user_ns["client"], "second = client.submit(sum, [3, 4]).result()\n")
        assert ip.user_ns["second"] == 7 and rep.cluster is not None and rep.cluster.tasks == 1
        assert not any("next cell" in n for n in rep.notes)
    finally:
        ip.user_ns["client"].close()
        ip.user_ns["own_cluster"].close()


def test_an_interrupted_cluster_cell_stays_interrupted_and_is_still_measured(ip, dask_client) -> None:
    ip.user_ns["client"] = dask_client
    body = "done = client.gather(client.map(lambda x: x * 2, range(20), pure=False))\nraise KeyboardInterrupt\n"
    with capture_output():
        result = ip.run_cell("%%aiperf\n" + body)
    assert isinstance(result.error_in_exec, KeyboardInterrupt) and ip.user_ns["done"][-1] == 38
    rep = ip._aiperf_magics.state.last_report
    assert rep.error is not None and rep.error.type == "KeyboardInterrupt"
    assert rep.cluster is not None and rep.cluster.tasks == 20


class SchedulerWithoutThePackage:
    """A real client whose scheduler cannot import aiperf_magic (a remote cluster without it):
    ``run_on_scheduler`` fails as unpickling our function would there."""

    def __init__(self, client) -> None:
        self._client = client
        self.asked = 0

    def run_on_scheduler(self, function, *args, **kwargs):
        self.asked += 1
        raise ModuleNotFoundError("No module named 'aiperf_magic'")

    def __getattr__(self, name: str):
        return getattr(self._client, name)


def probed(client, tasks: int):
    from aiperf_magic.measure.cluster.dask_probe import DaskProbe

    probe = DaskProbe(client)
    probe.start()
    total = sum(client.gather(client.map(lambda x: x + 1, range(tasks), pure=False)))
    assert total == sum(range(1, tasks + 1))
    return probe, probe.finish(1.0, 0.1)


def test_the_fold_on_the_scheduler_and_on_the_driver_agree(dask_client, monkeypatch) -> None:
    from aiperf_magic.measure.cluster import dask_probe

    monkeypatch.setattr(dask_probe, "YIELD_EVERY", 50)  # the scheduler lives in this process
    on_scheduler, there = probed(dask_client, 400)
    without = SchedulerWithoutThePackage(dask_client)
    on_driver, here = probed(without, 400)
    assert on_scheduler._on_scheduler and not on_driver._on_scheduler
    assert there.tasks == here.tasks == 400  # each counts its own cell's tasks, not the one before
    assert there.workers == here.workers == 2 and there.threads == here.threads == 2
    assert [h.function for h in there.worker_hotspots] == [h.function for h in here.worker_hotspots] == ["lambda"]
    assert there.transfer_bytes is not None and there.dashboard == here.dashboard
    again, _ = probed(without, 5)
    assert not again._on_scheduler and without.asked == 1  # a scheduler that could not import us is not asked again


def test_a_scheduler_without_an_append_count_is_marked_by_its_last_record(dask_client, monkeypatch) -> None:
    from distributed import Scheduler

    monkeypatch.delattr(Scheduler, "get_task_stream_index")  # as in older Dask; the scheduler lives here
    first, _ = probed(dask_client, 50)
    assert first._index is None and first._marker is not None and first._on_scheduler
    assert [probed(dask_client, n)[1].tasks for n in (40, 3)] == [40, 3]


def test_back_to_back_probes_count_only_their_own_tasks(dask_client) -> None:
    counts = [probed(dask_client, n)[1].tasks for n in (300, 7, 0, 120)]
    assert counts == [300, 7, 0, 120]


def test_no_engine_imported_means_nothing_imported() -> None:
    code = (
        "import sys; from aiperf_magic.measure.stages import default_stages; "
        "from aiperf_magic.measure.cluster.detect import find_probe; default_stages(); "
        "assert find_probe({'x': 1}) is None; "
        "print(sorted(m for m in ('dask', 'distributed', 'ray') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
