"""Temporary home of the fixers while they move beside their detectors."""
