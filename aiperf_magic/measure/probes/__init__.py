"""Probes read one kind of counter (host, GPU, threads) once per sampler tick."""

from .base import Probe

__all__ = ["Probe"]
