"""AIP6xx: work sent to a Dask or Ray cluster one small piece at a time."""

from . import compute_in_loop, submit_in_loop

__all__ = ["compute_in_loop", "submit_in_loop"]
