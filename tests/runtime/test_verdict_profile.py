"""Verdicts read the cell's own CPU profile, and their advice fits what the hot lines did."""

from __future__ import annotations

import pytest

from aiperf_magic.report import Hotspot, Report, ThreadTime
from aiperf_magic.verdicts.advice import hot_work, kinds_of
from aiperf_magic.verdicts.stage import compute_verdict, diagnose
from tests.runtime.timelines import GIB, timeline

RAM = 16 * GIB


def busy_machine(cpu_cores: float, wait_share: float, cores: int = 2) -> Report:
    report = timeline(cpu_cores=cpu_cores, cores=cores)
    report.cpu_wait_s = wait_share * report.wall_s
    report.other_cpu_s = (cores - cpu_cores) * report.wall_s
    return report


def test_under_half_a_core_on_a_busy_machine_is_never_cpu_bound_on_one_core() -> None:
    result = diagnose(busy_machine(0.4, 0.55), mem_total_bytes=RAM)
    assert result.verdicts == []
    assert result.note is not None and "machine was busy" in result.note and "0.40 core" in result.note
    assert "other processes used 1.6 cores" in result.note


def test_more_than_half_a_core_that_waited_for_the_rest_is_cpu_bound_on_one_core() -> None:
    # a pandas row loop next to a browser drawing the panel: 0.66 core of its own, 0.39 waiting
    v = compute_verdict(busy_machine(0.66, 0.39), mem_total_bytes=RAM)
    assert v is not None and v.code == "AIP907" and v.evidence["cell_cpu_cores"] == 0.66
    assert "ran 0.66 core" in v.sentence and "waited 0.39 s" in v.sentence
    # half a core or less is the machine's story, and a cell that did not want a core is no CPU verdict
    assert compute_verdict(busy_machine(0.48, 0.45), mem_total_bytes=RAM) is None
    assert compute_verdict(busy_machine(0.55, 0.1), mem_total_bytes=RAM) is None


def test_cpu_a_hypervisor_gave_other_machines_counts_as_waiting_for_a_cpu() -> None:
    # a spin loop on a virtual machine whose host ran other machines on its CPUs: 0.6 core of its own,
    # no wait in this machine's run queue, 0.8 CPU-second of steal over its 2 cores
    report = busy_machine(0.6, 0.0)
    report.other_cpu_s, report.machine_cores = 0.0, 2
    assert compute_verdict(report, mem_total_bytes=RAM) is None  # without the steal: no CPU verdict
    report.steal_s = 0.8
    v = compute_verdict(report, mem_total_bytes=RAM)
    assert v is not None and v.code == "AIP907" and v.evidence["cpu_wait_cores"] == 0.4
    # in proportion to the CPU the cell's work ran: a cell that sleeps loses next to nothing to it
    idle = busy_machine(0.05, 0.0)
    idle.other_cpu_s, idle.machine_cores, idle.steal_s = 0.0, 2, 0.8
    result = diagnose(idle, mem_total_bytes=RAM)
    assert [v.code for v in result.verdicts] == ["AIP903"] and result.note is None


def test_a_core_of_its_own_with_a_long_wait_is_one_core_not_all_cores() -> None:
    # the case: 0.9 of 2 cores, and a long wait for a CPU that once made it "all cores"
    report = busy_machine(0.9, 0.8)
    v = compute_verdict(report, mem_total_bytes=RAM)
    assert v is not None and v.code == "AIP907"
    assert v.evidence["cell_cpu_cores"] == 0.9 and v.evidence["cpu_wait_cores"] == 0.8
    assert "0.9 core" in v.sentence and "waited 0.80 s for a CPU" in v.sentence


def test_threads_that_ran_none_of_the_cells_work_do_not_count_as_the_cells_cpu() -> None:
    report = timeline(cpu_cores=0.75, cores=2)
    report.thread_times = [ThreadTime("MainThread", cpu_s=0.6 * report.wall_s, cell=True),
                           ThreadTime("aiperf-sampler", cpu_s=0.15 * report.wall_s)]
    assert compute_verdict(report, mem_total_bytes=RAM) is None
    report.thread_times[1].cell = True  # a worker thread of the cell's: its CPU is the cell's
    v = compute_verdict(report, mem_total_bytes=RAM)
    assert v is not None and v.code == "AIP907" and v.evidence["cell_cpu_cores"] == 0.75


@pytest.mark.parametrize("cores", [0.8, 1.2, 1.7, 3.9])
def test_a_cpu_verdicts_numbers_bear_out_its_name(cores: float) -> None:
    report = busy_machine(cores, 0.5, cores=4)
    v = compute_verdict(report, mem_total_bytes=RAM)
    assert v is not None
    own = v.evidence["process_cpu_cores"]
    assert (v.code == "AIP907" and 0.7 <= own < 1.5) or (v.code == "AIP908" and own >= 1.5)
    assert ("all cores" in v.title) == (own >= 0.8 * 4)


def hot(line: int, share: float, callees: dict[str, int], text: str = "", **types: str) -> Hotspot:
    samples = max(sum(callees.values()), 10)
    return Hotspot(line=line, seconds=share, share=share, samples=samples, callees=callees, text=text,
                   types=dict(types))


def advice_for(*spots: Hotspot) -> str:
    report = timeline(cpu_cores=1.0, cores=2)
    report.hotspots = list(spots)
    v = compute_verdict(report, mem_total_bytes=RAM)
    assert v is not None and v.code == "AIP907"
    return v.advice


