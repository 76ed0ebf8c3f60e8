import os
import threading
import time
from types import SimpleNamespace

import pytest

from aiperf_magic.measure.probes import procfs
from aiperf_magic.measure.probes.gpu import GpuProbe
from aiperf_magic.measure.probes.host import HostProbe
from aiperf_magic.measure.sampler import Sampler, live_threads


class FakeClock:
    def __init__(self):
        self.now = 100.0

    def __call__(self):
        return self.now


class CountingProbe:
    def __init__(self):
        self.notes = []
        self.n = 0
        self.started = self.stopped = False

    def start(self):
        self.started = True

    def sample(self, row):
        self.n += 1
        row["cpu_percent"] = float(self.n)
        row["rss_bytes"] = 1000 + self.n

    def stop(self):
        self.stopped = True


def test_ticks_fill_columns_with_times_from_the_injected_clock():
    clock, probe = FakeClock(), CountingProbe()
    sampler = Sampler([probe], interval_s=0.02, clock=clock)
    sampler.start(thread=False)
    for _ in range(3):
        clock.now += 0.02
        sampler.tick()
    samples = sampler.stop()
    assert probe.started and probe.stopped
    assert samples.t == pytest.approx([0.02, 0.04, 0.06])
    assert samples.cpu_percent == [1.0, 2.0, 3.0]
    assert samples.rss_bytes == [1001, 1002, 1003]
    assert samples.swap_used_bytes == [None, None, None]


def test_memory_stays_bounded_by_downsampling():
    clock = FakeClock()
    sampler = Sampler([CountingProbe()], interval_s=0.02, clock=clock, capacity=100)
    sampler.start(thread=False)
    for _ in range(10_000):  # 200 s of samples at 20 ms
        clock.now += 0.02
        sampler.tick()
    samples = sampler.stop()
    assert len(samples) <= 100
    assert samples.downsampled >= 64
    assert samples.t[-1] > 190  # still covers the whole run
    assert samples.t == sorted(samples.t)


def test_thread_samples_in_background_and_stops():
    sampler = Sampler([CountingProbe()], interval_s=0.005)
    sampler.start()
    assert sampler.running and live_threads()
    time.sleep(0.1)
    samples = sampler.stop()
    assert not sampler.running and not live_threads()
    assert len(samples) >= 3


def test_a_probe_that_raises_is_noted_and_does_not_stop_others():
    class Broken:
        def __init__(self):
            self.notes = []

        def start(self):
            raise RuntimeError("no counters here")

        def sample(self, row):
            raise RuntimeError("boom")

        def stop(self):
            pass

    clock, good = FakeClock(), CountingProbe()
    sampler = Sampler([Broken(), good], clock=clock)
    sampler.start(thread=False)
    clock.now += 1
    sampler.tick()
    samples = sampler.stop()
    assert samples.cpu_percent[0] == 1.0
    assert any("no counters here" in n for n in sampler.notes)
    assert any("boom" in n for n in sampler.notes)


@pytest.mark.parametrize("interval_s", [0, -1, float("inf"), float("nan"), 1e300])
def test_interval_the_thread_cannot_wait_for_is_refused(interval_s):
    with pytest.raises(ValueError, match="interval must be a positive number of seconds"):
        Sampler([], interval_s=interval_s)


# -- host probe ------------------------------------------------------------------------------------------
class DeniedProcess:
    def memory_info(self):
        return SimpleNamespace(rss=123)

    def io_counters(self):
        raise PermissionError("access denied")


def test_host_probe_turns_off_a_denied_counter_with_one_note():
    import psutil

    probe = HostProbe(process=DeniedProcess(), psutil_module=psutil)
    probe.start()
    rows = []
    for _ in range(3):
        row = {}
        probe.sample(row)
        rows.append(row)
    assert all(r["rss_bytes"] == 123 for r in rows)
    assert all(r["read_bytes"] is None for r in rows)
    assert len([n for n in probe.notes if "disk I/O" in n]) == 1


