"""AIP2xx: Python data structures used where arrays, sets or one join belong."""

from . import growing_arrays, list_lookups, loop_arithmetic

__all__ = ["growing_arrays", "list_lookups", "loop_arithmetic"]
