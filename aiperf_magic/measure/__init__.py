"""Measuring one cell: clocks, the sampler and its probes, hot lines, and the stages that run around it."""