def test_a_torch_forward_pass_is_not_told_to_vectorise_with_numpy() -> None:
    advice = advice_for(hot(3, 0.9, {"Module._wrapped_call_impl": 10}, "y = model(x)", model="torch.nn.Linear"))
    assert "NumPy" not in advice and "torch" in advice and "line 4" in advice  # as the user counts: %%aiperf is line 1


def test_advice_follows_the_kind_of_work_of_the_hot_lines() -> None:
    loader = advice_for(hot(1, 0.7, {"_BaseDataLoaderIter.__next__": 10}, "for x, y in loader:"))
    assert "num_workers" in loader
    rows = advice_for(hot(2, 0.8, {"_LocationIndexer.__getitem__": 9}, "v = df.iloc[i]['a']"))
    assert "whole columns" in rows
    loop = advice_for(hot(4, 0.95, {}, "output[i] = 1.0 / values[i]", values="numpy.ndarray"))
    assert "vectorise" in loop and "line 5" in loop
    parse = advice_for(hot(1, 0.9, {"read_csv": 10}, "df = pd.read_csv(path)"))
    assert "usecols" in parse


def test_a_second_kind_of_work_of_similar_weight_is_named_too() -> None:
    advice = advice_for(hot(4, 0.45, {"_BaseDataLoaderIter.__next__": 10}, "for x, y in loader:"),
                        hot(6, 0.4, {"Module._wrapped_call_impl": 10}, "loss = loss_fn(model(x), y)"))
    assert "num_workers" in advice and "torch" in advice


def test_a_lines_kinds_are_shares_of_its_samples() -> None:
    h = Hotspot(line=2, seconds=1.0, share=1.0, samples=20, callees={"Tensor.backward": 5, "DataFrame.apply": 5})
    kinds = kinds_of(h)
    assert kinds["model"] == pytest.approx(0.25) and kinds["pandas"] == pytest.approx(0.25)
    assert kinds["python"] == pytest.approx(0.5)
    report = timeline(cpu_cores=1.0)
    report.hotspots = [h, Hotspot(line=3, seconds=0.01, share=0.01)]
    assert [w.kind for w in hot_work(report)] == ["python", "model", "pandas"]


def test_a_sleeping_cell_is_told_it_sleeps() -> None:
    report = timeline(cpu_cores=0.02, busy_threads=0)
    report.hotspots = [hot(5, 0.9, {}, "time.sleep(0.06)")]
    v = compute_verdict(report, mem_total_bytes=RAM)
    assert v is not None and v.code == "AIP903" and "sleeps (line 6)" in v.advice


def test_threads_that_starve_the_sampler_are_judged_by_their_own_cpu_clocks() -> None:
    # four threads of pure Python took turns for 0.3 s; holding the GIL, they let the sampler tick 4 times
    report = timeline(n=4, interval=0.075, cpu_cores=0.97, cores=2, busy_threads=None)
    report.thread_times = [ThreadTime(f"Thread-{i}", cpu_s=0.072, cell=True, started=True) for i in range(4)]
    report.thread_times.append(ThreadTime("MainThread", cpu_s=0.002, cell=True))
    v = compute_verdict(report, mem_total_bytes=RAM)
    assert v is not None and v.code == "AIP902" and v.evidence["busy_cell_threads"] == 4.0
    assert "4 of the cell's threads" in v.sentence
    report.thread_times = [ThreadTime("MainThread", cpu_s=0.25, cell=True),
                           ThreadTime("Thread-1", cpu_s=0.04, cell=True, started=True)]
    assert diagnose(report, mem_total_bytes=RAM).verdicts == []  # one thread did the work: too few samples


def test_the_verdict_does_not_bring_back_a_cold_loop_or_a_judged_finding() -> None:
    from aiperf_magic.report import Finding
    from aiperf_magic.verdicts.stage import VerdictStage

    report = timeline(cpu_cores=1.0, cores=2, busy_threads=4)
    cold = Finding(code="AIP201", message="loop", line=3, shown=False, hidden_reason="its lines took 0%")
    judged = Finding(code="AIP401", message="threads", line=5, shown=False, hidden_reason="measured",
                     evidence={"judged": True})
    waiting = Finding(code="AIP401", message="threads", line=7, shown=False, hidden_reason="its lines took 0%")
    report.findings += [cold, judged, waiting]
    VerdictStage().after(None, report)  # type: ignore[arg-type]
    assert report.verdict is not None and report.verdict.code == "AIP902"
    assert not cold.shown and not judged.shown and waiting.shown


def test_a_cell_that_starved_the_sampler_is_judged_by_its_threads_clocks() -> None:
    # 0.35 s of pandas in C stretches that held the GIL: the sampler ticked once
    report = timeline(n=1, interval=0.35, cpu_cores=1.0, cores=2)
    assert diagnose(report, mem_total_bytes=RAM).verdicts == []  # no clock of the cell's threads: too few ticks
    report.cell_cpu_s = 0.34
    report.thread_times = [ThreadTime("MainThread", cpu_s=0.34, cell=True)]
    v = compute_verdict(report, mem_total_bytes=RAM)
    assert v is not None and v.code == "AIP907"
    short = timeline(n=1, interval=0.1, cpu_cores=1.0, cores=2)
    short.cell_cpu_s = 0.1
    assert diagnose(short, mem_total_bytes=RAM).verdicts == []  # 0.1 s: too short for one tick to say
