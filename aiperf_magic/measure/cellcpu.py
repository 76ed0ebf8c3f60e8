"""The cell's own CPU profile, for the verdicts: which threads did the cell's work, the CPU they used
and their wait for a CPU, next to what the whole machine did over the same time.

The process's CPU time (``report.cpu_s``) counts every thread: the kernel's machinery and aiperf's
sampler too, and another process's load never shows in it. The verdicts need to tell "the cell kept
0.4 core busy on a busy machine" from "CPU-bound on one core", so the Report also carries the CPU of
the threads that ran the cell's work (its own thread, and the threads the sampler found on user code
for it) with its worker processes' (as in ``cpu_s``), and the CPU every process of the machine used
(``machine_cpu_s``), of which what was not this process's is ``other_cpu_s``.
"""

from __future__ import annotations

from typing import Any

from ..report import Report, ThreadTime
from .hotspots import LineSampler


def fill_cpu_profile(report: Report, probes: list[Any], lines: LineSampler | None,
                     cell_thread: tuple[int, int | None], own_cpu_s: float, sampler_cpu_s: float) -> None:
    """Fill ``report``'s per-thread and machine CPU fields from the probes and the line sampler.

    ``own_cpu_s`` is the process's CPU over the cell (its children left out), ``sampler_cpu_s`` what
    the sampler's thread used of it."""
    threads = next((p for p in probes if hasattr(p, "thread_cpu")), None)
    host = next((p for p in probes if hasattr(p, "machine_cpu_s")), None)
    if host is not None:
        report.machine_cores = getattr(host, "machine_cores", None)
        machine = host.machine_cpu_s
        if machine is not None:
            report.machine_cpu_s = machine
            report.other_cpu_s = max(0.0, machine - report.cpu_s)
        steal = getattr(host, "steal_s", None)
        report.steal_s = round(steal, 6) if steal is not None else None
    if threads is None or not threads.thread_cpu:
        return
    ident, native = cell_thread
    natives = dict(lines.shares.native_ids) if lines is not None else {}
    if native is not None:
        natives[ident] = native
    samples: dict[int, int] = {}
    cell_natives = {native} if native is not None else set()
    started: set[int] = set()
    if lines is not None:
        for tid, n in lines.thread_samples.items():
            nid = natives.get(tid)
            if nid is None:
                continue
            samples[nid] = n
            if tid not in lines.shares.background:
                cell_natives.add(nid)
        started = {natives[t] for t in lines.shares.started_in_cell if t in natives}
    waits: dict[int, float] = threads.thread_wait
    out = []
    for nid, (name, cpu, born) in threads.thread_cpu.items():
        if cpu <= 0 and nid not in samples and nid not in cell_natives:
            continue  # a parked thread of the kernel's: nothing to say
        out.append(ThreadTime(name=name, cpu_s=round(cpu, 6), wait_s=_round(waits.get(nid)),
                              user_samples=samples.get(nid, 0), cell=nid in cell_natives,
                              started=born or nid in started))
    out.sort(key=lambda t: (-t.cpu_s, t.name))
    report.thread_times = out
    cell = [t for t in out if t.cell]
    if cell:
        # A thread that ended during the cell was last read up to a tick before it ended: the cell's
        # total is the process's CPU less what the others used (read to the end: they are alive),
        # less the sampler's; its worker processes' CPU counts too, as in ``cpu_s``.
        others = sum(t.cpu_s for t in out if not t.cell)
        children = max(0.0, report.cpu_s - own_cpu_s)
        threads_cpu = min(own_cpu_s, max(sum(t.cpu_s for t in cell), own_cpu_s - others - sampler_cpu_s))
        report.cell_cpu_s = round(threads_cpu + children, 6)
        known = [t.wait_s for t in cell if t.wait_s is not None]
        report.cell_cpu_wait_s = round(sum(known), 6) if known else None


def _round(value: float | None) -> float | None:
    return None if value is None else round(value, 6)
