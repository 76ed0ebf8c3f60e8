"""Find a live cluster for the cell, at no cost when the user's process uses none.

Only engines already in ``sys.modules`` are asked: aiperf never imports dask or ray itself. A
Dask client is the default client or a ``distributed.Client`` bound to a name of the namespace;
Ray counts when ``ray.is_initialized()``.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping
from typing import Any, Protocol

from ...report import ClusterInfo


class ClusterProbe(Protocol):
    engine: str

    def start(self) -> None:
        """Called just before the cell runs: remember where the engine's records stand."""

    def finish(self, wall_s: float, driver_cpu_s: float) -> ClusterInfo:
        """Called after the cell: read the engine's records of the cell's time and summarise them."""


def dask_client(namespace: Mapping[str, Any]) -> Any | None:
    """The running ``distributed.Client`` the cell would use, when distributed is imported."""
    module = sys.modules.get("distributed")
    if module is None:
        return None
    client_type = getattr(module, "Client", None)
    try:
        client = module.default_client()
    except Exception:  # no default client (ValueError), or an older API
        client = None
    if client is None and isinstance(client_type, type):
        client = next((v for v in list(namespace.values()) if isinstance(v, client_type)), None)
    if client is None or getattr(client, "status", "running") != "running":
        return None
    if getattr(client, "asynchronous", False):  # its calls return coroutines the cell awaits itself
        return None
    return client


def ray_running() -> bool:
    module = sys.modules.get("ray")
    if module is None:
        return False
    try:
        return bool(module.is_initialized())
    except Exception:
        return False


def find_probe(namespace: Mapping[str, Any]) -> ClusterProbe | None:
    """A probe for the cluster the cell can use (Dask first), or None: nothing imported, nothing asked."""
    client = dask_client(namespace)
    if client is not None:
        from .dask_probe import DaskProbe

        return DaskProbe(client)
    if ray_running():
        from .ray_probe import RayProbe

        return RayProbe()
    return None
