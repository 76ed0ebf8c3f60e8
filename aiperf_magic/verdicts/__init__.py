"""The bottleneck verdicts (AIP9xx): statistics over a run's samples, the checks, and their stage."""