def test_slow_host_counters_are_read_every_tenth_of_a_second_and_fresh_in_the_last_row():
    class Counting:
        def __init__(self):
            self.reads = {"memory": 0, "io": 0}

        def cpu_per_core(self):
            return [10.0]

        def machine_busy_s(self):
            return 1.0

        def rss(self):
            return 100

        def memory(self):
            self.reads["memory"] += 1
            return 1000 - self.reads["memory"], 0

        def io(self):
            self.reads["io"] += 1
            return 10 * self.reads["io"], 0

        def close(self):
            pass

    clock = FakeClock()
    probe = HostProbe(process=SimpleNamespace(), psutil_module=SimpleNamespace(), clock=clock)
    counters = probe._counters = Counting()
    probe.start()
    rows = []
    for _ in range(12):  # 30 ms apart: 0.33 s
        row = {}
        probe.sample(row)
        rows.append(row)
        clock.now += 0.03
    probe.stop()
    assert all(r["rss_bytes"] == 100 and r["cpu_per_core"] == [10.0] for r in rows)  # every tick
    assert counters.reads == {"memory": 4, "io": 4}  # at 0, 0.12 and 0.24 s, and the last row's own
    assert [r["read_bytes"] for r in rows[:9]] == [10] * 4 + [20] * 4 + [30]
    assert rows[-1]["read_bytes"] == 40 and rows[-1]["mem_available_bytes"] == 996  # fresh at the end
    assert rows[-2]["read_bytes"] == 30
    probe.start()
    row = {}
    probe.sample(row)  # a cell of one row: read fresh at that row, not again at the end
    probe.stop()
    assert counters.reads == {"memory": 5, "io": 5} and row["read_bytes"] == 50


def test_host_probe_reads_this_machine():
    probe = HostProbe()
    probe.start()
    row = {}
    probe.sample(row)
    assert row["rss_bytes"] > 1_000_000
    assert row["mem_available_bytes"] > 0
    assert isinstance(row["cpu_per_core"], list) and len(row["cpu_per_core"]) >= 1


# -- GPU probe with a fake NVML ------------------------------------------------------------------------
class FakeNVML:
    NVML_PCIE_UTIL_RX_BYTES = 1
    NVML_PCIE_UTIL_TX_BYTES = 0

    def __init__(self, n=2, fail_after=None, pids=(4242,)):
        self.n, self.fail_after, self.reads, self.pids = n, fail_after, 0, pids
        self.shutdown = 0

    def nvmlInit(self):
        pass

    def nvmlShutdown(self):
        self.shutdown += 1

    def nvmlDeviceGetCount(self):
        return self.n

    def nvmlDeviceGetHandleByIndex(self, i):
        return i

    def nvmlDeviceGetName(self, h):
        return f"FakeGPU {h}".encode()

    def nvmlDeviceGetUtilizationRates(self, h):
        self.reads += 1
        if self.fail_after is not None and self.reads > self.fail_after:
            raise RuntimeError("GPU is lost")
        return SimpleNamespace(gpu=50 + h)

    def nvmlDeviceGetMemoryInfo(self, h):
        return SimpleNamespace(used=(h + 1) << 30, total=80 << 30)

    def nvmlDeviceGetPcieThroughput(self, h, kind):
        return 1000 * (kind + 1)

    def nvmlDeviceGetPowerUsage(self, h):
        return 300_000

    def nvmlDeviceGetComputeRunningProcesses(self, h):
        return [SimpleNamespace(pid=p, usedGpuMemory=5 << 20) for p in self.pids]


def test_fake_nvml_with_two_gpus_fills_two_series():
    clock = FakeClock()
    gpu = GpuProbe(nvml=FakeNVML(), pid=4242, min_period_s=0.0, clock=clock)
    sampler = Sampler([gpu], clock=clock)
    sampler.start(thread=False)
    for _ in range(3):
        clock.now += 0.02
        sampler.tick()
    samples = sampler.stop()
    assert [g.index for g in samples.gpus] == [0, 1]
    assert samples.gpus[1].util_percent == [51.0] * 3
    assert samples.gpus[0].mem_used_bytes[0] == 1 << 30
    assert samples.gpus[0].pcie_rx_bytes_s[0] == 1024.0 * 2000
    assert samples.gpus[0].process_mem_bytes[0] == 5 << 20
    assert samples.gpus[0].power_w[0] == 300.0
    assert [g.name for g in gpu.info] == ["FakeGPU 0", "FakeGPU 1"]
    assert gpu.info[0].process_memory_scope == "process"


def test_hidden_pids_mean_device_wide_memory():
    gpu = GpuProbe(nvml=FakeNVML(n=1, pids=(1,)), pid=4242)
    gpu.start()
    row = {}
    gpu.sample(row)
    gpu.stop()
    assert gpu.info[0].process_memory_scope == "device-wide"
    assert row["gpus"][0]["process_mem_bytes"] is None


def test_nvml_error_mid_run_turns_gpu_sampling_off_with_a_note():
    clock = FakeClock()
    nvml = FakeNVML(n=1, fail_after=2)
    gpu = GpuProbe(nvml=nvml, pid=4242, min_period_s=0.0, clock=clock)
    sampler = Sampler([gpu], clock=clock)
    sampler.start(thread=False)
    for _ in range(5):
        clock.now += 0.02
        sampler.tick()
    samples = sampler.stop()
    assert samples.gpus[0].util_percent[:2] == [50.0, 50.0]
    assert samples.gpus[0].util_percent[2:] == [None, None, None]
    assert any("stopped mid-run" in n for n in sampler.notes)
    assert nvml.shutdown == 1


