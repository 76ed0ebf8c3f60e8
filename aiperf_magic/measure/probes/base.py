"""The probe protocol the sampler drives."""

from __future__ import annotations

from typing import Any, Protocol


class Probe(Protocol):
    """One source of counters.

    ``start`` runs once before the first tick (prime deltas, open handles), ``sample`` once per
    tick on the sampler thread and must be cheap, ``stop`` once after the last tick. A probe never
    raises out of ``sample``: on a broken counter it turns that counter off and says why in
    ``notes`` (one line each, shown to the user).
    """

    notes: list[str]

    def start(self) -> None: ...

    def sample(self, row: dict[str, Any]) -> None:
        """Add this tick's values to ``row`` under the column names of ``report.Samples``
        (``gpus`` takes a list of per-GPU dicts keyed like ``report.GpuSeries`` fields)."""

    def stop(self) -> None: ...


# Names of aiperf's own threads start with this: a probe never counts them as the user's work.
THREAD_PREFIX = "aiperf-"
