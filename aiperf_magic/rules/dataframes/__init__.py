"""AIP3xx: pandas used row by row, or storing and loading more than it needs."""

from . import dtypes, read_options, row_apply, row_loops

__all__ = ["dtypes", "read_options", "row_apply", "row_loops"]
