"""Verdicts that read whose CPU it was: child processes the cell waited for one after another
(AIP903, not "CPU-bound on one core"), and threads that ran on more than one core of a machine other
processes filled (a busy machine, not the GIL)."""

from __future__ import annotations

from aiperf_magic.report import ThreadTime
from aiperf_magic.verdicts.stage import compute_verdict
from tests.runtime.timelines import GIB, timeline

RAM = 16 * GIB


def test_a_cell_waiting_for_one_child_process_after_another_is_waiting() -> None:
    # subprocess.run per file: the process's CPU (children included) is 0.95 core, its own thread 0.3 of it
    report = timeline(cpu_cores=0.95, cores=2)
    report.thread_times = [ThreadTime("MainThread", cpu_s=0.2 * report.wall_s, cell=True)]
    v = compute_verdict(report, mem_total_bytes=RAM)
    assert v is not None and v.code == "AIP903", v
    assert "own threads worked 20 %" in v.sentence and "child processes" in v.sentence
    assert v.evidence["child_cpu_s"] == round(0.75 * report.wall_s, 3)


def test_children_on_several_cores_or_a_thread_that_did_the_work_are_cpu_verdicts() -> None:
    pool = timeline(cpu_cores=1.9, cores=2)  # a process pool: the children ran side by side
    pool.thread_times = [ThreadTime("MainThread", cpu_s=0.05 * pool.wall_s, cell=True)]
    v = compute_verdict(pool, mem_total_bytes=RAM)
    assert v is not None and v.code == "AIP908"
    alone = timeline(cpu_cores=0.95, cores=2)  # the cell's own thread computed
    alone.thread_times = [ThreadTime("MainThread", cpu_s=0.9 * alone.wall_s, cell=True)]
    v = compute_verdict(alone, mem_total_bytes=RAM)
    assert v is not None and v.code == "AIP907"


def test_threads_on_more_than_a_core_of_a_full_machine_are_not_gil_bound() -> None:
    # np.sort in a pool of 4 threads on a shared 2-core machine: 1.25 cores, others held the rest
    report = timeline(cpu_cores=1.25, cores=2, busy_threads=4)
    report.other_cpu_s = 0.7 * report.wall_s
    v = compute_verdict(report, mem_total_bytes=RAM)
    assert v is None or v.code != "AIP902"


def test_threads_of_pure_python_at_one_core_of_a_full_machine_stay_gil_bound() -> None:
    report = timeline(cpu_cores=1.0, cores=2, busy_threads=4)
    report.other_cpu_s = 0.95 * report.wall_s
    v = compute_verdict(report, mem_total_bytes=RAM)
    assert v is not None and v.code == "AIP902"
    idle = timeline(cpu_cores=1.25, cores=2, busy_threads=4)  # an idle machine: 1.25 cores is still turns
    idle.other_cpu_s = 0.05 * idle.wall_s
    v = compute_verdict(idle, mem_total_bytes=RAM)
    assert v is not None and v.code == "AIP902"


def test_pool_threads_that_ran_only_library_code_on_a_full_machine_are_not_gil_bound() -> None:
    # executor.map(np.sort, chunks) at 1.0 core while other processes held the other: no Python of the
    # user's ran in the workers, so "Python threads take turns holding the GIL" is not what the run shows
    report = timeline(cpu_cores=1.0, cores=2, busy_threads=4)
    report.other_cpu_s = 0.9 * report.wall_s
    report.thread_times = [ThreadTime(f"ThreadPoolExecutor-0_{i}", cpu_s=0.24 * report.wall_s, started=True)
                           for i in range(4)] + [ThreadTime("MainThread", cpu_s=0.04 * report.wall_s, cell=True,
                                                            user_samples=40)]
    v = compute_verdict(report, mem_total_bytes=RAM)
    assert v is None or v.code != "AIP902"
    for t in report.thread_times[:4]:  # the same threads running the user's function: turns at the GIL
        t.cell, t.user_samples = True, 12
    v = compute_verdict(report, mem_total_bytes=RAM)
    assert v is not None and v.code == "AIP902"
