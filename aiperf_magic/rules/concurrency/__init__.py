"""AIP4xx: threads and blocking calls."""

from . import blocking_io, cpu_threads

__all__ = ["blocking_io", "cpu_threads"]
