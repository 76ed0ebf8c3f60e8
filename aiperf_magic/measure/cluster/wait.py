"""How long the driver (this process) waited for the cluster during the cell."""

from __future__ import annotations


def driver_wait(wall_s: float, driver_cpu_s: float, span_s: float) -> float:
    """The cell's time off the CPU, bounded by the time the cluster was working (``span_s``):
    the driver can only have waited on the cluster while the cluster had work."""
    return round(max(0.0, min(span_s, wall_s - driver_cpu_s)), 6)