def test_missing_nvml_is_a_note_not_an_error():
    class NoLibrary:
        def nvmlInit(self):
            raise OSError("NVML Shared Library Not Found")

    gpu = GpuProbe(nvml=NoLibrary())
    gpu.start()
    row = {}
    gpu.sample(row)
    gpu.stop()
    assert "gpus" not in row
    assert gpu.notes == ["GPU not sampled: NVML unavailable (OSError: NVML Shared Library Not Found)"]


def test_a_system_without_nvml_is_looked_up_once_per_process(monkeypatch):
    import sys

    from aiperf_magic.measure.probes import gpu as gpu_module

    class LibraryNotFound(Exception):
        pass

    LibraryNotFound.__name__ = "NVMLError_LibraryNotFound"
    tries = []

    class Module:
        def nvmlInit(self):
            tries.append(1)
            raise LibraryNotFound("NVML Shared Library Not Found")

    monkeypatch.setitem(sys.modules, "pynvml", Module())
    monkeypatch.setattr(gpu_module, "_MISSING", None)
    notes = []
    for _ in range(3):
        probe = GpuProbe()
        probe.start()
        row = {}
        probe.sample(row)
        probe.stop()
        assert "gpus" not in row
        notes.append(probe.notes)
    assert len(tries) == 1  # the later cells did not look for the library again
    assert notes[0] == notes[1] == notes[2] == [
        "GPU not sampled: NVML unavailable (NVMLError_LibraryNotFound: NVML Shared Library Not Found)"]
    GpuProbe(nvml=Module()).start()  # an NVML handed in (a test's) is always tried
    assert len(tries) == 2


def test_gpu_reads_are_throttled_and_repeated_between_reads():
    clock = FakeClock()
    nvml = FakeNVML(n=1)
    gpu = GpuProbe(nvml=nvml, pid=4242, min_period_s=0.1, clock=clock)
    gpu.start()
    rows = []
    for _ in range(10):
        clock.now += 0.02
        row = {}
        gpu.sample(row)
        rows.append(row)
    gpu.stop()
    assert nvml.reads == 2  # at t=0.02 and t=0.12
    assert all(r["gpus"][0]["util_percent"] == 50.0 for r in rows)


def test_sampler_threads_are_daemons_named_for_the_leak_guard():
    sampler = Sampler([CountingProbe()], interval_s=0.01)
    sampler.start()
    try:
        names = [t.name for t in threading.enumerate()]
        assert "aiperf-sampler" in names
    finally:
        sampler.stop()


@pytest.mark.skipif(not procfs.available(), reason="Linux /proc only")
def test_procfs_counters_agree_with_psutil():
    import psutil

    from aiperf_magic.measure.probes.procfs import ProcfsCounters

    counters = ProcfsCounters()
    try:
        assert counters.cpu_per_core() == [0.0] * psutil.cpu_count()  # the first reading primes
        sum(i * i for i in range(300_000))
        cores = counters.cpu_per_core()
        assert len(cores) == psutil.cpu_count() and all(0.0 <= c <= 100.0 for c in cores)
        assert abs(counters.rss() - psutil.Process().memory_info().rss) < 16 << 20
        available, swap = counters.memory()
        assert abs(available - psutil.virtual_memory().available) < 512 << 20
        assert swap == psutil.swap_memory().used
        read, written = counters.io()
        io = psutil.Process().io_counters()
        assert read <= io.read_bytes + (1 << 20) and written <= io.write_bytes + (1 << 20)
    finally:
        counters.close()


@pytest.mark.skipif(not procfs.available(), reason="Linux /proc only")
def test_the_hypervisors_steal_over_the_cell_is_read_with_the_machines_total():
    probe = HostProbe()
    probe.start()
    end = time.perf_counter() + 0.05
    while time.perf_counter() < end:
        pass
    probe.stop()
    assert probe.steal_s is not None and 0.0 <= probe.steal_s < 0.05 * (os.cpu_count() or 1) + 0.02
    assert probe.notes == []


@pytest.mark.skipif(not procfs.available(), reason="Linux /proc only")
def test_the_machines_total_is_taken_from_the_per_core_reading_of_the_same_moment():
    from aiperf_magic.measure.probes.procfs import ProcfsCounters

    counters = ProcfsCounters()
    reads = []
    read = counters._read
    counters._read = lambda name: (reads.append(name), read(name))[1]
    try:
        counters.cpu_per_core()
        busy = counters.machine_busy_s()
        assert reads == ["stat"] and busy > 0  # one /proc/stat for both, at the cell's start
        time.sleep(0.002)
        counters.machine_busy_s()
        counters.cpu_per_core()
        assert reads == ["stat"] * 3  # older than a millisecond: read again; per core: always fresh
    finally:
        counters.close()
