"""The cluster stage never costs the cell or the report: a probe that fails is a note (injected fakes)."""

from __future__ import annotations

from types import SimpleNamespace

from aiperf_magic.measure.cluster.stage import ClusterStage
from aiperf_magic.report import ClusterInfo, Report


class Probe:
    engine = "dask"

    def __init__(self, fail_start: bool = False, fail_finish: bool = False) -> None:
        self.fail_start, self.fail_finish = fail_start, fail_finish
        self.asked: tuple[float, float] | None = None

    def start(self) -> None:
        if self.fail_start:
            raise OSError("scheduler unreachable")

    def finish(self, wall_s: float, driver_cpu_s: float) -> ClusterInfo:
        if self.fail_finish:
            raise RuntimeError("the Dask client is closed")
        self.asked = (wall_s, driver_cpu_s)
        return ClusterInfo(engine="dask", tasks=3)


def run_with(probe: Probe | None) -> tuple[SimpleNamespace, Report]:
    run = SimpleNamespace(user_ns={}, notes=[], state={}, own_cpu_s=0.25)
    stage = ClusterStage(find=lambda ns: probe)
    stage.before(run)  # type: ignore[arg-type]
    report = Report(source="x", wall_s=2.0, cpu_s=1.5)
    stage.after(run, report)  # type: ignore[arg-type]
    return run, report


def test_a_probe_reads_the_cluster_with_the_drivers_own_cpu() -> None:
    probe = Probe()
    _, report = run_with(probe)
    assert report.cluster is not None and report.cluster.tasks == 3
    assert probe.asked == (2.0, 0.25)  # not the 1.5 s that counts the worker processes too


def test_failures_are_notes() -> None:
    run, report = run_with(Probe(fail_start=True))
    assert report.cluster is None and "cluster: not measured (OSError: scheduler unreachable)" in run.notes
    run, report = run_with(Probe(fail_finish=True))
    assert report.cluster is None
    assert "cluster (dask): not measured (RuntimeError: the Dask client is closed)" in report.notes


def test_no_cluster_no_work() -> None:
    run, report = run_with(None)
    assert report.cluster is None and not run.notes and not report.notes and not run.state


def test_a_cluster_that_appears_or_changes_in_the_cell_is_named_in_a_note() -> None:
    class Client:
        pass

    def probe_for(client: object) -> Probe:
        probe = Probe()
        probe.client = client  # type: ignore[attr-defined]
        return probe

    first, second = Client(), Client()
    for before, after, expected in [
        (None, first, "cluster (dask): started in this cell; measured from the next cell on"),
        (first, second, "cluster (dask): a new client was made in this cell; its tasks are measured from the next "
                        "cell on"),
        (first, first, None),
        (None, None, None),
    ]:
        clients = iter([before, after])

        def find(ns: object, clients=clients) -> Probe | None:
            client = next(clients)
            return probe_for(client) if client is not None else None

        stage = ClusterStage(find=find)
        run = SimpleNamespace(user_ns={}, notes=[], state={}, own_cpu_s=0.25)
        stage.before(run)  # type: ignore[arg-type]
        report = Report(source="x", wall_s=2.0, cpu_s=1.5)
        stage.after(run, report)  # type: ignore[arg-type]
        notes = [n for n in report.notes if "next cell" in n]
        assert notes == ([expected] if expected else []), (before, after, report.notes)
        assert (report.cluster is not None) == (before is not None)
