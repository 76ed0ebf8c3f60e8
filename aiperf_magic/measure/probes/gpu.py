"""GPU counters through NVML (the ``nvidia-ml-py`` package, imported as ``pynvml``).

No driver, no NVML, no device, or an NVML error mid-run: GPU sampling turns off with a one-line note,
never an exception. NVML refreshes utilisation only a few times a second, so the device is read at
most every ``min_period_s`` and the last reading is repeated in between (the columns stay aligned).
"""

from __future__ import annotations

import os
import time
from typing import Any

from ...report import GpuInfo

_MIB = 1024 * 1024
# Why NVML cannot be used in this process, once known for good: no nvidia-ml-py, or no NVML library
# on the system (no driver). Looking for the library again on every cell cost about 0.2 ms.
_MISSING: str | None = None


class GpuProbe:
    def __init__(self, nvml: Any = None, *, min_period_s: float = 0.1, pid: int | None = None,
                 clock: Any = time.perf_counter) -> None:
        self._nvml = nvml
        self._handles: list[Any] = []
        self._last_read = -1e9
        self._last: list[dict[str, Any]] = []
        self._min_period_s = min_period_s
        self._pid = pid if pid is not None else os.getpid()
        self._clock = clock
        self._initialised = False
        self._reads = 0
        self.notes: list[str] = []
        self.info: list[GpuInfo] = []

    # -- lifecycle ---------------------------------------------------------------------------------
    def start(self) -> None:
        global _MISSING
        system = self._nvml is None  # the installed NVML, not one a test injected
        if system and _MISSING is not None:
            self._off(_MISSING)
            return
        try:
            if self._nvml is None:
                import pynvml

                self._nvml = pynvml
            self._nvml.nvmlInit()
            self._initialised = True
            count = self._nvml.nvmlDeviceGetCount()
            self._handles = [self._nvml.nvmlDeviceGetHandleByIndex(i) for i in range(count)]
        except Exception as exc:  # ImportError, NVMLError_LibraryNotFound, NVMLError_DriverNotLoaded...
            note = f"GPU not sampled: NVML unavailable ({_describe(exc)})"
            if system and (isinstance(exc, ImportError) or type(exc).__name__ == "NVMLError_LibraryNotFound"):
                _MISSING = note  # it will not appear later in this process
            self._off(note)
            return
        if not self._handles:
            self._off("GPU not sampled: NVML found no GPU")
            return
        self.info = [self._describe_device(i, h) for i, h in enumerate(self._handles)]

    def sample(self, row: dict[str, Any]) -> None:
        if not self._handles:
            return
        now = self._clock()
        if now - self._last_read >= self._min_period_s:
            self._last_read = now
            try:
                self._last = [self._read(h) for h in self._handles]
                self._reads += 1
            except Exception as exc:
                self._off(f"GPU sampling stopped mid-run: NVML error ({_describe(exc)})")
                return
        row["gpus"] = [dict(d) for d in self._last]

    def stop(self) -> None:
        if self._initialised:
            self._initialised = False
            try:
                self._nvml.nvmlShutdown()
            except Exception:
                pass  # shutting down a broken NVML must not hide the report

    # -- reading -----------------------------------------------------------------------------------
    def _describe_device(self, index: int, handle: Any) -> GpuInfo:
        nv = self._nvml
        name = _try(lambda: nv.nvmlDeviceGetName(handle), "")
        if isinstance(name, bytes):
            name = name.decode(errors="replace")
        total = _try(lambda: int(nv.nvmlDeviceGetMemoryInfo(handle).total), None)
        procs = _try(lambda: nv.nvmlDeviceGetComputeRunningProcesses(handle), None)
        # Containers often hide host PIDs from NVML: then only device-wide memory can be shown.
        scope = "process" if procs is not None and any(p.pid == self._pid for p in procs) else "device-wide"
        return GpuInfo(index=index, name=str(name), memory_total_bytes=total, process_memory_scope=scope)

    def _read(self, handle: Any) -> dict[str, Any]:
        nv = self._nvml
        util = nv.nvmlDeviceGetUtilizationRates(handle)
        mem = nv.nvmlDeviceGetMemoryInfo(handle)
        out: dict[str, Any] = {
            "util_percent": float(util.gpu),
            "mem_used_bytes": int(mem.used),
            "mem_total_bytes": int(mem.total),
        }
        # Optional counters: some boards or drivers refuse them; that is not a reason to stop.
        # NVML measures PCIe throughput over a ~20 ms window per call, so it is read every 5th time only.
        if self._reads % 5 == 0 or not self._last:
            out["pcie_rx_bytes_s"] = _try(lambda: 1024.0 * nv.nvmlDeviceGetPcieThroughput(
                handle, nv.NVML_PCIE_UTIL_RX_BYTES), None)
            out["pcie_tx_bytes_s"] = _try(lambda: 1024.0 * nv.nvmlDeviceGetPcieThroughput(
                handle, nv.NVML_PCIE_UTIL_TX_BYTES), None)
        else:
            previous = self._last[self._handles.index(handle)]
            out["pcie_rx_bytes_s"] = previous.get("pcie_rx_bytes_s")
            out["pcie_tx_bytes_s"] = previous.get("pcie_tx_bytes_s")
        out["power_w"] = _try(lambda: nv.nvmlDeviceGetPowerUsage(handle) / 1000.0, None)
        out["process_mem_bytes"] = _try(lambda: self._process_memory(handle), None)
        return out

    def _process_memory(self, handle: Any) -> int | None:
        for proc in self._nvml.nvmlDeviceGetComputeRunningProcesses(handle):
            if proc.pid == self._pid:
                used = proc.usedGpuMemory
                return int(used) if used is not None else None
        return None

    def _off(self, note: str) -> None:
        self._handles = []
        self.notes.append(note)
        self.stop()


def _try(read: Any, default: Any) -> Any:
    try:
        return read()
    except Exception:
        return default


def _describe(exc: BaseException) -> str:
    text = str(exc).strip()
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__
