"""torch's view of the GPU: synchronise before reading the end time, and the allocator's per-cell peak.

Used only when the user's process has already imported torch (``sys.modules``): aiperf never imports
torch itself, and never initialises CUDA on its own.
"""

from __future__ import annotations

import sys
from typing import Any


class CudaClock:
    def __init__(self, torch_module: Any = None) -> None:
        self._torch = torch_module
        self.reset_at_start = False
        self.notes: list[str] = []

    def _cuda(self) -> Any:
        """torch.cuda when torch is loaded and CUDA is initialised, else None."""
        torch = self._torch if self._torch is not None else sys.modules.get("torch")
        cuda = getattr(torch, "cuda", None)
        try:
            if cuda is not None and cuda.is_available() and cuda.is_initialized():
                return cuda
        except Exception:
            return None
        return None

    def start(self) -> None:
        cuda = self._cuda()
        if cuda is None:
            return
        try:
            cuda.synchronize()  # work queued by earlier cells must not be billed to this one
            cuda.reset_peak_memory_stats()
            self.reset_at_start = True
        except Exception as exc:
            self.notes.append(f"CUDA peak memory not reset: {type(exc).__name__}: {exc}")

    def synchronize(self) -> bool:
        """Wait for queued GPU work; True when a synchronise happened (CUDA is in use)."""
        cuda = self._cuda()
        if cuda is None:
            return False
        try:
            cuda.synchronize()
            return True
        except Exception as exc:
            self.notes.append(f"CUDA synchronise failed: {type(exc).__name__}: {exc}")
            return False

    def peak_bytes(self) -> int | None:
        cuda = self._cuda()
        if cuda is None:
            return None
        try:
            # If CUDA was initialised during this cell the peak since initialisation is this cell's peak.
            return int(cuda.max_memory_allocated())
        except Exception:
            return None
