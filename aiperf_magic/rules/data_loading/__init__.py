"""AIP1xx: feeding the model and reading files."""

from . import dataset_objects, pinned_copies, reread_files, whole_files, workers

__all__ = ["dataset_objects", "pinned_copies", "reread_files", "whole_files", "workers"]
